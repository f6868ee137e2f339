/**
 * A scripted MCP server on the real protocol, behind three transports.
 *
 * @module
 */
import type { ClockPort } from "../../ports/clock.ts";
import { HarnessError } from "../../runtime/harness_error.ts";
import {
  checkOptions,
  describe,
  is,
  markInProcess,
  ports,
  type Rule,
} from "../../runtime/internal.ts";
import { serve } from "../_serve.ts";
import { InvalidScript, UnusedTurns } from "../errors.ts";
import { FakeClock } from "../fake_clock.ts";
import { HttpEndpoint } from "./_mcp_http.ts";
import { type FakeMcpTransport, memoryTransport } from "./_mcp_memory.ts";
import {
  type CallRecord,
  type DeclaredPrompt,
  type DeclaredResource,
  McpSession,
  type Outbox,
  type ServerCore,
} from "./_mcp_session.ts";
import {
  declareCompletions,
  type DeclaredTemplate,
  declareTemplate,
  isTemplate,
} from "./_mcp_resources.ts";
import { McpClientCapabilityMissing, McpClientRequestFailed } from "./_mcp_client_requests.ts";
import {
  type DeclaredTool,
  declareTool,
  type FakeMcpLogLevel,
  type FakeMcpProgress,
  FakeMcpScript,
  type FakeMcpStep,
  type FakeMcpToolCall,
  type FakeMcpToolFunction,
  type SchemaInput,
} from "./_mcp_tools.ts";

export type {
  FakeMcpLogLevel,
  FakeMcpProgress,
  FakeMcpStep,
  FakeMcpToolCall,
  FakeMcpToolFunction,
  FakeMcpTransport,
  SchemaInput,
};
export { FakeMcpScript, McpClientCapabilityMissing, McpClientRequestFailed };

/**
 * What a tool answers: a value (a string is a text block; a plain object is
 * structured content and its JSON text; other JSON a text block of its
 * JSON), a step (`{ isError, text }`, `{ rpcError }`, `{ latencyMs }`,
 * `{ gate }`, `{ disconnect }`, `{ progress }`, optionally with `result`),
 * a function `(args, call) => value or step`, or `FakeMcpServer.script([...])`.
 */
export type FakeMcpResult =
  | FakeMcpToolFunction
  | FakeMcpScript
  | FakeMcpStep
  | string
  | number
  | boolean
  | null
  | object;

/** A tool a {@linkcode FakeMcpServer} offers. */
export interface FakeMcpTool {
  /** The tool's name, as `tools/list` gives it and `tools/call` names it. */
  readonly name: string;
  /** A display name. */
  readonly title?: string;
  /** What it does, for the model. */
  readonly description?: string;
  /**
   * The arguments' schema: zod (an object, or a raw shape of zod fields, as
   * the SDK's McpServer takes), or a JSON Schema of type "object". Calls are
   * checked against it; a mismatch is an `isError` result.
   * @default {{ type: "object", properties: {} }}
   */
  readonly inputSchema?: SchemaInput;
  /** The structured content's schema (zod or JSON Schema); a result that breaks it is an `isError` result. */
  readonly outputSchema?: SchemaInput;
  /** What it answers (see {@linkcode FakeMcpResult}). */
  readonly result: FakeMcpResult;
}

/** A resource served by `resources/list` and `resources/read`: `text` or `blob` (base64). */
export interface FakeMcpResource {
  /** Its URI. */
  readonly uri: string;
  /**
   * Its name in `resources/list`.
   * @default {the uri}
   */
  readonly name?: string;
  /** What it is, in `resources/list`. */
  readonly description?: string;
  /** Its MIME type. */
  readonly mimeType?: string;
  /** The text content. */
  readonly text?: string;
  /** The binary content, base64-encoded. */
  readonly blob?: string;
  /**
   * Accepts `resources/subscribe` / `unsubscribe` (and the server declares
   * the `subscribe` capability); `server.updateResource(uri, ...)` notifies
   * its subscribers.
   * @default {false}
   */
  readonly subscribe?: boolean;
}

/**
 * A resource template (MCP `ResourceTemplate`): listed by
 * `resources/templates/list`; a `resources/read` of a URI that matches
 * `uriTemplate` (RFC 6570 `{var}`, one path segment, or `{+var}`, anything)
 * is answered by `read(uri, vars)`: a string (the text), one content
 * `{ text | blob, mimeType? }`, or `{ contents: [...] }`.
 */
export interface FakeMcpResourceTemplate {
  /** The URI template, `"test://template/{id}/data"`. */
  readonly uriTemplate: string;
  /** Its name. */
  readonly name: string;
  /** A display name. */
  readonly title?: string;
  /** What it is. */
  readonly description?: string;
  /** The MIME type of what it reads. */
  readonly mimeType?: string;
  /** Reads one URI; `vars` are the template's variables, decoded. */
  readonly read: (uri: string, vars: Record<string, string>) => unknown;
}

/** One content of a resource: `{ text | blob, mimeType? }`. */
export interface FakeMcpResourceContent {
  /** Its URI (in a list; the resource's by default). */
  readonly uri?: string;
  /** The new text. */
  readonly text?: string;
  /** The new binary content, base64. */
  readonly blob?: string;
  /** The new MIME type. */
  readonly mimeType?: string;
}

/**
 * What `updateResource()` sets: the new text, one content
 * `{ text | blob, mimeType? }`, or several (an array, or `{ contents }` as
 * `resources/read` answers them).
 */
export type FakeMcpResourceContents =
  | string
  | FakeMcpResourceContent
  | readonly (string | FakeMcpResourceContent)[]
  | { readonly contents: readonly (string | FakeMcpResourceContent)[] };

/**
 * The completions of `completion/complete`: by prompt name or resource
 * template (its `uriTemplate`), by argument, a list (the entries that begin
 * with what the user typed are offered) or a function of the typed value.
 */
export type FakeMcpCompletions = Readonly<
  Record<string, Readonly<Record<string, readonly string[] | ((value: string) => unknown)>>>
>;

/** Options for {@linkcode FakeMcpServer.listen}. */
export interface FakeMcpListenOptions {
  /**
   * Origins a browser page may call from besides the server's own
   * (`http://127.0.0.1:PORT`, `http://localhost:PORT`): any other `Origin`
   * gets 403 (DNS rebinding protection).
   * @default {[]}
   */
  readonly allowedOrigins?: readonly string[];
}

/**
 * A request `listen()` refused as a possible DNS rebinding attack: 403,
 * never served.
 *
 * @example
 * ```ts
 * import type { FakeMcpRefusedRequest } from "@agentkit/testing/testing";
 * const r: FakeMcpRefusedRequest = { method: "POST", host: "evil.example.com", origin: "http://evil.example.com", reason: "Invalid Host header: evil.example.com" };
 * ```
 */
export interface FakeMcpRefusedRequest {
  /** The HTTP method. */
  readonly method: string;
  /** The `Host` header as sent. */
  readonly host: string | null;
  /** The `Origin` header as sent. */
  readonly origin: string | null;
  /** Why: `Invalid Host header: ...` or `Invalid Origin header: ...`. */
  readonly reason: string;
}

/** One message of a prompt: a string is a user text message. */
export type FakeMcpPromptMessage = string | {
  /** Who says it. */
  readonly role: "user" | "assistant";
  /** A string (a text block) or an MCP content block (`{ type: "image", data, mimeType }`). */
  readonly content: string | Readonly<Record<string, unknown>>;
};

/** A prompt served by `prompts/list` and `prompts/get`. */
export interface FakeMcpPrompt {
  /** Its name. */
  readonly name: string;
  /** What it is for. */
  readonly description?: string;
  /** Its arguments; a required one missing from `prompts/get` is a -32602 error. */
  readonly arguments?: readonly {
    readonly name: string;
    readonly description?: string;
    readonly required?: boolean;
  }[];
  /** Its messages, or a function of the arguments that returns them. */
  readonly messages:
    | readonly FakeMcpPromptMessage[]
    | ((args: Record<string, string>) => readonly FakeMcpPromptMessage[]);
}

/** Options for {@linkcode FakeMcpServer}. */
export interface FakeMcpServerOptions {
  /** The tools it offers (at least zero). Required. */
  readonly tools: readonly FakeMcpTool[];
  /** Resources and resource templates; without them the server declares no `resources` capability. */
  readonly resources?: readonly (FakeMcpResource | FakeMcpResourceTemplate)[];
  /** Prompts; without them the server declares no `prompts` capability. */
  readonly prompts?: readonly FakeMcpPrompt[];
  /**
   * The clock `latencyMs` and progress intervals wait on.
   * @default {new FakeClock()}
   */
  readonly clock?: ClockPort;
  /**
   * The `serverInfo.name` it reports.
   * @default {"fake-mcp-server"}
   */
  readonly name?: string;
  /** Bearer auth for the HTTP transports: a request without `Authorization: Bearer <token>` gets 401. */
  readonly auth?: { readonly token: string };
  /**
   * `verify()` also throws when a client called a tool the server never declared.
   * @default {false}
   */
  readonly strict?: boolean;
  /**
   * How a call of an undeclared tool is answered: `"error"`, the JSON-RPC
   * error the MCP specification prescribes (-32602, naming the tool), or
   * `"result"`, an `isError` result as the SDK's McpServer answers.
   * @default {"error"}
   */
  readonly unknownTool?: "error" | "result";
  /**
   * The wait between two progress notifications of a `{ progress }` step, on `clock`.
   * @default {100}
   */
  readonly progressIntervalMs?: number;
  /**
   * Declares the `logging` capability: `logging/setLevel` is honoured and a
   * tool function's `call.log(level, data)` sends `notifications/message`.
   * @default {false}
   */
  readonly logging?: boolean;
  /** Serves `completion/complete` (and declares the `completions` capability). */
  readonly completions?: FakeMcpCompletions;
}

/**
 * One request as the server received it, with what it answered.
 *
 * @example
 * ```ts
 * import type { FakeMcpCall } from "@agentkit/testing/testing";
 * const c: FakeMcpCall = { method: "tools/call", tool: "lookup", args: { q: "x" }, result: { content: [] } };
 * ```
 */
export interface FakeMcpCall {
  /** The JSON-RPC method. */
  readonly method: string;
  /** For `tools/call`: the tool named. */
  readonly tool?: string;
  /** For `tools/call`: the arguments. */
  readonly args?: Record<string, unknown>;
  /** The result answered; absent while pending, after an error, or when cancelled. */
  readonly result?: unknown;
  /** The JSON-RPC error answered, if any. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** `true` when the client cancelled it (`notifications/cancelled`). */
  readonly cancelled?: true;
}

/**
 * A call of a tool the server does not declare.
 *
 * @example
 * ```ts
 * import type { FakeMcpUnknownToolCall } from "@agentkit/testing/testing";
 * const u: FakeMcpUnknownToolCall = { tool: "delete_everything", args: {} };
 * ```
 */
export interface FakeMcpUnknownToolCall {
  /** The name the client called. */
  readonly tool: string;
  /** Its arguments. */
  readonly args: Record<string, unknown>;
}

/**
 * A `FakeMcpServer` served on 127.0.0.1; `await using` closes it.
 *
 * @example
 * ```ts
 * import type { FakeMcpListener } from "@agentkit/testing/testing";
 * const endpoint = (l: FakeMcpListener): URL => new URL(`${l.url}/mcp`);
 * ```
 */
export interface FakeMcpListener extends AsyncDisposable {
  /** The origin, `"http://127.0.0.1:PORT"`; the endpoint is `${url}/mcp`. */
  readonly url: string;
  /** The port bound. */
  readonly port: number;
  /** Ends every session and stream, and stops listening (idempotent). */
  close(): Promise<void>;
}

/**
 * A client called tools the server does not declare, and the server is
 * `strict`: thrown by `verify()`.
 *
 * @example
 * ```ts
 * import { UnknownMcpToolCall } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new UnknownMcpToolCall([{ tool: "rm", args: {} }], ["ls"]);
 * assertEquals(e.calls[0].tool, "rm");
 * ```
 */
export class UnknownMcpToolCall extends HarnessError {
  /** The calls of undeclared tools. */
  readonly calls: readonly FakeMcpUnknownToolCall[];

  /**
   * The message names each tool called and the tools declared.
   *
   * @param calls The calls of undeclared tools.
   * @param declared The names the server declares.
   */
  constructor(calls: readonly FakeMcpUnknownToolCall[], declared: readonly string[]) {
    super(
      `the client called ${
        calls.map((c) => `"${c.tool}"`).join(", ")
      }, which the FakeMcpServer does not declare (it declares ${
        declared.length ? declared.map((n) => `"${n}"`).join(", ") : "no tools"
      }); declare the tool, or fix the agent that called it`,
    );
    this.calls = calls;
  }
}

const TOKEN: Rule = {
  accepts: "{ token: a non-empty string }",
  test: (v) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return { kind: "type" };
    const keys = Object.keys(v);
    const token = (v as { token?: unknown }).token;
    return keys.length === 1 && typeof token === "string" && token !== "" ? undefined : {
      kind: "type",
      message: `option "auth" must be { token: a non-empty string }, got an object with ${
        keys.join(", ") || "no keys"
      }`,
    };
  },
};
const LIST: Rule = {
  accepts: "an array",
  test: (v) => Array.isArray(v) ? undefined : { kind: "type" },
};
const UNKNOWN_TOOL: Rule = {
  accepts: '"error" or "result"',
  test: (v) => v === "error" || v === "result" ? undefined : { kind: "type" },
};
const OPTIONS: Readonly<Record<string, Rule>> = {
  tools: LIST,
  resources: LIST,
  prompts: LIST,
  clock: ports.clock,
  name: is.text,
  auth: TOKEN,
  strict: is.boolean,
  unknownTool: UNKNOWN_TOOL,
  progressIntervalMs: is.ms,
  logging: is.boolean,
  completions: is.any, // checked by declareCompletions, which names the entry
};
const ORIGINS: Rule = {
  accepts: 'an array of origins ("http://host:port")',
  test: (v) =>
    Array.isArray(v) && v.every((o) => {
        try {
          return typeof o === "string" && new URL(o).origin === o;
        } catch {
          return false;
        }
      })
      ? undefined
      : { kind: "type" },
};
const WHERE = "new FakeMcpServer()";

function declareTools(tools: readonly unknown[], where: string): Map<string, DeclaredTool> {
  const map = new Map<string, DeclaredTool>();
  tools.forEach((t, i) => {
    const tool = declareTool(t, `${where}: tools[${i}]`);
    if (map.has(tool.name)) {
      throw new TypeError(
        `${where}: tools[${i}] repeats the name "${tool.name}"; tool names are unique`,
      );
    }
    map.set(tool.name, tool);
  });
  return map;
}

function declareResources(
  list: readonly unknown[],
): { resources: DeclaredResource[]; templates: DeclaredTemplate[] } {
  const seen = new Set<string>();
  const resources: DeclaredResource[] = [];
  const templates: DeclaredTemplate[] = [];
  list.forEach((value, i) => {
    const at = `${WHERE}: resources[${i}]`;
    const r = value as Record<string, unknown>;
    if (r === null || typeof r !== "object" || Array.isArray(r)) {
      throw new TypeError(
        `${at} must be { uri, text | blob, mimeType?, name? } or { uriTemplate, name, read }, got ${
          describe(value)
        }`,
      );
    }
    if (isTemplate(r)) {
      const t = declareTemplate(r, at);
      if (seen.has(t.uriTemplate)) throw new TypeError(`${at} repeats "${t.uriTemplate}"`);
      seen.add(t.uriTemplate);
      templates.push(t);
      return;
    }
    checkOptions(at, r, {
      uri: is.text,
      name: is.text,
      description: is.string,
      mimeType: is.text,
      text: is.string,
      blob: is.string,
      subscribe: is.boolean,
    }, {
      required: ["uri"],
    });
    if ((r.text === undefined) === (r.blob === undefined)) {
      throw new TypeError(`${at} ("${r.uri}") needs exactly one of text and blob (base64)`);
    }
    if (seen.has(r.uri as string)) throw new TypeError(`${at} repeats the uri "${r.uri}"`);
    seen.add(r.uri as string);
    resources.push(
      { ...r, name: (r.name as string | undefined) ?? (r.uri as string) } as DeclaredResource,
    );
  });
  return { resources, templates };
}

// One resource content given to updateResource(): a string (the text) or
// { text | blob, mimeType? } (and, in a list, its own uri).
function oneContent(value: unknown, where: string, uri: boolean): Record<string, unknown> {
  const c = typeof value === "string" ? { text: value } : value as Record<string, unknown>;
  if (c === null || typeof c !== "object" || Array.isArray(c)) {
    throw new TypeError(
      `${where} must be a string or { text | blob, mimeType? }, got ${describe(value)}`,
    );
  }
  checkOptions(
    where,
    c,
    uri
      ? { uri: is.text, text: is.string, blob: is.string, mimeType: is.text }
      : { text: is.string, blob: is.string, mimeType: is.text },
  );
  if ((c.text === undefined) === (c.blob === undefined)) {
    throw new TypeError(`${where}: contents need exactly one of text and blob (base64)`);
  }
  return c;
}

function promptMessage(m: FakeMcpPromptMessage, at: string): Record<string, unknown> {
  if (typeof m === "string") return { role: "user", content: { type: "text", text: m } };
  if (m === null || typeof m !== "object" || (m.role !== "user" && m.role !== "assistant")) {
    throw new TypeError(
      `${at} must be a string or { role: "user" | "assistant", content }, got ${describe(m)}`,
    );
  }
  const content = typeof m.content === "string" ? { type: "text", text: m.content } : m.content;
  if (content === null || typeof content !== "object" || typeof content.type !== "string") {
    throw new TypeError(
      `${at}.content must be a string or a content block ({ type, ... }), got ${
        describe(m.content)
      }`,
    );
  }
  return { role: m.role, content };
}

function declarePrompts(list: readonly unknown[]): Map<string, DeclaredPrompt> {
  const map = new Map<string, DeclaredPrompt>();
  list.forEach((value, i) => {
    const at = `${WHERE}: prompts[${i}]`;
    const p = value as FakeMcpPrompt;
    if (p === null || typeof p !== "object" || Array.isArray(p)) {
      throw new TypeError(`${at} must be { name, arguments?, messages }, got ${describe(value)}`);
    }
    checkOptions(at, p, {
      name: is.text,
      description: is.string,
      arguments: LIST,
      messages: is.any,
    }, {
      required: ["name", "messages"],
    });
    if (map.has(p.name)) throw new TypeError(`${at} repeats the name "${p.name}"`);
    const args = (p.arguments ?? []).map((a, j) => {
      checkOptions(`${at}.arguments[${j}]`, a, {
        name: is.text,
        description: is.string,
        required: is.boolean,
      }, {
        required: ["name"],
      });
      return { ...a };
    });
    const messages = p.messages;
    let build: (args: Record<string, string>) => unknown[];
    if (typeof messages === "function") {
      build = (a) => {
        // What the function returns is the double's script, so a malformed
        // answer is a harness error (verify() throws it), not a TypeError
        // thrown out of the client's send().
        const out = messages(a);
        if (!Array.isArray(out)) {
          throw new InvalidScript(
            `the messages function of prompt "${p.name}" returned ${describe(out)}, not an array`,
          );
        }
        try {
          return out.map((m, j) => promptMessage(m, `prompt "${p.name}" messages[${j}]`));
        } catch (error) {
          throw new InvalidScript((error as Error).message);
        }
      };
    } else if (Array.isArray(messages)) {
      const fixed = messages.map((m, j) => promptMessage(m, `${at}.messages[${j}]`));
      build = () => structuredClone(fixed);
    } else {
      throw new TypeError(
        `${at}.messages must be an array of messages or a function of the arguments, got ${
          describe(messages)
        }`,
      );
    }
    const listing: Record<string, unknown> = { name: p.name };
    if (p.description !== undefined) listing.description = p.description;
    if (args.length) listing.arguments = args;
    map.set(p.name, {
      name: p.name,
      listing,
      required: args.filter((a) => a.required).map((a) => a.name),
      messages: build,
    });
  });
  return map;
}

/**
 * A scripted MCP server, written against the protocol (JSON-RPC 2.0,
 * version `2025-11-25`, negotiating the older versions the official
 * TypeScript SDK lists), so any MCP client talks to a script: the SDK's
 * `Client`, the AI SDK's `createMCPClient`, OpenAI Agents'
 * `MCPServerStreamableHttp`, LangChain's `MultiServerMCPClient`.
 *
 * One script behind three transports: `transport()` (in memory, the SDK's
 * `Transport` shape), `fetch` (Streamable HTTP in process) and `listen()`
 * (Streamable HTTP on 127.0.0.1). Tools answer values, functions or
 * scripts, with faults as steps: `{ isError: true, text }`,
 * `{ rpcError }`, `{ latencyMs }` and `{ progress }` on `clock`,
 * `{ gate }`, `{ disconnect: true }`. A call of an undeclared tool gets
 * -32602 and is recorded in `unknownToolCalls`; every request is in
 * `calls`; `verify()` (and `await using`) throws for unused script steps.
 *
 * @example An SDK client, in memory
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client";
 * import { FakeMcpServer } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * await using server = new FakeMcpServer({
 *   tools: [{ name: "lookup_cert", description: "Looks a cert up", result: { expires: "2026-08-01" } }],
 * });
 * const client = new Client({ name: "agent", version: "1.0.0" });
 * await client.connect(server.transport());
 * const result = await client.callTool({ name: "lookup_cert", arguments: { host: "example.com" } });
 * assertEquals(result.structuredContent, { expires: "2026-08-01" });
 * assertEquals(server.calls.map((c) => c.method), ["initialize", "tools/call"]);
 * await client.close();
 * ```
 *
 * @example Faults, one per call
 * ```ts
 * import { FakeMcpServer } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * await using server = new FakeMcpServer({
 *   tools: [{
 *     name: "deploy",
 *     result: FakeMcpServer.script([{ isError: true, text: "quota exceeded" }, { latencyMs: 5_000, result: "deployed" }]),
 *   }],
 * });
 * const call = { jsonrpc: "2.0", method: "tools/call", params: { name: "deploy", arguments: {} } };
 * const seen: unknown[] = [];
 * const t = server.transport();
 * t.onmessage = (m) => seen.push(m);
 * await t.start();
 * await t.send({ ...call, id: 1 });
 * await t.send({ ...call, id: 2 });
 * await new Promise((r) => setTimeout(r, 0));
 * await server.clock.sleep(5_000);
 * assertEquals(seen, [
 *   { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "quota exceeded" }], isError: true } },
 *   { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "deployed" }] } },
 * ]);
 * await t.close();
 * ```
 */
export class FakeMcpServer implements AsyncDisposable {
  /** The clock steps wait on. */
  readonly clock: ClockPort;
  /**
   * Streamable HTTP in process, whatever the host (the endpoint is
   * `/mcp`): pass it as a client's `fetch` option with any origin,
   * `http://fake-mcp/mcp`. No socket, no permission.
   */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  readonly #core: ServerCore;
  readonly #strict: boolean;
  readonly #token: string | undefined;
  #tools: Map<string, DeclaredTool>;
  readonly #scripts = new Map<FakeMcpScript, string>();
  readonly #calls: CallRecord[] = [];
  readonly #unknown: FakeMcpUnknownToolCall[] = [];
  readonly #harness: Error[] = [];
  readonly #sessions = new Set<McpSession>();
  readonly #endpoints = new Set<HttpEndpoint>();
  readonly #listeners = new Set<FakeMcpListener>();
  readonly #refused: FakeMcpRefusedRequest[] = [];
  readonly #http: HttpEndpoint;

  /**
   * A script a tool's `result` takes: step `n` answers call `n`.
   *
   * @param steps The answers, one per call: values, steps or functions.
   * @param options `repeatLast`: the last step answers every later call.
   * @returns The script.
   * @throws {InvalidScript} For a malformed step.
   *
   * @example
   * ```ts
   * import { FakeMcpServer } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const server = new FakeMcpServer({ tools: [{ name: "t", result: FakeMcpServer.script(["a"]) }] });
   * assertEquals(server.calls, []);
   * ```
   */
  static script(
    steps: readonly unknown[],
    options?: { readonly repeatLast?: boolean },
  ): FakeMcpScript {
    checkOptions("FakeMcpServer.script()", options, { repeatLast: is.boolean });
    return new FakeMcpScript(steps, options?.repeatLast ?? false);
  }

  /**
   * Checks the options and every declaration here.
   *
   * @param options The tools, resources, prompts and knobs.
   * @throws {TypeError} For an unknown option, or a malformed tool, resource or prompt.
   * @throws {InvalidScript} For a malformed step.
   */
  constructor(options: FakeMcpServerOptions) {
    checkOptions(WHERE, options, OPTIONS, { required: ["tools"] });
    this.clock = options.clock ?? new FakeClock();
    this.#strict = options.strict ?? false;
    this.#token = options.auth?.token;
    this.#tools = this.#declare(options.tools, WHERE);
    const declared = options.resources && declareResources(options.resources);
    const prompts = options.prompts && declarePrompts(options.prompts);
    const completions = options.completions === undefined
      ? undefined
      : declareCompletions(options.completions, WHERE);
    this.#core = {
      serverInfo: { name: options.name ?? "fake-mcp-server", version: "1.0.0" },
      clock: this.clock,
      unknownTool: options.unknownTool ?? "error",
      progressIntervalMs: options.progressIntervalMs ?? 100,
      resources: declared?.resources,
      templates: declared?.templates,
      prompts,
      logging: options.logging ?? false,
      completions,
      tools: () => this.#tools,
      record: (entry) => void this.#calls.push(entry),
      unknownCall: (tool, args) => void this.#unknown.push({ tool, args }),
      harnessError: (error) => void this.#harness.push(error),
      closed: (session) => void this.#sessions.delete(session),
    };
    this.#http = this.#endpoint();
    const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      if (typeof input !== "string" && !(input instanceof URL) && !(input instanceof Request)) {
        throw new TypeError(
          `FakeMcpServer.fetch() takes what fetch() takes (a URL string, a URL or a Request), got ${
            describe(input)
          }`,
        );
      }
      return await this.#http.handle(new Request(input, init));
    };
    markInProcess(fetch);
    this.fetch = fetch;
  }

  #declare(tools: readonly FakeMcpTool[], where: string): Map<string, DeclaredTool> {
    const map = declareTools(tools, where);
    for (const t of map.values()) {
      if (t.answer instanceof FakeMcpScript) this.#scripts.set(t.answer, t.name);
    }
    return map;
  }

  #open(out: Outbox): McpSession {
    const session = new McpSession(this.#core, out);
    this.#sessions.add(session);
    return session;
  }

  #endpoint(): HttpEndpoint {
    const endpoint = new HttpEndpoint({ token: this.#token, open: (out) => this.#open(out) });
    this.#endpoints.add(endpoint);
    return endpoint;
  }

  /** Every request received, in order, on any transport. */
  get calls(): readonly FakeMcpCall[] {
    return this.#calls;
  }

  /**
   * Every HTTP request `listen()` refused with 403 as a possible DNS
   * rebinding attack (a `Host` or `Origin` not its own), in order.
   */
  get refusedRequests(): readonly FakeMcpRefusedRequest[] {
    return this.#refused;
  }

  /** Every call of a tool the server does not declare, in order. */
  get unknownToolCalls(): readonly FakeMcpUnknownToolCall[] {
    return this.#unknown;
  }

  /**
   * A new in-memory connection: the client's end, with the SDK's
   * `Transport` shape (`client.connect(server.transport())`). Each call
   * is a new session.
   *
   * @returns The client's end of the connection.
   *
   * @example
   * ```ts
   * import { FakeMcpServer } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * await using server = new FakeMcpServer({ tools: [] });
   * const t = server.transport();
   * const seen: unknown[] = [];
   * t.onmessage = (m) => seen.push(m);
   * await t.start();
   * await t.send("{not json");
   * assertEquals(seen, [{ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } }]);
   * await t.close();
   * ```
   */
  transport(): FakeMcpTransport {
    return memoryTransport((out) => this.#open(out));
  }

  /**
   * Serves Streamable HTTP on 127.0.0.1, port 0 (a free one), under Deno or
   * Node; the endpoint is `${url}/mcp`. Guarded against DNS rebinding, as
   * the MCP specification requires of a local server (basic/transports,
   * "Security Warning"): a request whose `Host` is not
   * `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT`, or whose `Origin`
   * is present and neither `http://127.0.0.1:PORT`, `http://localhost:PORT`
   * nor one of `allowedOrigins`, gets 403 and is recorded in
   * `refusedRequests`, never served.
   *
   * @param options `allowedOrigins`: more origins a page may call from.
   * @returns The running server; `await using` closes it.
   *
   * @example
   * ```ts ignore
   * import { FakeMcpServer } from "@agentkit/testing/testing";
   *
   * await using server = new FakeMcpServer({ tools: [{ name: "echo", result: "hi" }] });
   * await using http = await server.listen();
   * console.log(`${http.url}/mcp`); // for a client that takes a URL
   * ```
   */
  async listen(options?: FakeMcpListenOptions): Promise<FakeMcpListener> {
    checkOptions("FakeMcpServer.listen()", options, { allowedOrigins: ORIGINS });
    const endpoint = this.#endpoint();
    let hosts: ReadonlySet<string> = new Set();
    let origins: ReadonlySet<string> = new Set();
    const served = await serve(async (request) => {
      const refused = this.#guard(request, hosts, origins);
      return refused ?? await endpoint.handle(request);
    }, {
      abortOpen: () => endpoint.close(),
    });
    const port = served.port;
    hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
    origins = new Set([
      ...[...hosts].map((h) => `http://${h}`),
      ...(options?.allowedOrigins ?? []),
    ]);
    const url = `http://127.0.0.1:${served.port}`;
    let closed: Promise<void> | undefined;
    const listener: FakeMcpListener = {
      url,
      port: served.port,
      close: () =>
        closed ??= (async () => {
          this.#listeners.delete(listener);
          this.#endpoints.delete(endpoint);
          await served.close();
        })(),
      [Symbol.asyncDispose]: () => listener.close(),
    };
    this.#listeners.add(listener);
    return listener;
  }

  // The DNS rebinding guard of listen(): the SDK's wording and status
  // (webStandardStreamableHttp.ts validateRequestHeaders: 403, -32000).
  #guard(
    request: Request,
    hosts: ReadonlySet<string>,
    origins: ReadonlySet<string>,
  ): Response | undefined {
    const host = request.headers.get("host");
    const origin = request.headers.get("origin");
    let reason: string | undefined;
    if (host === null || !hosts.has(host.toLowerCase())) reason = `Invalid Host header: ${host}`;
    else if (origin !== null && !origins.has(origin)) reason = `Invalid Origin header: ${origin}`;
    if (reason === undefined) return undefined;
    this.#refused.push({ method: request.method, host, origin, reason });
    // The body is not read: the request is refused, not served.
    request.body?.cancel().catch(() => {});
    return new Response(
      JSON.stringify({
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message:
            `${reason} (refused: DNS rebinding protection; a page on another origin goes in listen({ allowedOrigins }))`,
        },
        id: null,
      }),
      { status: 403, headers: { "content-type": "application/json" } },
    );
  }

  /**
   * Replaces a resource's content and sends
   * `notifications/resources/updated` to every client subscribed to it.
   *
   * @param uri A declared resource's URI.
   * @param contents The new text, `{ text | blob, mimeType? }`, or a list of them.
   * @throws {TypeError} For an undeclared URI or malformed contents.
   *
   * @example
   * ```ts
   * import { FakeMcpServer } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * await using server = new FakeMcpServer({
   *   tools: [],
   *   resources: [{ uri: "test://watched", text: "v1", subscribe: true }],
   * });
   * const t = server.transport();
   * const seen: unknown[] = [];
   * t.onmessage = (m) => seen.push(m);
   * await t.start();
   * await t.send({ jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: "test://watched" } });
   * server.updateResource("test://watched", "v2");
   * assertEquals(seen.at(-1), { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched" } });
   * await t.close();
   * ```
   */
  updateResource(uri: string, contents: FakeMcpResourceContents): void {
    const where = "FakeMcpServer.updateResource()";
    const found = this.#core.resources?.find((r) => r.uri === uri);
    if (!found) {
      throw new TypeError(
        `${where}: no resource has the uri ${describe(uri)}; the resources are ${
          this.#core.resources?.map((r) => `"${r.uri}"`).join(", ") || "none"
        }`,
      );
    }
    const list = Array.isArray(contents)
      ? contents
      : contents !== null && typeof contents === "object" && "contents" in contents
      ? (contents as { contents: unknown }).contents
      : undefined;
    if (list !== undefined) {
      if (!Array.isArray(list) || list.length === 0) {
        throw new TypeError(`${where}: contents must be a non-empty array, got ${describe(list)}`);
      }
      found.contents = list.map((c, i) => ({
        uri,
        ...oneContent(c, `${where}: contents[${i}]`, true),
      }));
    } else {
      const c = oneContent(contents, where, false);
      found.contents = undefined;
      found.text = c.text as string | undefined;
      found.blob = c.blob as string | undefined;
      if (c.mimeType !== undefined) found.mimeType = c.mimeType as string;
    }
    for (const s of [...this.#sessions]) s.resourceUpdated(uri);
  }

  /**
   * Replaces the tools and sends `notifications/tools/list_changed` to
   * every connected client (over HTTP, on the stream a client opened with GET).
   *
   * @param tools The new tools.
   * @throws {TypeError} For a malformed tool.
   *
   * @example
   * ```ts
   * import { FakeMcpServer } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * await using server = new FakeMcpServer({ tools: [] });
   * const t = server.transport();
   * const seen: unknown[] = [];
   * t.onmessage = (m) => seen.push(m);
   * await t.start();
   * server.setTools([{ name: "late", result: "ok" }]);
   * assertEquals(seen, [{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
   * await t.close();
   * ```
   */
  setTools(tools: readonly FakeMcpTool[]): void {
    if (!Array.isArray(tools)) {
      throw new TypeError(
        `FakeMcpServer.setTools() takes an array of tools, got ${describe(tools)}`,
      );
    }
    this.#tools = this.#declare(tools, "FakeMcpServer.setTools()");
    for (const s of [...this.#sessions]) s.notify("notifications/tools/list_changed");
  }

  /**
   * Throws what a finished test should not hide: a harness error behind the
   * wire (a script called past its end: `ScriptExhausted`), calls of
   * undeclared tools when `strict`, then script steps never used
   * (`UnusedTurns`), including those of tools `setTools()` replaced.
   *
   * @throws {HarnessError} As described.
   *
   * @example
   * ```ts
   * import { FakeMcpServer, UnusedTurns } from "@agentkit/testing/testing";
   * import { assertThrows } from "@std/assert";
   *
   * const server = new FakeMcpServer({ tools: [{ name: "t", result: FakeMcpServer.script(["a", "b"]) }] });
   * assertThrows(() => server.verify(), UnusedTurns, 'tool "t"');
   * ```
   */
  verify(): void {
    if (this.#harness.length > 0) throw this.#harness[0];
    if (this.#strict && this.#unknown.length > 0) {
      throw new UnknownMcpToolCall(this.#unknown, [...this.#tools.keys()]);
    }
    for (const [script, tool] of this.#scripts) {
      if (script.used < script.length && !script.repeatLast) {
        throw new UnusedTurns(
          `FakeMcpServer.script of tool "${tool}"`,
          script.length,
          script.used,
          "step",
        );
      }
    }
  }

  /**
   * Ends every session (in-memory clients see their transport close, HTTP
   * streams end) and stops every listener. Idempotent; the server can still
   * be connected to afterwards.
   *
   * @example
   * ```ts
   * import { FakeMcpServer } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const server = new FakeMcpServer({ tools: [] });
   * const t = server.transport();
   * let closed = false;
   * t.onclose = () => closed = true;
   * await t.start();
   * await server.close();
   * assertEquals(closed, true);
   * ```
   */
  async close(): Promise<void> {
    for (const endpoint of this.#endpoints) endpoint.close();
    for (const s of [...this.#sessions]) s.close();
    await Promise.all([...this.#listeners].map((l) => l.close()));
  }

  /** `await using server = new FakeMcpServer(...)` closes it, then verifies. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
    this.verify();
  }
}
