// serveAgent's protocol on the one loopback server (../_serve.ts): a handler
// of (method, path, body text), answered as JSON.
import { type Handler, serve, type Served, serveNode } from "../_serve.ts";

export interface HttpReply {
  readonly status: number;
  readonly body: unknown;
}

export type HttpHandler = (method: string, path: string, text: string) => Promise<HttpReply>;

export type Listener = Served;

function jsonHandler(handler: HttpHandler): Handler {
  return async (request) => {
    const text = request.method === "POST" ? await request.text() : "";
    const reply = await handler(request.method, new URL(request.url).pathname, text);
    return Response.json(reply.body, { status: reply.status });
  };
}

/** Serves `handler` on Deno.serve where there is one, else node:http. */
export function listen(handler: HttpHandler, hostname: string, port: number): Promise<Listener> {
  return serve(jsonHandler(handler), { hostname, port });
}

/** Serves `handler` on node:http. */
export function listenNode(
  handler: HttpHandler,
  hostname: string,
  port: number,
): Promise<Listener> {
  return serveNode(jsonHandler(handler), { hostname, port });
}
