/**
 * A `ToolProvider` over an MCP client: the tools an MCP server lists,
 * offered to the model, and the model's calls sent to it.
 *
 * @module
 */
import type { z } from "zod";
import { zod } from "../_lazy/zod.ts";
import type { Ctx } from "../../ports/context.ts";
import type { ToolCall } from "../../ports/message.ts";
import type { ToolProvider, ToolResult } from "../../ports/tool.ts";
import type { JsonSchema, ToolSpec } from "../../ports/tool_spec.ts";
import { isHarnessError, rethrowIfFatal } from "../harness_error.ts";
import { checkOptions, checkValue, is, type Rule } from "../_options.ts";
import { preview } from "../_preview.ts";
import { REDACTED, redactText } from "../_redact.ts";
import { maskSecrets } from "../_secrets/registry.ts";
import { registerMcpSecrets } from "./_mcp_secrets.ts";
import { untilAborted } from "../_until_aborted.ts";
import { type McpCallToolResult, mcpToolResult } from "./_mcp_content.ts";

export type { McpCallToolResult, McpContentBlock } from "./_mcp_content.ts";

/** A tool as an MCP server lists it (MCP `Tool`), as far as it is read here. */
export interface McpTool {
  /** The tool's name on the server. */
  readonly name: string;
  /** A display name, used as the description when there is none. */
  readonly title?: string;
  /** What it does, for the model. */
  readonly description?: string;
  /** The arguments' JSON Schema (`type: "object"`). */
  readonly inputSchema: { readonly type: "object" } | JsonSchema;
}

/** A `tools/list` answer: one page of tools, and the cursor of the next. */
export interface McpListToolsResult {
  /** This page's tools. */
  readonly tools: readonly McpTool[];
  /** Present when there are more pages: pass it back as `cursor`. */
  readonly nextCursor?: string;
}

/** What the provider passes as a request's options (the SDK's `RequestOptions`). */
export interface McpRequestOptions {
  /** Cancels the request (the SDK then sends `notifications/cancelled`). */
  readonly signal?: AbortSignal;
}

/**
 * The MCP server did not answer within the provider's `timeoutMs` (on the
 * run's clock): `listTools()` rejects with an `McpToolsUnavailable` caused
 * by it, a tool call becomes an `isError` result naming it.
 *
 * @example
 * ```ts
 * import { McpRequestTimeout } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new McpRequestTimeout("tools/call", 5_000);
 * assertEquals([e.name, e.timeoutMs], ["McpRequestTimeout", 5_000]);
 * ```
 */
export class McpRequestTimeout extends Error {
  /** The wait that ran out. */
  readonly timeoutMs: number;

  /**
   * The message names the request and the wait, and says what to check.
   *
   * @param method The request (`tools/list`, `tools/call`).
   * @param timeoutMs The wait that ran out.
   */
  constructor(method: string, timeoutMs: number) {
    super(
      `the MCP server did not answer ${method} within ${timeoutMs} ms (McpToolProvider's timeoutMs); check that it is up, or give it more time`,
    );
    this.name = "McpRequestTimeout";
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The part of an MCP client the provider uses: the official SDK's `Client`
 * (`@modelcontextprotocol/sdk/client/index.js`) has it, and so may any other.
 */
export interface McpClient {
  /** Lists one page of tools (`tools/list`). */
  listTools(
    params?: { cursor?: string },
    options?: McpRequestOptions,
  ): Promise<McpListToolsResult>;
  /**
   * Calls a tool (`tools/call`). The second argument is the SDK's result
   * schema: the provider passes a lenient one (any object), so that a block
   * of a type the SDK does not know reaches the model as its JSON instead of
   * failing the call with the SDK's validation report.
   */
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    // deno-lint-ignore no-explicit-any
    resultSchema?: any,
    options?: McpRequestOptions,
  ): Promise<McpCallToolResult>;
  /**
   * The SDK's hook for server notifications (`schema` is a zod object whose
   * `method` is a literal); with it a cached list follows `tools/list_changed`.
   */
  setNotificationHandler?(schema: object, handler: () => void): void;
  /** The server's name and version once connected (the SDK's `getServerVersion()`). */
  getServerVersion?(): { readonly name?: string } | undefined;
}

/** Options for {@linkcode McpToolProvider}. */
export interface McpToolProviderOptions {
  /**
   * Put before every tool name the model sees (`"github_"` makes
   * `create_issue` `github_create_issue`), and taken off again when the
   * model calls it: two servers with a tool of one name can then sit in one
   * `ToolRegistry`.
   * @default {"" (the server's names as they are)}
   */
  readonly prefix?: string;
  /**
   * Keep the tool list after the first `tools/list` instead of asking the
   * server on every run. The cache is dropped on `invalidateToolsCache()`,
   * and on the server's `notifications/tools/list_changed` when the client
   * has `setNotificationHandler` (the SDK `Client` does; it keeps one handler
   * per notification, so this one replaces any other for that method: code
   * of yours that needs it too calls `invalidateToolsCache()` from its own).
   * @default {false (the list is asked for on every listTools())}
   */
  readonly cacheToolsList?: boolean;
  /**
   * Credentials the server was given (a bearer token, an `x-api-key`):
   * masked as `[REDACTED]` in tool results, errors and transcripts should the
   * server echo them. An SDK transport's `requestInit.headers` are read and
   * masked without being listed here. Values shorter than 8 characters are
   * not masked by value (they would blank ordinary words).
   * @default {[] (the transport's headers only)}
   */
  readonly secrets?: readonly string[];
  /**
   * How long to wait for each answer of the server (`tools/list`, each
   * `tools/call`), on the run's clock (`ctx.clock`); past it the wait ends
   * with {@linkcode McpRequestTimeout}. Every wait also ends with the run's
   * signal.
   * @default {no limit but the run's signal}
   */
  readonly timeoutMs?: number;
}

const OPTIONS: Readonly<Record<string, Rule>> = {
  prefix: is.text,
  cacheToolsList: is.boolean,
  secrets: is.arrayOf(is.string),
  timeoutMs: is.positiveMs,
};

// Any JSON object, as the SDK's request() takes a result schema; built on
// first use (zod loads lazily, ../_lazy/).
let anyResult: z.ZodType | undefined;
function lenientResult(): z.ZodType {
  return anyResult ??= zod().looseObject({});
}
const CLIENT: Rule = is.port("an MCP client", ["listTools", "callTool"]);

// The server sends this when its tools change (MCP "Tools" > "List Changed
// Notification"); the SDK reads the method off the schema's literal. Built
// when a provider subscribes, not at import: zod loads on first use
// (../_lazy/), and a test file that imports the package but never
// subscribes should not pay for it.
function toolsListChanged(): z.ZodType {
  const z = zod();
  return z.object({
    method: z.literal("notifications/tools/list_changed"),
    params: z.optional(z.looseObject({})),
  });
}

// A server whose cursors never end would keep listing for ever: pages beyond
// this many fail the listing instead.
const MAX_PAGES = 1_000;

/**
 * The tools of an MCP server could not be listed: the client failed (not
 * connected, the transport closed, a JSON-RPC error), or the listing itself
 * was malformed (a tool without a name or an object `inputSchema`, two tools
 * of one name, a cursor that repeats). The run that asked fails with it.
 *
 * @example
 * ```ts
 * import { McpToolProvider, McpToolsUnavailable } from "@agentkit/testing/runtime";
 * import { assertRejects } from "@std/assert";
 *
 * const client = {
 *   listTools: () => Promise.reject(new Error("Not connected")),
 *   callTool: () => Promise.reject(new Error("Not connected")),
 * };
 * await assertRejects(() => Promise.resolve(new McpToolProvider(client).listTools()), McpToolsUnavailable, "Not connected");
 * ```
 */
export class McpToolsUnavailable extends Error {
  /** The server's name, when the client knew it. */
  readonly server: string | undefined;

  /**
   * The message names the server and the problem, and says what to check.
   *
   * @param server The server's name, if known.
   * @param problem What went wrong.
   * @param cause The client's error, if any.
   */
  constructor(server: string | undefined, problem: string, cause?: unknown) {
    super(
      `Cannot list the tools of MCP server${server ? ` "${server}"` : ""}: ${
        redactText(problem)
      }; check that the client is connected (await client.connect(transport)) and that the server answers tools/list`,
      cause === undefined ? undefined : { cause },
    );
    this.name = "McpToolsUnavailable";
    this.server = server;
  }
}

/**
 * A `ToolProvider` over an MCP client (structural: the official SDK's
 * `Client`, or anything with its `listTools()` and `callTool()`), so
 * `new ReActCognition({ provider: new McpToolProvider(client) })` runs an
 * agent on a server's tools.
 *
 * `listTools()` asks the server (every page, following `nextCursor`) and
 * gives each tool as a spec: its name (with `prefix`), its description (or
 * title) and its `inputSchema` as the parameters; a listing that fails
 * rejects with {@linkcode McpToolsUnavailable}. With `cacheToolsList` the
 * list is kept and later calls answer at once.
 *
 * `executeToolCalls()` never throws (harness errors excepted): each call goes
 * to `tools/call` with the run's signal, and comes back as a result: the
 * server's structured content as JSON text, or its content blocks as text
 * (images, audio and binary resources by type and size); an `isError` result,
 * a JSON-RPC error, a closed transport, malformed arguments and a name
 * without the prefix each as an `isError` result saying what happened.
 *
 * @example An agent on an MCP server's tools
 * ```ts
 * import { Agent, McpToolProvider, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * // Any object with the SDK Client's listTools() and callTool() will do.
 * const client = {
 *   listTools: () =>
 *     Promise.resolve({ tools: [{ name: "forecast", inputSchema: { type: "object" as const } }] }),
 *   callTool: ({ name }: { name: string }) =>
 *     Promise.resolve({ content: [{ type: "text", text: `${name}: sunny` }] }),
 * };
 * const provider = new McpToolProvider(client, { prefix: "weather_" });
 * const llm = FakeLLM.script([
 *   { toolCalls: [toolCall("c1", "weather_forecast", { city: "Oslo" })] },
 *   { content: "Sunny." },
 * ]);
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ provider }) });
 * const result = await agent.run("weather?", makeTestCtx({ llm }));
 * assertEquals(result.output, "Sunny.");
 * assertEquals(llm.requests[0].tools.map((t) => t.name), ["weather_forecast"]);
 * assertEquals(result.messages[2].content, "forecast: sunny");
 * ```
 */
export class McpToolProvider implements ToolProvider {
  readonly #client: McpClient;
  readonly #prefix: string;
  readonly #cache: boolean;
  readonly #timeoutMs: number | undefined;
  #cached: readonly ToolSpec[] | Promise<readonly ToolSpec[]> | undefined;
  // Bumped by every invalidation, so a listing that began before one does
  // not fill the cache with the old list.
  #generation = 0;

  /**
   * Checks the client and the options here; subscribes to the server's
   * list-changed notifications when caching and the client has the hook.
   *
   * @param client An MCP client (the SDK `Client`, connected).
   * @param options `prefix` and `cacheToolsList`.
   * @throws {TypeError} When the client lacks `listTools()` / `callTool()`, or an option is unknown or mistyped.
   * @throws {RangeError} On an empty prefix.
   */
  constructor(client: McpClient, options: McpToolProviderOptions = {}) {
    checkValue("new McpToolProvider()", "the client", client, CLIENT);
    checkOptions("new McpToolProvider()", options, OPTIONS);
    this.#client = client;
    this.#prefix = options.prefix ?? "";
    this.#cache = options.cacheToolsList ?? false;
    registerMcpSecrets(client, options.secrets);
    this.#timeoutMs = options.timeoutMs;
    if (this.#cache && typeof client.setNotificationHandler === "function") {
      client.setNotificationHandler(toolsListChanged(), () => this.invalidateToolsCache());
    }
  }

  /**
   * The server's name as the client reports it once connected, else `"mcp"`.
   *
   * @example
   * ```ts
   * import { McpToolProvider } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * const client = {
   *   listTools: () => Promise.resolve({ tools: [] }),
   *   callTool: () => Promise.resolve({ content: [] }),
   *   getServerVersion: () => ({ name: "weather", version: "1.0.0" }),
   * };
   * assertEquals(new McpToolProvider(client).name, "weather");
   * ```
   */
  get name(): string {
    return this.#serverName() ?? "mcp";
  }

  /**
   * The server's tools as specs; the cached list at once when there is one.
   *
   * @param ctx The run: its signal ends the wait, and `timeoutMs` is kept on its clock.
   * @returns The specs, or a promise of them.
   * @throws {McpToolsUnavailable} (as a rejection) When the listing fails or the wait ends.
   */
  listTools(ctx?: Ctx): readonly ToolSpec[] | Promise<readonly ToolSpec[]> {
    const cached = this.#cached;
    if (cached !== undefined) {
      return cached instanceof Promise && ctx ? this.#bounded(cached, ctx) : cached;
    }
    const generation = this.#generation;
    const listing = this.#list(ctx);
    if (!this.#cache) return listing;
    // Callers that come while it is under way share the one listing.
    this.#cached = listing;
    listing.then(
      (specs) => {
        if (this.#generation === generation) this.#cached = specs;
      },
      () => {
        if (this.#generation === generation) this.#cached = undefined;
      },
    );
    return listing;
  }

  /**
   * Drops the cached tool list: the next `listTools()` asks the server.
   *
   * @example
   * ```ts
   * import { McpToolProvider } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * let lists = 0;
   * const client = {
   *   listTools: () => Promise.resolve({ tools: [{ name: `t${++lists}`, inputSchema: { type: "object" as const } }] }),
   *   callTool: () => Promise.resolve({ content: [] }),
   * };
   * const provider = new McpToolProvider(client, { cacheToolsList: true });
   * await provider.listTools();
   * assertEquals((await provider.listTools()).map((t) => t.name), ["t1"]);
   * provider.invalidateToolsCache();
   * assertEquals((await provider.listTools()).map((t) => t.name), ["t2"]);
   * ```
   */
  invalidateToolsCache(): void {
    this.#generation++;
    this.#cached = undefined;
  }

  /**
   * Sends each call to the server, in order, one after the other. Never
   * throws except for harness errors.
   *
   * @param calls The calls.
   * @param ctx The run (its signal cancels the call under way).
   * @returns One result per call.
   */
  async executeToolCalls(calls: readonly ToolCall[], ctx: Ctx): Promise<readonly ToolResult[]> {
    const results: ToolResult[] = [];
    for (const call of calls) results.push(await this.#call(call, ctx));
    return results;
  }

  async #call(call: ToolCall, ctx: Ctx): Promise<ToolResult> {
    const failed = (content: string): ToolResult => ({ callId: call.id, isError: true, content });
    const prefix = this.#prefix;
    if (!call.name.startsWith(prefix) || call.name.length === prefix.length) {
      return failed(
        `Unknown tool "${call.name}": the tools of MCP server "${this.name}" are named "${prefix}<name>"`,
      );
    }
    const name = call.name.slice(prefix.length);
    const args = argumentsOf(call);
    if (typeof args === "string") return failed(args);
    if (ctx.signal.aborted) return failed(`Cancelled: ${messageOf(ctx.signal.reason)}`);
    let result: unknown;
    try {
      result = await this.#wait(
        "tools/call",
        (signal) => this.#client.callTool({ name, arguments: args }, lenientResult(), { signal }),
        ctx,
      );
    } catch (error) {
      rethrowIfFatal(error);
      if (ctx.signal.aborted) return failed(`Cancelled: ${messageOf(ctx.signal.reason)}`);
      if (error instanceof McpRequestTimeout) {
        return failed(
          `The MCP server "${this.name}" failed the call of tool "${name}": ${error.name}: ${error.message}`,
        );
      }
      // A transport's error may quote a request (a URL, a header): the
      // model and the transcript get it with credentials masked.
      return failed(
        `The MCP server "${this.name}" failed the call of tool "${name}": ${
          redactText(messageOf(error))
        }`,
      );
    }
    // A server that echoes the credentials it was given: masked before the model reads them.
    const answer = mcpToolResult(call.id, name, result);
    return { ...answer, content: maskSecrets(answer.content, REDACTED) };
  }

  // One wait on the server: ends with the run's signal, or after timeoutMs
  // on the run's clock (McpRequestTimeout); the request is told either way
  // (the SDK then sends notifications/cancelled).
  async #wait<T>(
    method: string,
    send: (signal: AbortSignal | undefined) => Promise<T>,
    ctx: Ctx | undefined,
  ): Promise<T> {
    const timeoutMs = this.#timeoutMs;
    if (!ctx && timeoutMs === undefined) return await send(undefined);
    const stop = new AbortController();
    const signals = [stop.signal];
    if (ctx) signals.push(ctx.signal);
    const signal = AbortSignal.any(signals);
    const timer = new AbortController();
    if (timeoutMs !== undefined && ctx) {
      ctx.clock.sleep(timeoutMs, timer.signal).then(
        () => stop.abort(new McpRequestTimeout(method, timeoutMs)),
        () => {},
      );
    }
    try {
      return await untilAborted(send(signal), signal);
    } finally {
      timer.abort();
    }
  }

  #bounded<T>(p: Promise<T>, ctx: Ctx): Promise<T> {
    return this.#wait("tools/list", () => p, ctx).catch((error) => {
      if (error instanceof McpRequestTimeout || ctx.signal.aborted) {
        throw new McpToolsUnavailable(this.#serverName(), timeoutText(error), error);
      }
      throw error;
    });
  }

  async #list(ctx?: Ctx): Promise<readonly ToolSpec[]> {
    // A transport connected after the provider was built: its headers now.
    registerMcpSecrets(this.#client, undefined);
    const specs: ToolSpec[] = [];
    const seen = new Set<string>();
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1;; page++) {
      let answer: unknown;
      try {
        const params = cursor === undefined ? undefined : { cursor };
        answer = await this.#wait(
          "tools/list",
          (signal) =>
            signal ? this.#client.listTools(params, { signal }) : this.#client.listTools(params),
          ctx,
        );
      } catch (error) {
        if (isHarnessError(error)) throw error;
        throw new McpToolsUnavailable(this.#serverName(), timeoutText(error), error);
      }
      const a = answer as Partial<McpListToolsResult> | null;
      if (a === null || typeof a !== "object" || !Array.isArray(a.tools)) {
        throw this.#unavailable(`tools/list answered ${preview(answer)}, not { tools: [...] }`);
      }
      for (let i = 0; i < a.tools.length; i++) {
        const spec = this.#spec(a.tools[i], page, i);
        if (seen.has(spec.name)) {
          throw this.#unavailable(`it lists two tools named "${spec.name}"`);
        }
        seen.add(spec.name);
        specs.push(spec);
      }
      const next = a.nextCursor;
      if (next === undefined || next === null) return specs;
      if (typeof next !== "string") {
        throw this.#unavailable(`tools/list gave nextCursor ${preview(next)}, not a string`);
      }
      if (cursors.has(next)) {
        throw this.#unavailable(`tools/list gave the cursor ${JSON.stringify(next)} twice`);
      }
      if (page >= MAX_PAGES) {
        throw this.#unavailable(`tools/list still had more after ${MAX_PAGES} pages`);
      }
      cursors.add(next);
      cursor = next;
    }
  }

  #spec(tool: unknown, page: number, index: number): ToolSpec {
    const t = tool as Partial<McpTool> | null;
    const where = `tool ${index} of page ${page}`;
    if (t === null || typeof t !== "object" || typeof t.name !== "string" || t.name === "") {
      throw this.#unavailable(`${where} has no name: ${preview(tool)}`);
    }
    const schema = t.inputSchema as JsonSchema | undefined;
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
      throw this.#unavailable(
        `tool "${t.name}" has no inputSchema object (got ${preview(schema)})`,
      );
    }
    const description = typeof t.description === "string"
      ? t.description
      : typeof t.title === "string"
      ? t.title
      : "";
    return Object.freeze({ name: this.#prefix + t.name, description, parameters: schema });
  }

  #unavailable(problem: string): McpToolsUnavailable {
    return new McpToolsUnavailable(this.#serverName(), problem);
  }

  #serverName(): string | undefined {
    try {
      const name = this.#client.getServerVersion?.()?.name;
      return typeof name === "string" && name ? name : undefined;
    } catch {
      return undefined;
    }
  }
}

// The call's arguments as an object, or why they are not one.
function argumentsOf(call: ToolCall): Record<string, unknown> | string {
  if (call.rawArgs === undefined) return { ...call.args };
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.rawArgs);
  } catch (error) {
    return `The arguments of tool "${call.name}" are not valid JSON (${
      messageOf(error)
    }): ${call.rawArgs}`;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return `The arguments of tool "${call.name}" must be a JSON object, got: ${call.rawArgs}`;
  }
  return parsed as Record<string, unknown>;
}

// A timeout says its name; any other error is masked for credentials.
function timeoutText(error: unknown): string {
  return error instanceof McpRequestTimeout
    ? `${error.name}: ${error.message}`
    : redactText(messageOf(error));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
