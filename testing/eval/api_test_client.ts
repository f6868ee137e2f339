/**
 * A client for agents served over HTTP.
 *
 * @module
 */
import { checkOptions, is } from "../../runtime/internal.ts";

/** Options for {@linkcode ApiTestClient}. */
export interface ApiTestClientOptions {
  /**
   * The session every `send` continues.
   * @default {a random UUID}
   */
  readonly sessionId?: string;
  /**
   * The agent to address, on a server that runs several.
   * @default {undefined (the server's only agent)}
   */
  readonly agent?: string;
}

/**
 * The server answered with an error status. The message is the server's
 * `error` text.
 *
 * @example
 * ```ts
 * import { ApiRequestFailed } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new ApiRequestFailed(400, 'Missing "prompt"', { error: 'Missing "prompt"' });
 * assertEquals([e.name, e.status], ["ApiRequestFailed", 400]);
 * ```
 */
export class ApiRequestFailed extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The parsed response body (or its text). */
  readonly body: unknown;

  /**
   * The message is the status and the server's error text; `body` keeps the rest.
   *
   * @param status The HTTP status.
   * @param detail The server's error text.
   * @param body The response body.
   */
  constructor(status: number, detail: string, body: unknown) {
    super(`The agent server answered ${status}: ${detail}`);
    this.name = "ApiRequestFailed";
    this.status = status;
    this.body = body;
  }
}

/**
 * Talks to an agent served with `serveAgent` (or any server speaking the
 * same `POST / { prompt, sessionId, agent } -> { result }` protocol),
 * keeping one session id across sends so the conversation continues. Pair
 * it with `AgentTest.compare` to check the answers.
 *
 * @example Needs --allow-net=127.0.0.1 (see tests/http/)
 * ```ts ignore
 * import { Agent } from "@agentkit/testing/runtime";
 * import { AgentTest, ApiTestClient, FakeLLM, makeTestCtx, serveAgent } from "@agentkit/testing/testing";
 *
 * const llm = FakeLLM.script(["Sri Lanka won.", "They beat Australia."]);
 * await using server = await serveAgent(new Agent("quiz", { model: "fake-model" }), { ctx: makeTestCtx({ llm }) });
 * const client = new ApiTestClient(server.url);
 * await AgentTest.compare(await client.send("Who won in 1996?"), ["Sri Lanka won"]);
 * await AgentTest.compare(await client.send("Whom did they beat?"), ["They beat Australia"]);
 * ```
 */
export class ApiTestClient {
  /** The server's URL. */
  readonly url: string;
  /** The session every send continues. */
  readonly sessionId: string;
  /** The agent addressed, if named. */
  readonly agent?: string;
  /** Every reply, in order. */
  readonly replies: string[] = [];

  /**
   * Creates a client with a fresh session.
   *
   * @param url The server's URL.
   * @param options Session id and agent.
   */
  constructor(url: string | URL, options: ApiTestClientOptions = {}) {
    checkOptions("new ApiTestClient()", options, { sessionId: is.text, agent: is.text });
    this.url = String(url);
    this.sessionId = options.sessionId ?? crypto.randomUUID();
    this.agent = options.agent;
  }

  /**
   * Sends a prompt in the client's session.
   *
   * @param prompt What the user says.
   * @returns The agent's reply.
   * @throws {ApiRequestFailed} When the server answers with an error status.
   */
  async send(prompt: string): Promise<string> {
    const response = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt, sessionId: this.sessionId, agent: this.agent }),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text for the error
    }
    const b = body as { result?: unknown; error?: unknown } | null;
    if (!response.ok) {
      throw new ApiRequestFailed(
        response.status,
        typeof b?.error === "string" ? b.error : text.slice(0, 200),
        body,
      );
    }
    if (typeof b?.result !== "string") {
      throw new ApiRequestFailed(
        response.status,
        `the body has no string "result": ${text.slice(0, 200)}`,
        body,
      );
    }
    this.replies.push(b.result);
    return b.result;
  }
}
