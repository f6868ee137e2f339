// Streamable HTTP, the MCP transport of spec 2025-11-25 (basic/transports),
// served by a fetch-style handler: POST carries client messages and is
// answered with JSON or an SSE stream, GET opens the server's own stream,
// DELETE ends the session. Status codes and error texts are the official
// SDK's server transport's (1.32.2, src/server/webStandardStreamableHttp.ts)
// where the spec leaves the wording open; bearer auth answers as the SDK's
// requireBearerAuth does (src/server/auth/middleware/bearerAuth.ts).
import { CODE, errorAnswer, type Frame, parseFrame, type RequestId } from "./_jsonrpc.ts";
import { SUPPORTED_PROTOCOL_VERSIONS } from "./_mcp_protocol.ts";
import type { McpSession, Outbox } from "./_mcp_session.ts";

const encoder = new TextEncoder();
const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
};

/**
 * The largest request body read, in bytes: the SDK server transport's
 * `DEFAULT_MAX_REQUEST_BODY_SIZE` (4 MiB, 1.32.2, src/server/requestBody.ts).
 * A larger one is answered 413 without being read whole.
 */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

// The body as text, or undefined once it is larger than `max` (a declared
// Content-Length over it is refused before reading), as the SDK's
// readRequestBody does.
async function readBody(request: Request, max: number): Promise<string | undefined> {
  if (Number(request.headers.get("content-length")) > max) {
    await request.body?.cancel();
    return undefined;
  }
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    if (received > max) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Where the endpoint lives, under any origin. */
export const ENDPOINT = "/mcp";

function sseEvent(message: unknown): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function jsonError(status: number, code: number, message: string, headers = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function cut(): TypeError {
  return new TypeError("The FakeMcpServer cut the connection (a scripted { disconnect: true })");
}

// The answer to one POST: JSON if the responses are the first things the
// server sends for its requests (one object, or for a batch an array), an
// SSE stream if a notification or a request to the client comes first.
class Answer {
  readonly response: Promise<Response>;
  #resolve!: (r: Response) => void;
  #stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  #headers: Record<string, string>;
  #done = false;
  // A batch's: the requests still unanswered, and the answers held for JSON.
  #batch: { open: number; held: unknown[] } | undefined;

  constructor(headers: Record<string, string>, batchOf?: number) {
    this.#headers = headers;
    this.response = new Promise((resolve) => this.#resolve = resolve);
    if (batchOf !== undefined) this.#batch = { open: batchOf, held: [] };
  }

  get done(): boolean {
    return this.#done;
  }

  #open(): ReadableStreamDefaultController<Uint8Array> {
    if (this.#stream) return this.#stream;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    this.#stream = controller;
    this.#resolve(
      new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...this.#headers } }),
    );
    return controller;
  }

  send(message: unknown, final: boolean): void {
    if (this.#done) return;
    const batch = this.#batch;
    if (batch) {
      if (final) batch.open--;
      if (!this.#stream && final) {
        batch.held.push(message);
        if (batch.open === 0) {
          this.#done = true;
          this.#resolve(
            new Response(JSON.stringify(batch.held), {
              status: 200,
              headers: { "content-type": "application/json", ...this.#headers },
            }),
          );
        }
        return;
      }
      const c = this.#open();
      for (const m of batch.held.splice(0)) c.enqueue(sseEvent(m));
      c.enqueue(sseEvent(message));
      if (batch.open === 0) this.end();
      return;
    }
    if (final && !this.#stream) {
      this.#done = true;
      this.#resolve(
        new Response(JSON.stringify(message), {
          status: 200,
          headers: { "content-type": "application/json", ...this.#headers },
        }),
      );
      return;
    }
    const c = this.#open();
    c.enqueue(sseEvent(message));
    if (final) this.end();
  }

  /** One of a batch's requests ends with no answer (cancelled). */
  endOne(): void {
    if (this.#batch && --this.#batch.open > 0) return;
    if (this.#batch && !this.#stream && this.#batch.held.length) {
      this.#batch.open = 0;
      this.#done = true;
      this.#resolve(
        new Response(JSON.stringify(this.#batch.held), {
          status: 200,
          headers: { "content-type": "application/json", ...this.#headers },
        }),
      );
      return;
    }
    this.end();
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    try {
      this.#open().close();
    } catch { /* the client cancelled the body */ }
  }

  fail(): void {
    if (this.#done) return;
    this.#done = true;
    try {
      this.#open().error(cut());
    } catch { /* the client cancelled the body */ }
  }
}

/** One HTTP session: its protocol state and the streams open for it. */
class HttpSession {
  readonly id: string;
  session!: McpSession;
  readonly answers = new Map<RequestId, Answer>();
  stream: ReadableStreamDefaultController<Uint8Array> | undefined;

  constructor(id: string) {
    this.id = id;
  }

  end(error?: Error): void {
    for (const a of this.answers.values()) error ? a.fail() : a.end();
    this.answers.clear();
    try {
      if (error) this.stream?.error(error);
      else this.stream?.close();
    } catch { /* already cancelled by the client */ }
    this.stream = undefined;
  }
}

/** The server side an HTTP handler needs. */
export interface HttpCore {
  readonly token: string | undefined;
  open(out: Outbox): McpSession;
}

/** A Streamable HTTP endpoint over one FakeMcpServer; `close()` ends every session. */
export class HttpEndpoint {
  readonly #core: HttpCore;
  readonly #sessions = new Map<string, HttpSession>();

  constructor(core: HttpCore) {
    this.#core = core;
  }

  /** Ends every session and stream (the server closes). */
  close(): void {
    for (const s of [...this.#sessions.values()]) this.#drop(s);
  }

  #drop(s: HttpSession, error?: Error): void {
    if (this.#sessions.get(s.id) !== s) return;
    this.#sessions.delete(s.id);
    s.end(error);
    s.session.close();
  }

  /** Answers one HTTP request. */
  async handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path !== ENDPOINT) {
      return new Response(`Not Found: the FakeMcpServer's endpoint is ${ENDPOINT}`, {
        status: 404,
        headers: { "content-type": "text/plain" },
      });
    }
    const denied = this.#auth(request.headers);
    if (denied) return denied;
    switch (request.method) {
      case "POST":
        return await this.#post(request);
      case "GET":
        return this.#get(request);
      case "DELETE": {
        const s = this.#session(request.headers);
        if (s instanceof Response) return s;
        this.#drop(s);
        return new Response(null, { status: 200 });
      }
      default:
        return jsonError(405, -32000, "Method not allowed.", { allow: "GET, POST, DELETE" });
    }
  }

  #auth(headers: Headers): Response | undefined {
    const token = this.#core.token;
    if (token === undefined) return undefined;
    const header = headers.get("authorization");
    let problem: string | undefined;
    if (!header) problem = "Missing Authorization header";
    else {
      const [type, given] = header.split(" ");
      if (type.toLowerCase() !== "bearer" || !given) {
        problem = "Invalid Authorization header format, expected 'Bearer TOKEN'";
      } else if (given !== token) problem = "Invalid token";
    }
    if (problem === undefined) return undefined;
    return new Response(JSON.stringify({ error: "invalid_token", error_description: problem }), {
      status: 401,
      headers: {
        "content-type": "application/json",
        "www-authenticate": `Bearer error="invalid_token", error_description="${problem}"`,
      },
    });
  }

  #session(headers: Headers): HttpSession | Response {
    const id = headers.get("mcp-session-id");
    if (!id) return jsonError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    const s = this.#sessions.get(id);
    if (!s) return jsonError(404, -32001, "Session not found");
    const version = headers.get("mcp-protocol-version");
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return jsonError(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${
          SUPPORTED_PROTOCOL_VERSIONS.join(", ")
        })`,
      );
    }
    return s;
  }

  #get(request: Request): Response {
    if (!request.headers.get("accept")?.includes("text/event-stream")) {
      return jsonError(406, -32000, "Not Acceptable: Client must accept text/event-stream");
    }
    const s = this.#session(request.headers);
    if (s instanceof Response) return s;
    if (s.stream) {
      return jsonError(409, -32000, "Conflict: Only one SSE stream is allowed per session");
    }
    const body = new ReadableStream<Uint8Array>({
      start: (c) => void (s.stream = c),
      cancel: () => void (s.stream = undefined),
    });
    return new Response(body, { status: 200, headers: { ...SSE_HEADERS, "mcp-session-id": s.id } });
  }

  async #post(request: Request): Promise<Response> {
    const accept = request.headers.get("accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return jsonError(
        406,
        -32000,
        "Not Acceptable: Client must accept both application/json and text/event-stream",
      );
    }
    const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "application/json") {
      return jsonError(
        415,
        -32000,
        "Unsupported Media Type: Content-Type must be application/json",
      );
    }
    const text = await readBody(request, MAX_REQUEST_BODY_BYTES);
    if (text === undefined) {
      return jsonError(
        413,
        -32000,
        `Payload Too Large: Request body must not exceed ${MAX_REQUEST_BODY_BYTES} bytes`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text; // parseFrame answers the parse error
    }
    // A batch is read on a session that negotiated 2025-03-26 (and the
    // initialize request may not be in one: 2025-03-26 basic/lifecycle).
    const known = Array.isArray(parsed)
      ? this.#sessions.get(request.headers.get("mcp-session-id") ?? "")
      : undefined;
    const frame = parseFrame(parsed, known?.session.batches ?? false);
    if (frame.kind === "invalid") {
      return new Response(JSON.stringify(frame.answer), {
        status: 400,
        headers: { "content-type": "application/json" },
      });
    }
    let s: HttpSession;
    if (frame.kind === "request" && frame.method === "initialize") {
      s = new HttpSession(crypto.randomUUID());
      s.session = this.#core.open(this.#outbox(s));
      this.#sessions.set(s.id, s);
    } else {
      const found = this.#session(request.headers);
      if (found instanceof Response) return found;
      s = found;
    }
    const frames: readonly Frame[] = frame.kind === "batch" ? frame.frames : [frame];
    const ids: RequestId[] = [];
    const reused: unknown[] = [];
    for (const f of frames) {
      // A batch's malformed member is answered in the batch's answer.
      if (f.kind === "invalid" && frame.kind === "batch") reused.push(f.answer);
      if (f.kind !== "request") continue;
      if (s.answers.has(f.id) || ids.includes(f.id) || s.session.inFlight(f.id)) {
        // JSON-RPC: a request id is unique while it is in flight; the first
        // request keeps its answer, this one is refused.
        reused.push(errorAnswer(f.id, {
          code: CODE.invalidRequest,
          message: `Invalid Request: the id ${
            JSON.stringify(f.id)
          } belongs to a request still in flight; use a new id`,
        }));
        continue;
      }
      ids.push(f.id);
    }
    if (frame.kind !== "batch" && reused.length) {
      return new Response(JSON.stringify(reused[0]), {
        status: 400,
        headers: { "content-type": "application/json", "mcp-session-id": s.id },
      });
    }
    if (ids.length === 0 && reused.length === 0) {
      for (const f of frames) s.session.receiveFrame(f);
      return new Response(null, { status: 202 });
    }
    const answer = new Answer(
      { "mcp-session-id": s.id },
      frame.kind === "batch" ? ids.length + reused.length : undefined,
    );
    for (const id of ids) s.answers.set(id, answer);
    for (const r of reused) answer.send(r, true);
    for (const f of frames) {
      if (f.kind === "request" && !ids.includes(f.id)) continue;
      if (f.kind === "invalid" && frame.kind === "batch") continue;
      s.session.receiveFrame(f);
    }
    return await answer.response;
  }

  #outbox(s: HttpSession): Outbox {
    return {
      send: (message, related) => {
        if (related === undefined) {
          try {
            s.stream?.enqueue(sseEvent(message));
          } catch { /* the client closed its stream */ }
          return;
        }
        const answer = s.answers.get(related);
        if (!answer) return;
        const final = "result" in (message as object) || "error" in (message as object);
        answer.send(message, final);
        if (final) s.answers.delete(related);
      },
      disconnect: () => this.#drop(s, cut()),
      close: () => this.#drop(s),
      end: (related) => {
        s.answers.get(related)?.endOne();
        s.answers.delete(related);
      },
    };
  }
}
