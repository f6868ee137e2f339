// The two HTTP adapters behind serveAgent: Deno.serve in Deno, node:http in
// Node. Each takes a handler of (method, path, body text) and answers JSON.

export interface HttpReply {
  readonly status: number;
  readonly body: unknown;
}

export type HttpHandler = (method: string, path: string, text: string) => Promise<HttpReply>;

export interface Listener {
  readonly hostname: string;
  readonly port: number;
  close(): Promise<void>;
}

interface DenoServer {
  readonly addr: { readonly hostname: string; readonly port: number };
  shutdown(): Promise<void>;
  readonly finished: Promise<void>;
}

interface DenoServe {
  serve(
    options: { hostname: string; port: number; onListen?: (addr: unknown) => void },
    handler: (request: Request) => Promise<Response>,
  ): DenoServer;
}

export function hasDenoServe(): boolean {
  return typeof (globalThis as { Deno?: Partial<DenoServe> }).Deno?.serve === "function";
}

export function listenDeno(
  handler: HttpHandler,
  hostname: string,
  port: number,
): Promise<Listener> {
  const deno = (globalThis as unknown as { Deno: DenoServe }).Deno;
  const server = deno.serve({ hostname, port, onListen: () => {} }, async (request) => {
    const text = request.method === "POST" ? await request.text() : "";
    const reply = await handler(request.method, new URL(request.url).pathname, text);
    return Response.json(reply.body, { status: reply.status });
  });
  let closed: Promise<void> | undefined;
  return Promise.resolve({
    hostname: server.addr.hostname,
    port: server.addr.port,
    close: () => closed ??= server.shutdown().then(() => server.finished),
  });
}

export async function listenNode(
  handler: HttpHandler,
  hostname: string,
  port: number,
): Promise<Listener> {
  const http = await import("node:http");
  const server = http.createServer(async (req, res) => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of req) chunks.push(chunk as Uint8Array);
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const reply = await handler(req.method ?? "GET", path, new TextDecoder().decode(bytes));
    const data = new TextEncoder().encode(JSON.stringify(reply.body));
    res.writeHead(reply.status, {
      "content-type": "application/json",
      "content-length": String(data.length),
    });
    res.end(data);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as { address: string; port: number };
  let closed: Promise<void> | undefined;
  return {
    hostname: address.address,
    port: address.port,
    close: () =>
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => error ? reject(error) : resolve());
        server.closeAllConnections?.();
      }),
  };
}
