// Serves a fetch-style handler (Request in, Response out, bodies streamed) on
// loopback: Deno.serve under Deno, node:http under Node. Closing aborts what
// is still open (a stalled stream would otherwise hold the server forever).

/**
 * A fetch-style handler. `signal` aborts when the client goes away before
 * the answer; under Deno it is undefined (Deno.serve's own request signal
 * also aborts when an answer completes), and a client that leaves mid-stream
 * cancels the answer's body instead.
 */
export type Handler = (request: Request, signal: AbortSignal | undefined) => Promise<Response>;

/** A listening server. */
export interface Served {
  readonly port: number;
  close(): Promise<void>;
}

interface DenoServer {
  readonly addr: { readonly port: number };
  shutdown(): Promise<void>;
  readonly finished: Promise<void>;
}

interface DenoLike {
  serve(
    options: { hostname: string; port: number; onListen?: (addr: unknown) => void },
    handler: (request: Request) => Promise<Response>,
  ): DenoServer;
}

/**
 * Serves `handler` on 127.0.0.1 at a free port; `abortOpen` ends the
 * answers still open when the server closes.
 */
export function serve(handler: Handler, abortOpen: () => void): Promise<Served> {
  const deno = (globalThis as { Deno?: Partial<DenoLike> }).Deno;
  if (typeof deno?.serve === "function") return serveDeno(deno as DenoLike, handler, abortOpen);
  return serveNode(handler, abortOpen);
}

function serveDeno(deno: DenoLike, handler: Handler, abortOpen: () => void): Promise<Served> {
  const server = deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => handler(request, undefined),
  );
  let closed: Promise<void> | undefined;
  return Promise.resolve({
    port: server.addr.port,
    close: () =>
      closed ??= (async () => {
        abortOpen();
        await server.shutdown();
        await server.finished;
      })(),
  });
}

async function serveNode(handler: Handler, abortOpen: () => void): Promise<Served> {
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
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  let closed: Promise<void> | undefined;
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      closed ??= new Promise<void>((resolve, reject) => {
        abortOpen();
        server.close((error) => error ? reject(error) : resolve());
        server.closeAllConnections?.();
      }),
  };
}
