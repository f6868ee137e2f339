// Serves a fetch-style handler (Request in, Response out, bodies streamed):
// Deno.serve under Deno, node:http under Node. The one server behind
// FakeProvider.listen() and serveAgent(). Closing aborts what is still open
// (a stalled stream would otherwise hold the server forever).

/**
 * A fetch-style handler. `signal` aborts when the client goes away before
 * the answer; under Deno it is undefined (Deno.serve's own request signal
 * also aborts when an answer completes), and a client that leaves mid-stream
 * cancels the answer's body instead.
 */
export type Handler = (request: Request, signal: AbortSignal | undefined) => Promise<Response>;

/** Where to listen, and what to end on close. */
export interface ServeOptions {
  /** @default {"127.0.0.1"} */
  readonly hostname?: string;
  /** @default {0: a free port} */
  readonly port?: number;
  /** Ends the answers still open when the server closes. */
  readonly abortOpen?: () => void;
}

/** A listening server. */
export interface Served {
  readonly hostname: string;
  readonly port: number;
  close(): Promise<void>;
}

interface DenoServer {
  readonly addr: { readonly hostname: string; readonly port: number };
  shutdown(): Promise<void>;
  readonly finished: Promise<void>;
}

interface DenoLike {
  serve(
    options: { hostname: string; port: number; onListen?: (addr: unknown) => void },
    handler: (request: Request) => Promise<Response>,
  ): DenoServer;
}

/** Serves `handler` with Deno.serve where there is one, else node:http. */
export function serve(handler: Handler, options: ServeOptions = {}): Promise<Served> {
  const deno = (globalThis as { Deno?: Partial<DenoLike> }).Deno;
  if (typeof deno?.serve === "function") return serveDeno(deno as DenoLike, handler, options);
  return serveNode(handler, options);
}

function serveDeno(deno: DenoLike, handler: Handler, options: ServeOptions): Promise<Served> {
  const server = deno.serve(
    { hostname: options.hostname ?? "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
    (request) => handler(request, undefined),
  );
  let closed: Promise<void> | undefined;
  return Promise.resolve({
    hostname: server.addr.hostname,
    port: server.addr.port,
    close: () =>
      closed ??= (async () => {
        options.abortOpen?.();
        await server.shutdown();
        await server.finished;
      })(),
  });
}

/** Serves `handler` with node:http (what Node users run; Deno has it too). */
export async function serveNode(handler: Handler, options: ServeOptions = {}): Promise<Served> {
  const http = await import("node:http");
  const server = http.createServer(async (req, res) => {
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort(new DOMException("client gone", "AbortError"));
    });
    const chunks: Uint8Array[] = [];
    for await (const chunk of req) chunks.push(chunk as Uint8Array);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === "string") headers.set(k, v);
      else if (Array.isArray(v)) { for (const one of v) headers.append(k, one); }
    }
    const method = req.method ?? "GET";
    const body = chunks.length && method !== "GET" && method !== "HEAD"
      ? new Blob(chunks as BlobPart[])
      : undefined;
    const response = await handler(
      new Request(new URL(req.url ?? "/", "http://127.0.0.1"), { method, headers, body }),
      controller.signal,
    );
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => out[k] = v);
    res.writeHead(response.status, out);
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        res.write(value);
      }
      res.end();
    } catch {
      res.destroy(); // a cut: the client sees the connection drop
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.hostname ?? "127.0.0.1", () => {
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
        options.abortOpen?.();
        server.close((error) => error ? reject(error) : resolve());
        server.closeAllConnections?.();
      }),
  };
}
