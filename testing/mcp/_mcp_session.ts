// One client connection of a FakeMcpServer, whatever the transport: it reads
// frames, answers them from the server's declarations and scripts, and
// writes through an outbox the transport provides. The behaviour follows
// the MCP specification (2025-11-25) and, where the spec leaves a choice,
// the official TypeScript SDK's server (1.32.2, src/server/index.ts and
// src/server/mcp.ts), whose wording the error texts keep.
import type { ClockPort } from "../../ports/clock.ts";
import { isHarnessError } from "../../runtime/harness_error.ts";
import { untilAborted } from "../../runtime/internal.ts";
import { CODE, errorAnswer, parseFrame, type RequestId, type RpcError } from "./_jsonrpc.ts";
import {
  issuesText,
  LATEST_PROTOCOL_VERSION,
  schemas,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./_mcp_protocol.ts";
import {
  checkStep,
  type DeclaredTool,
  errorResult,
  FakeMcpScript,
  type FakeMcpToolFunction,
  isStep,
  type Step,
  takeStep,
  toolResult,
} from "./_mcp_tools.ts";
import { InvalidScript, ScriptExhausted } from "../errors.ts";

/** One request as the server received and answered it. */
export interface CallRecord {
  method: string;
  tool?: string;
  args?: Record<string, unknown>;
  result?: unknown;
  error?: RpcError;
  cancelled?: true;
}

/** A declared resource, checked. */
export interface DeclaredResource {
  readonly uri: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

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
  readonly prompts: ReadonlyMap<string, DeclaredPrompt> | undefined;
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
    this.#core.closed(this);
    this.#out.close();
  }

  /** Sends a notification that belongs to no request (list_changed). */
  notify(method: string): void {
    if (!this.#closed) this.#out.send({ jsonrpc: "2.0", method });
  }

  /**
   * Reads one frame (JSON text or a parsed message). Returns the answer's
   * promise for a request, so an HTTP transport can wait for it.
   */
  receive(frame: unknown): Promise<void> | undefined {
    if (this.#closed) return undefined;
    const f = parseFrame(frame);
    switch (f.kind) {
      case "invalid":
        this.#out.send(f.answer);
        return undefined;
      case "response":
        return undefined; // this server sends no requests
      case "notification":
        this.#notification(f.method, f.params);
        return undefined;
      case "request":
        return this.#request(f.id, f.method, f.params);
    }
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
    this.#core.record(record);
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
    this.#answer(id, record, this.#simple(method, params));
    return undefined;
  }

  #simple(method: string, params: Readonly<Record<string, unknown>>): Outcome {
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
        const capabilities: Record<string, unknown> = { tools: { listChanged: true } };
        if (core.resources) capabilities.resources = {};
        if (core.prompts) capabilities.prompts = {};
        return { result: { protocolVersion, capabilities, serverInfo: { ...core.serverInfo } } };
      }
      case "ping":
        return { result: {} };
      case "tools/list":
        return this.#list(params, () => ({
          tools: [...core.tools().values()].map((t) => t.listing),
        }));
      case "resources/list":
        if (!core.resources) break;
        return this.#list(params, () => ({
          resources: core.resources!.map((r) => {
            const entry: Record<string, unknown> = { uri: r.uri, name: r.name };
            if (r.mimeType !== undefined) entry.mimeType = r.mimeType;
            return entry;
          }),
        }));
      case "resources/templates/list":
        if (!core.resources) break;
        return this.#list(params, () => ({ resourceTemplates: [] }));
      case "resources/read": {
        if (!core.resources) break;
        const r = schemas().readResource.safeParse(params);
        if (!r.success) return invalidParams(issuesText(r.error));
        const found = core.resources.find((x) => x.uri === r.data.uri);
        if (!found) {
          // The spec's example answer (server/resources, "Error Handling").
          return {
            error: {
              code: CODE.resourceNotFound,
              message: "Resource not found",
              data: { uri: r.data.uri },
            },
          };
        }
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
    const call = {
      tool: name,
      number: ++tool.calls,
      signal: controller.signal,
      progressToken: r.data._meta?.progressToken,
    };
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
    call: {
      tool: string;
      number: number;
      signal: AbortSignal;
      progressToken: string | number | undefined;
    },
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
        value = await (source as FakeMcpToolFunction)(args, call);
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
      source = isStep(value)
        ? checkStep(
          value as Record<string, unknown>,
          `what the function of tool "${tool.name}" returned`,
        )
        : { value };
    }
    if ("value" in source) return { result: toolResult(source.value) };
    return await this.#step(source as Step, call, id);
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

function invalidParams(message: string, prefix = true): Outcome {
  return {
    error: { code: CODE.invalidParams, message: prefix ? `Invalid params: ${message}` : message },
  };
}
