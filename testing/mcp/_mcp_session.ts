// One client connection of a FakeMcpServer, whatever the transport: it reads
// frames, answers them from the server's declarations and scripts, and
// writes through an outbox the transport provides. The behaviour follows
// the MCP specification (2025-11-25) and, where the spec leaves a choice,
// the official TypeScript SDK's server (1.32.2, src/server/index.ts and
// src/server/mcp.ts), whose wording the error texts keep.
import type { ClockPort } from "../../ports/clock.ts";
import { isHarnessError } from "../../runtime/harness_error.ts";
import { untilAborted } from "../../runtime/internal.ts";
import {
  CODE,
  errorAnswer,
  type Frame,
  parseFrame,
  type RequestId,
  type RpcError,
} from "./_jsonrpc.ts";
import {
  issuesText,
  LATEST_PROTOCOL_VERSION,
  schemas,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./_mcp_protocol.ts";
import {
  checkRawResult,
  checkStep,
  type DeclaredTool,
  errorResult,
  type FakeMcpLogLevel,
  FakeMcpScript,
  type FakeMcpToolCall,
  type FakeMcpToolFunction,
  isRawResult,
  isStep,
  type Step,
  takeStep,
  toolResult,
} from "./_mcp_tools.ts";
import { InvalidScript, ScriptExhausted } from "../errors.ts";
import { completionValues, type DeclaredTemplate, matchTemplate } from "./_mcp_resources.ts";
import {
  checkElicitParams,
  checkElicitResult,
  checkSampleParams,
  checkSampleResult,
  McpClientCapabilityMissing,
  McpClientRequestFailed,
} from "./_mcp_client_requests.ts";

/** One request as the server received and answered it. */
export interface CallRecord {
  method: string;
  tool?: string;
  args?: Record<string, unknown>;
  result?: unknown;
  error?: RpcError;
  cancelled?: true;
}

/** A declared resource, checked; `updateResource()` replaces its content. */
export interface DeclaredResource {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  /** Set by `updateResource()` with several contents: what `resources/read` answers. */
  contents?: readonly Record<string, unknown>[];
  /** Whether `resources/subscribe` accepts it. */
  readonly subscribe?: boolean;
}

/** The completions a server serves, by prompt name or resource template. */
export type CompletionTable = ReadonlyMap<
  string,
  ReadonlyMap<string, readonly string[] | ((value: string) => unknown)>
>;

/** The levels, least severe first (MCP's LoggingLevel, RFC 5424's). */
export const LOG_LEVELS: readonly FakeMcpLogLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** A declared prompt, checked. */
export interface DeclaredPrompt {
  readonly name: string;
  readonly listing: Readonly<Record<string, unknown>>;
  readonly required: readonly string[];
  readonly messages: (args: Record<string, string>) => unknown[];
}

/** What a session reads from its server. */
export interface ServerCore {
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly clock: ClockPort;
  readonly unknownTool: "error" | "result";
  readonly progressIntervalMs: number;
  readonly resources: readonly DeclaredResource[] | undefined;
  readonly templates: readonly DeclaredTemplate[] | undefined;
  readonly prompts: ReadonlyMap<string, DeclaredPrompt> | undefined;
  readonly logging: boolean;
  readonly completions: CompletionTable | undefined;
  tools(): ReadonlyMap<string, DeclaredTool>;
  record(entry: CallRecord): void;
  unknownCall(tool: string, args: Record<string, unknown>): void;
  harnessError(error: Error): void;
  closed(session: McpSession): void;
}

/** Where a session writes; the transport decides what each means on its wire. */
export interface Outbox {
  /** Sends a message; `related` is the request it belongs to, if any. */
  send(message: unknown, related?: RequestId): void;
  /** The connection breaks mid-call (a scripted disconnect). */
  disconnect(related: RequestId): void;
  /** The request ended with no answer to send (it was cancelled). */
  end(related: RequestId): void;
  /** The server ended the session. */
  close(): void;
}

const CANCELLED = Symbol("cancelled");

type Outcome =
  | { readonly result: Record<string, unknown> }
  | { readonly error: RpcError }
  | { readonly disconnect: true };

/** One connection's protocol state. */
export class McpSession {
  /** The negotiated version, once initialized. */
  protocolVersion: string | undefined;
  #core: ServerCore;
  #out: Outbox;
  #inflight = new Map<RequestId, { controller: AbortController; record: CallRecord }>();
  #closed = false;
  #clientCapabilities: Record<string, unknown> = {};
  #logLevel: FakeMcpLogLevel | undefined;
  #subscriptions = new Set<string>();
  #nextId = 0;
  #pending = new Map<
    RequestId,
    { resolve(v: unknown): void; reject(e: Error): void; method: string }
  >();

  constructor(core: ServerCore, out: Outbox) {
    this.#core = core;
    this.#out = out;
  }

  /** Whether the session has ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Ends the session: calls in flight stop waiting and are never answered. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const { controller } of this.#inflight.values()) {
      controller.abort(new DOMException("The MCP session closed", "AbortError"));
    }
    this.#inflight.clear();
    for (const p of this.#pending.values()) {
      p.reject(new DOMException("The MCP session closed", "AbortError"));
    }
    this.#pending.clear();
    this.#core.closed(this);
    this.#out.close();
  }

  /** Sends a notification that belongs to no request (list_changed). */
  notify(method: string, params?: Record<string, unknown>): void {
    if (this.#closed) return;
    this.#out.send(params ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", method });
  }

  /** Sends `notifications/resources/updated` when the client subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    if (this.#subscriptions.has(uri)) this.notify("notifications/resources/updated", { uri });
  }

  /** Whether a batch is a valid frame here: on protocol 2025-03-26 only. */
  get batches(): boolean {
    return this.protocolVersion === "2025-03-26";
  }

  /** Whether a request of this id is still being answered (ids must not be reused meanwhile). */
  inFlight(id: RequestId): boolean {
    return this.#inflight.has(id);
  }

  /**
   * Reads one frame (JSON text or a parsed message). Returns the answer's
   * promise for a request, so an HTTP transport can wait for it.
   */
  receive(frame: unknown): Promise<void> | undefined {
    if (this.#closed) return undefined;
    return this.receiveFrame(parseFrame(frame, this.batches));
  }

  /** Reads one parsed frame (a batch's members one by one). */
  receiveFrame(f: Frame): Promise<void> | undefined {
    if (this.#closed) return undefined;
    switch (f.kind) {
      case "invalid":
        this.#out.send(f.answer);
        return undefined;
      case "batch": {
        const all = f.frames.map((x) => this.receiveFrame(x)).filter((x) => x !== undefined);
        return all.length ? Promise.all(all).then(() => {}) : undefined;
      }
      case "response":
        this.#response(f);
        return undefined;
      case "notification":
        this.#notification(f.method, f.params);
        return undefined;
      case "request":
        if (this.#inflight.has(f.id)) {
          // JSON-RPC: ids are unique among a sender's requests in flight; the
          // first keeps its answer, the reuse gets an error.
          this.#out.send(
            errorAnswer(f.id, {
              code: CODE.invalidRequest,
              message: `Invalid Request: the id ${
                JSON.stringify(f.id)
              } belongs to a request still in flight; use a new id`,
            }),
          );
          return undefined;
        }
        return this.#request(f.id, f.method, f.params);
    }
  }

  #response(f: Extract<Frame, { kind: "response" }>): void {
    if (f.id === undefined) return;
    const p = this.#pending.get(f.id);
    if (!p) return; // an answer to nothing this server asked: ignored, as the SDK's Protocol does
    this.#pending.delete(f.id);
    if (f.error !== undefined) {
      const e = f.error as Partial<RpcError>;
      p.reject(
        new McpClientRequestFailed(
          p.method,
          typeof e?.code === "number" ? e.code : CODE.internalError,
          typeof e?.message === "string" ? e.message : JSON.stringify(e),
          e?.data,
        ),
      );
    } else p.resolve(f.result);
  }

  // A request to the client, on the stream of the tool call `related`.
  #ask(method: string, params: unknown, related: RequestId, signal: AbortSignal): Promise<unknown> {
    if (this.#closed) {
      return Promise.reject(new DOMException("The MCP session closed", "AbortError"));
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.#pending.delete(id)) return;
        // The spec: a cancelled request's sender tells the other side.
        this.notify("notifications/cancelled", {
          requestId: id,
          reason: "The tool call was cancelled",
        });
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        method,
        resolve: (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
        reject: (e) => (signal.removeEventListener("abort", onAbort), reject(e)),
      });
      this.#out.send({ jsonrpc: "2.0", id, method, params }, related);
    });
  }

  #notification(method: string, params: Readonly<Record<string, unknown>>): void {
    if (method !== "notifications/cancelled") return;
    const r = schemas().cancelled.safeParse(params);
    if (!r.success || r.data.requestId === undefined) return;
    const entry = this.#inflight.get(r.data.requestId);
    if (!entry) return; // the spec: a cancellation of an unknown or finished request is ignored
    this.#inflight.delete(r.data.requestId);
    entry.record.cancelled = true;
    entry.controller.abort(CANCELLED);
    // No answer will come (the spec): the transport ends the request now,
    // even if the tool's function ignores its signal and runs on.
    this.#out.end(r.data.requestId);
  }

  #answer(id: RequestId, record: CallRecord, outcome: Outcome): void {
    if (this.#closed) return;
    if ("disconnect" in outcome) {
      this.#out.disconnect(id);
      return;
    }
    if ("error" in outcome) {
      record.error = outcome.error;
      this.#out.send(errorAnswer(id, outcome.error), id);
    } else {
      record.result = outcome.result;
      this.#out.send({ jsonrpc: "2.0", id, result: outcome.result }, id);
    }
  }

  #request(
    id: RequestId,
    method: string,
    params: Readonly<Record<string, unknown>>,
  ): Promise<void> | undefined {
    const record: CallRecord = { method };
    const core = this.#core;
    core.record(record);
    if (method === "tools/call") {
      // Whatever goes wrong inside is the server's error, answered as one.
      return this.#callTool(id, params, record).catch((error) =>
        this.#answer(id, record, {
          error: {
            code: CODE.internalError,
            message: `Internal error: ${(error as Error)?.message}`,
          },
        })
      );
    }
    const outcome = this.#simple(method, params);
    if (outcome instanceof Promise) {
      return outcome.then((o) => this.#answer(id, record, o), (error) => {
        // As the SDK's Protocol answers a handler that throws: -32603.
        if (isHarnessError(error)) core.harnessError(error as Error);
        this.#answer(id, record, {
          error: {
            code: CODE.internalError,
            message: `Internal error: ${(error as Error)?.message}`,
          },
        });
      });
    }
    this.#answer(id, record, outcome);
    return undefined;
  }

  #simple(method: string, params: Readonly<Record<string, unknown>>): Outcome | Promise<Outcome> {
    const core = this.#core;
    switch (method) {
      case "initialize": {
        const r = schemas().initialize.safeParse(params);
        if (!r.success) return invalidParams(issuesText(r.error));
        const asked = r.data.protocolVersion;
        // The spec's negotiation: the same version if supported, else the latest.
        const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(asked)
          ? asked
          : LATEST_PROTOCOL_VERSION;
        this.protocolVersion = protocolVersion;
        const asked_ = (params as { capabilities?: unknown }).capabilities;
        this.#clientCapabilities = asked_ !== null && typeof asked_ === "object"
          ? asked_ as Record<string, unknown>
          : {};
        const capabilities: Record<string, unknown> = { tools: { listChanged: true } };
        if (core.resources || core.templates) {
          capabilities.resources = core.resources?.some((r) => r.subscribe)
            ? { subscribe: true }
            : {};
        }
        if (core.prompts) capabilities.prompts = {};
        if (core.logging) capabilities.logging = {};
        if (core.completions) capabilities.completions = {};
        return { result: { protocolVersion, capabilities, serverInfo: { ...core.serverInfo } } };
      }
      case "ping":
        return { result: {} };
      case "tools/list":
        return this.#list(params, () => ({
          tools: [...core.tools().values()].map((t) => t.listing),
        }));
      case "resources/list":
        if (!core.resources && !core.templates) break;
        return this.#list(params, () => ({
          resources: (core.resources ?? []).map((r) => {
            const entry: Record<string, unknown> = { uri: r.uri, name: r.name };
            if (r.description !== undefined) entry.description = r.description;
            if (r.mimeType !== undefined) entry.mimeType = r.mimeType;
            return entry;
          }),
        }));
      case "resources/templates/list":
        if (!core.resources && !core.templates) break;
        return this.#list(params, () => ({
          resourceTemplates: (core.templates ?? []).map((t) => ({ ...t.listing })),
        }));
      case "resources/subscribe":
      case "resources/unsubscribe": {
        if (!core.resources?.some((x) => x.subscribe)) break;
        const r = schemas().readResource.safeParse(params);
        if (!r.success) return invalidParams(issuesText(r.error));
        const found = core.resources.find((x) => x.uri === r.data.uri);
        if (!found) return notFound(r.data.uri);
        if (!found.subscribe) {
          return invalidParams(
            `Resource ${found.uri} does not accept subscriptions (declare it with subscribe: true)`,
            false,
          );
        }
        if (method === "resources/subscribe") this.#subscriptions.add(found.uri);
        else this.#subscriptions.delete(found.uri);
        return { result: {} };
      }
      case "logging/setLevel": {
        if (!core.logging) break;
        const level = (params as { level?: unknown }).level;
        if (!LOG_LEVELS.includes(level as FakeMcpLogLevel)) {
          return invalidParams(
            `level must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(level)}`,
          );
        }
        this.#logLevel = level as FakeMcpLogLevel;
        return { result: {} };
      }
      case "completion/complete":
        if (!core.completions) break;
        return this.#complete(params);
      case "resources/read": {
        if (!core.resources && !core.templates) break;
        const r = schemas().readResource.safeParse(params);
        if (!r.success) return invalidParams(issuesText(r.error));
        const found = core.resources?.find((x) => x.uri === r.data.uri);
        if (!found) {
          for (const t of core.templates ?? []) {
            const vars = matchTemplate(t.uriTemplate, r.data.uri);
            if (vars) return t.read(r.data.uri, vars).then((result) => ({ result }));
          }
          return notFound(r.data.uri);
        }
        if (found.contents) return { result: { contents: structuredClone(found.contents) } };
        const content: Record<string, unknown> = { uri: found.uri };
        if (found.mimeType !== undefined) content.mimeType = found.mimeType;
        if (found.text !== undefined) content.text = found.text;
        else content.blob = found.blob;
        return { result: { contents: [content] } };
      }
      case "prompts/list":
        if (!core.prompts) break;
        return this.#list(params, () => ({
          prompts: [...core.prompts!.values()].map((p) => p.listing),
        }));
      case "prompts/get": {
        if (!core.prompts) break;
        const r = schemas().getPrompt.safeParse(params);
        if (!r.success) return invalidParams(issuesText(r.error));
        const prompt = core.prompts.get(r.data.name);
        if (!prompt) return invalidParams(`Prompt ${r.data.name} not found`, false);
        const args = r.data.arguments ?? {};
        const missing = prompt.required.filter((a) => !(a in args));
        if (missing.length) {
          return invalidParams(
            `Invalid arguments for prompt ${prompt.name}: missing ${missing.join(", ")}`,
            false,
          );
        }
        let messages: unknown[];
        try {
          messages = prompt.messages(args);
        } catch (error) {
          // As the SDK's Protocol answers a handler that throws: -32603.
          if (isHarnessError(error)) core.harnessError(error as Error);
          return {
            error: {
              code: CODE.internalError,
              message: `Internal error: ${(error as Error)?.message}`,
            },
          };
        }
        const result: Record<string, unknown> = { messages };
        if (prompt.listing.description !== undefined) {
          result.description = prompt.listing.description;
        }
        return { result };
      }
    }
    return { error: { code: CODE.methodNotFound, message: "Method not found" } };
  }

  // completion/complete (server/utilities/completion): the values for one
  // argument of a prompt or a resource template, at most 100 of them.
  async #complete(params: Readonly<Record<string, unknown>>): Promise<Outcome> {
    const r = schemas().complete.safeParse(params);
    if (!r.success) return invalidParams(issuesText(r.error));
    const ref = r.data.ref;
    const key = ref.type === "ref/prompt" ? ref.name : ref.uri;
    const known = ref.type === "ref/prompt"
      ? this.#core.prompts?.has(key ?? "")
      : this.#core.templates?.some((t) => t.uriTemplate === key);
    const table = this.#core.completions!.get(key ?? "");
    if (key === undefined || (!known && !table)) {
      return invalidParams(
        ref.type === "ref/prompt"
          ? `Prompt ${key} not found`
          : `Resource template ${key} not found`,
        false,
      );
    }
    const source = table?.get(r.data.argument.name);
    const values = source === undefined ? [] : await completionValues(
      source,
      r.data.argument.value,
      `completions["${key}"]["${r.data.argument.name}"]`,
    );
    return {
      result: {
        completion: {
          values: values.slice(0, 100),
          total: values.length,
          hasMore: values.length > 100,
        },
      },
    };
  }

  #list(params: Readonly<Record<string, unknown>>, page: () => Record<string, unknown>): Outcome {
    const r = schemas().list.safeParse(params);
    if (!r.success) return invalidParams(issuesText(r.error));
    // Everything fits one page, so no cursor this server handed out exists.
    if (r.data.cursor !== undefined) {
      return invalidParams(`Invalid cursor: ${r.data.cursor}`, false);
    }
    return { result: page() };
  }

  async #callTool(
    id: RequestId,
    params: Readonly<Record<string, unknown>>,
    record: CallRecord,
  ): Promise<void> {
    const r = schemas().callTool.safeParse(params);
    if (!r.success) return this.#answer(id, record, invalidParams(issuesText(r.error)));
    const name = r.data.name;
    const args = r.data.arguments ?? {};
    record.tool = name;
    record.args = args;
    const core = this.#core;
    const tool = core.tools().get(name);
    if (!tool) {
      core.unknownCall(name, args);
      // The spec's answer (server/tools, "Error Handling": -32602, "Unknown
      // tool"); the SDK's McpServer wraps its own error in a result instead.
      return this.#answer(
        id,
        record,
        core.unknownTool === "result"
          ? { result: errorResult(`MCP error -32602: Tool ${name} not found`) }
          : { error: { code: CODE.invalidParams, message: `Unknown tool: ${name}` } },
      );
    }
    const problem = tool.inputProblem(args);
    if (problem !== undefined) {
      // A tool execution error, so the model can correct itself (SEP-1303,
      // spec 2025-11-25); the text is the SDK McpServer's.
      return this.#answer(id, record, {
        result: errorResult(
          `MCP error -32602: Input validation error: Invalid arguments for tool ${name}: ${problem}`,
        ),
      });
    }
    const controller = new AbortController();
    this.#inflight.set(id, { controller, record });
    const call = this.#toolCall(
      name,
      ++tool.calls,
      controller.signal,
      r.data._meta?.progressToken,
      id,
    );
    let outcome: Outcome;
    try {
      outcome = await this.#play(tool, args, call, id);
    } catch (error) {
      if (controller.signal.aborted) return this.#out.end(id);
      if (isHarnessError(error)) core.harnessError(error as Error);
      outcome = {
        error: { code: CODE.internalError, message: `Internal error: ${(error as Error).message}` },
      };
    } finally {
      this.#inflight.delete(id);
    }
    // Cancelled: the spec says send no response.
    if (controller.signal.aborted) return this.#out.end(id);
    if ("result" in outcome && outcome.result.isError !== true) {
      const wrong = tool.outputProblem(outcome.result.structuredContent);
      if (wrong !== undefined) {
        const text = outcome.result.structuredContent === undefined
          ? `MCP error -32602: Output validation error: Tool ${name} has an output schema but no structured content was provided`
          : `MCP error -32602: Output validation error: Invalid structured content for tool ${name}: ${wrong}`;
        outcome = { result: errorResult(text) };
      }
    }
    this.#answer(id, record, outcome);
  }

  async #play(
    tool: DeclaredTool,
    args: Record<string, unknown>,
    call: FakeMcpToolCall,
    id: RequestId,
  ): Promise<Outcome> {
    let source = tool.answer;
    if (source instanceof FakeMcpScript) {
      const next = takeStep(source);
      if ("exhausted" in next) {
        throw new ScriptExhausted(
          `FakeMcpServer.script of tool "${tool.name}"`,
          source.length,
          next.exhausted,
          "step",
        );
      }
      source = next;
    }
    if (typeof source === "function") {
      let value: unknown;
      try {
        // Raced with the call's signal: a function that ignores it cannot
        // hold a cancelled call (or a closing session) open.
        value = await untilAborted(
          Promise.resolve().then(() => (source as FakeMcpToolFunction)(args, call)),
          call.signal,
        );
      } catch (error) {
        if (isHarnessError(error) || call.signal.aborted) throw error;
        // The SDK's McpServer: a tool that throws answers an isError result with the message.
        return { result: errorResult(error instanceof Error ? error.message : String(error)) };
      }
      if (typeof value === "function") {
        throw new InvalidScript(
          `the function of tool "${tool.name}" returned a function; return a value or a step`,
        );
      }
      const what = `what the function of tool "${tool.name}" returned`;
      if (isStep(value)) source = checkStep(value as Record<string, unknown>, what);
      else {
        if (isRawResult(value)) checkRawResult(value, what);
        source = { value };
      }
    }
    if ("value" in source) return { result: toolResult(source.value) };
    return await this.#step(source as Step, call, id);
  }

  #toolCall(
    tool: string,
    number: number,
    signal: AbortSignal,
    progressToken: string | number | undefined,
    id: RequestId,
  ): FakeMcpToolCall {
    const core = this.#core;
    const where = `call.%s() in the function of tool "${tool}"`;
    return {
      tool,
      number,
      signal,
      progressToken,
      log: (level, data, logger) => {
        if (!core.logging) {
          throw new InvalidScript(
            `${
              where.replace("%s", "log")
            }: the server declares no logging capability; give new FakeMcpServer({ logging: true, ... })`,
          );
        }
        if (!LOG_LEVELS.includes(level)) {
          throw new InvalidScript(
            `${where.replace("%s", "log")}: level must be one of ${LOG_LEVELS.join(", ")}, got ${
              JSON.stringify(level)
            }`,
          );
        }
        if (logger !== undefined && typeof logger !== "string") {
          throw new InvalidScript(`${where.replace("%s", "log")}: logger must be a string`);
        }
        if (signal.aborted || this.#closed) return;
        const min = this.#logLevel;
        // Below the level the client set: not sent (server/utilities/logging).
        if (min && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(min)) return;
        const params: Record<string, unknown> = { level, data };
        if (logger !== undefined) params.logger = logger;
        this.#out.send({ jsonrpc: "2.0", method: "notifications/message", params }, id);
      },
      sample: async (params) => {
        const method = "sampling/createMessage";
        checkSampleParams(params, where.replace("%s", "sample"));
        if (!this.#clientCapabilities.sampling) {
          throw new McpClientCapabilityMissing("sampling", method);
        }
        const result = await this.#ask(method, params, id, signal);
        return checkSampleResult(result, method);
      },
      elicit: async (params) => {
        const method = "elicitation/create";
        const mode = checkElicitParams(params, where.replace("%s", "elicit"));
        const cap = this.#clientCapabilities.elicitation as Record<string, unknown> | undefined;
        // 2025-11-25: an empty elicitation capability means form mode only.
        const ok = cap !== undefined && cap !== null && typeof cap === "object" &&
          (mode === "form"
            ? (cap.form !== undefined || cap.url === undefined)
            : cap.url !== undefined);
        if (!ok) {
          throw new McpClientCapabilityMissing(
            mode === "form" ? "elicitation" : "URL elicitation",
            method,
          );
        }
        const result = await this.#ask(method, params, id, signal);
        return checkElicitResult(result, params, method);
      },
    };
  }

  async #step(
    step: Step,
    call: { signal: AbortSignal; progressToken: string | number | undefined },
    id: RequestId,
  ): Promise<Outcome> {
    const signal = call.signal;
    const clock = this.#core.clock;
    if (step.gate) {
      try {
        await untilAborted(Promise.resolve(step.gate), signal);
      } catch (error) {
        if (signal.aborted) throw error;
        return { result: errorResult(error instanceof Error ? error.message : String(error)) };
      }
    }
    if (step.progress) {
      const interval = step.progressIntervalMs ?? this.#core.progressIntervalMs;
      for (const [i, p] of step.progress.entries()) {
        if (i > 0 && interval > 0) await clock.sleep(interval, signal);
        if (call.progressToken !== undefined && !this.#closed) {
          this.#out.send({
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progressToken: call.progressToken, ...p },
          }, id);
        }
      }
    }
    if (step.latencyMs) await clock.sleep(step.latencyMs, signal);
    if (step.disconnect) return { disconnect: true };
    if (step.rpcError) return { error: step.rpcError };
    if (step.isError !== undefined) return { result: errorResult(step.isError) };
    return { result: toolResult(step.result) };
  }
}

// The spec's example answer (server/resources, "Error Handling").
function notFound(uri: string): Outcome {
  return { error: { code: CODE.resourceNotFound, message: "Resource not found", data: { uri } } };
}

function invalidParams(message: string, prefix = true): Outcome {
  return {
    error: { code: CODE.invalidParams, message: prefix ? `Invalid params: ${message}` : message },
  };
}
