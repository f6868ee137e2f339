/**
 * Serves agents over HTTP on loopback, for API tests.
 *
 * @module
 */
import type { SessionStore } from "../../ports/session_store.ts";
import type { Agent } from "../../runtime/agent.ts";
import type { RunContext } from "../../runtime/context.ts";
import { InMemorySessionStore } from "../../runtime/sessions/in_memory_session_store.ts";
import { Session } from "../../runtime/sessions/session.ts";
import { type HttpReply, listen } from "./_http_listen.ts";
import { nearest } from "../_validate.ts";
import { makeTestCtx } from "../make_test_ctx.ts";
import { checkOptions, is, ports } from "../../runtime/internal.ts";

/** Options for {@linkcode serveAgent}. */
export interface ServeAgentOptions {
  /**
   * The context every request runs on.
   * @default {makeTestCtx()}
   */
  readonly ctx?: RunContext;
  /**
   * The port; 0 picks a free one (read it from `server.url`).
   * @default {0}
   */
  readonly port?: number;
  /**
   * The address to bind. Keep it on loopback: the server has no
   * authentication.
   * @default {"127.0.0.1"}
   */
  readonly hostname?: string;
  /**
   * Where sessions live between requests.
   * @default {new InMemorySessionStore()}
   */
  readonly store?: SessionStore;
}

/**
 * A running agent server. Dispose of it (or `close()` it) to shut it down;
 * closing waits for requests in flight.
 *
 * @example
 * ```ts
 * import type { AgentServer } from "@agentkit/testing/testing";
 * const describe = (s: AgentServer): string => s.url;
 * ```
 */
export interface AgentServer extends AsyncDisposable {
  /** Where to POST: `"http://127.0.0.1:PORT/"`. */
  readonly url: string;
  /** The port bound. */
  readonly port: number;
  /** The session store. */
  readonly store: SessionStore;
  /** Errors the agents threw, in order (each also answered with a 500). */
  readonly errors: readonly unknown[];
  /** Requests received and not answered yet. */
  readonly inFlight: number;
  /** Shuts the server down (idempotent). */
  close(): Promise<void>;
}

const BODY_KEYS = ["prompt", "sessionId", "agent"];

/**
 * Serves one agent (or several, told apart by name) on loopback, with
 * `Deno.serve` under Deno and `node:http` under Node. `POST /` with
 * `{ prompt, sessionId?, agent? }` runs the agent in that session (loaded
 * from and saved to the store, so a follow-up sees earlier turns) and
 * answers `{ result, sessionId }`. A bad request (invalid JSON, a missing
 * prompt, an unknown agent or key) gets a 400 whose `error` says what to
 * send, and the server keeps serving; an agent that throws gets a 500.
 * Requests on one session run one at a time.
 *
 * @param agent The agent, or the agents.
 * @param options Context, port, address, session store.
 * @returns The running server.
 *
 * @example Needs --allow-net=127.0.0.1 (see tests/http/)
 * ```ts ignore
 * import { Agent } from "@agentkit/testing/runtime";
 * import { ApiTestClient, FakeLLM, makeTestCtx, serveAgent } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const ctx = makeTestCtx({ llm: new FakeLLM("4") });
 * await using server = await serveAgent(new Agent("math", { model: "fake-model" }), { ctx, port: 0 });
 * assertEquals(await new ApiTestClient(server.url).send("What is 2+2?"), "4");
 * ```
 */
export async function serveAgent(
  agent: Agent | readonly Agent[],
  options: ServeAgentOptions = {},
): Promise<AgentServer> {
  checkOptions("serveAgent()", options, {
    ctx: ports.ctx,
    port: is.number({ min: 0, max: 65_535, integer: true }),
    hostname: is.text,
    store: ports.sessionStore,
  });
  const agents = new Map<string, Agent>();
  for (const a of Array.isArray(agent) ? agent : [agent]) {
    if (!a || typeof a.run !== "function") {
      throw new TypeError("Cannot serve: pass an Agent, or an array of agents");
    }
    if (agents.has(a.name)) {
      throw new TypeError(`Cannot serve two agents named "${a.name}": names must be unique`);
    }
    agents.set(a.name, a);
  }
  if (agents.size === 0) throw new TypeError("Cannot serve: pass at least one agent");
  const ctx = options.ctx ?? makeTestCtx();
  const store = options.store ?? new InMemorySessionStore();
  const errors: unknown[] = [];
  const queues = new Map<string, Promise<unknown>>();

  const bad = (error: string): HttpReply => ({ status: 400, body: { error } });

  const run = async (target: Agent, prompt: string, sessionId: string): Promise<HttpReply> => {
    try {
      const session = await Session.open(sessionId, { store, scope: ctx.scope });
      const result = await target.run(prompt, ctx, { session });
      return { status: 200, body: { result: result.output, sessionId } };
    } catch (error) {
      errors.push(error);
      const e = error as Error;
      return {
        status: 500,
        body: {
          error: `Agent "${target.name}" failed: ${e?.message ?? String(error)}`,
          name: e?.name,
        },
      };
    }
  };

  let inFlight = 0;
  const handle = async (method: string, path: string, text: string): Promise<HttpReply> => {
    inFlight++;
    try {
      return await route(method, path, text);
    } finally {
      inFlight--;
    }
  };

  const route = (method: string, path: string, text: string): Promise<HttpReply> => {
    if (path !== "/") {
      return Promise.resolve({
        status: 404,
        body: { error: `Nothing at ${path}: POST / with { "prompt": "..." }` },
      });
    }
    if (method !== "POST") {
      return Promise.resolve({
        status: 405,
        body: { error: `Method ${method} is not allowed: POST / with { "prompt": "..." }` },
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return Promise.resolve(
        bad(`Invalid JSON body (${(error as Error).message}); send { "prompt": "..." }`),
      );
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return Promise.resolve(bad('The body must be a JSON object such as { "prompt": "..." }'));
    }
    const b = body as Record<string, unknown>;
    for (const key of Object.keys(b)) {
      if (!BODY_KEYS.includes(key)) {
        const near = nearest(key, BODY_KEYS);
        return Promise.resolve(
          bad(
            `Unknown key "${key}"${
              near ? `; did you mean "${near}"?` : ""
            } (send prompt, and optionally sessionId and agent)`,
          ),
        );
      }
    }
    if (b.prompt === undefined) {
      return Promise.resolve(bad('Missing "prompt": send { "prompt": "..." }'));
    }
    if (typeof b.prompt !== "string") {
      return Promise.resolve(bad(`"prompt" must be a string, got ${typeof b.prompt}`));
    }
    if (b.sessionId !== undefined && (typeof b.sessionId !== "string" || !b.sessionId)) {
      return Promise.resolve(bad('"sessionId" must be a non-empty string'));
    }
    const names = [...agents.keys()].map((n) => `"${n}"`).join(", ");
    let target: Agent | undefined;
    if (b.agent === undefined) {
      if (agents.size > 1) return Promise.resolve(bad(`Name the agent: this server runs ${names}`));
      target = agents.values().next().value;
    } else {
      target = typeof b.agent === "string" ? agents.get(b.agent) : undefined;
      if (!target) {
        return Promise.resolve(
          bad(`Unknown agent ${JSON.stringify(b.agent)}; this server runs ${names}`),
        );
      }
    }
    const sessionId = (b.sessionId as string | undefined) ?? crypto.randomUUID();
    // One request at a time per session, so turns never interleave.
    const key = `${target!.name}\u0000${sessionId}`;
    const previous = queues.get(key) ?? Promise.resolve();
    const reply = previous.then(() => run(target!, b.prompt as string, sessionId));
    queues.set(key, reply);
    reply.finally(() => {
      if (queues.get(key) === reply) queues.delete(key);
    });
    return reply;
  };

  const hostname = options.hostname ?? "127.0.0.1";
  const port = options.port ?? 0;
  const listener = await listen(handle, hostname, port);
  const host = listener.hostname.includes(":") ? `[${listener.hostname}]` : listener.hostname;
  return {
    url: `http://${host}:${listener.port}/`,
    port: listener.port,
    store,
    errors,
    get inFlight() {
      return inFlight;
    },
    close: () => listener.close(),
    [Symbol.asyncDispose]: () => listener.close(),
  };
}
