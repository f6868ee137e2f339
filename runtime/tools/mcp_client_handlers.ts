/**
 * The request handlers an MCP client installs so that the agent answers a
 * server's questions: elicitation through an `AskerPort`, sampling through
 * an `LLMPort`.
 *
 * @module
 */
import type { AskerPort } from "../../ports/asker.ts";
import type { ClockPort } from "../../ports/clock.ts";
import type { Ctx } from "../../ports/context.ts";
import type { LLMPort } from "../../ports/llm.ts";
import type { Message } from "../../ports/message.ts";
import { Scope } from "../../ports/scope.ts";
import type { TracePort } from "../../ports/trace.ts";
import { zod } from "../_lazy/zod.ts";
import { checkOptions, ports, type Rule } from "../_options.ts";
import { is } from "../_options.ts";
import { NoopTrace } from "../noop.ts";
import { SystemClock } from "../system_clock.ts";

/** Options for {@linkcode mcpClientHandlers}. */
export interface McpClientHandlersOptions {
  /** Answers `elicitation/create`: one question per field of the form (a `FakeAsker` in tests, a human in production). */
  readonly asker?: AskerPort;
  /** Answers `sampling/createMessage`. */
  readonly llm?: LLMPort;
  /**
   * The run the asker and the model are called in (its clock, trace and
   * signal); the server's request's own signal cancels each call as well.
   * @default {a context of its own, on the system clock}
   */
  readonly ctx?: Ctx;
  /**
   * The model a sampling request is sent to.
   * @default {the server's first model hint, else "mcp-sampling"}
   */
  readonly model?: string;
}

/** What the SDK passes a request handler (as far as it is read here). */
export interface McpHandlerExtra {
  /** Aborts when the server cancels the request. */
  readonly signal?: AbortSignal;
}

/**
 * One handler: `client.setRequestHandler(h.schema, h.handler)`; it is also
 * the pair `[schema, handler]` (`client.setRequestHandler(...h)`).
 */
export interface McpRequestHandler extends Iterable<unknown> {
  /** The method it answers. */
  readonly method: "elicitation/create" | "sampling/createMessage";
  /** A zod schema of the request whose `method` is a literal, as the SDK's `setRequestHandler` takes. */
  readonly schema: object;
  /** Answers one request. */
  readonly handler: (
    request: { readonly method: string; readonly params?: Record<string, unknown> },
    extra?: McpHandlerExtra,
  ) => Promise<Record<string, unknown>>;
}

/**
 * A server's request the handler cannot answer as asked: a malformed one, or
 * an answer of the asker that does not fit the form. `code` is the JSON-RPC
 * error code the SDK sends back (-32602, Invalid params).
 *
 * @example
 * ```ts
 * import { McpRequestRefused } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new McpRequestRefused("elicitation/create", 'field "age": "old" is not an integer');
 * assertEquals([e.name, e.code], ["McpRequestRefused", -32602]);
 * ```
 */
export class McpRequestRefused extends Error {
  /** The JSON-RPC code the SDK answers with. */
  readonly code: number = -32602;

  /**
   * The message names the request and what is wrong with it.
   *
   * @param method The request's method.
   * @param problem What is wrong.
   */
  constructor(method: string, problem: string) {
    super(`Cannot answer ${method}: ${problem}`);
    this.name = "McpRequestRefused";
  }
}

const OPTIONS: Readonly<Record<string, Rule>> = {
  asker: ports.asker,
  llm: ports.llm,
  ctx: ports.ctx,
  model: is.text,
};

// A context for a handler: the given run's, with the request's signal too.
class HandlerCtx implements Ctx {
  readonly scope: Scope;
  readonly signal: AbortSignal;
  readonly clock: ClockPort;
  readonly trace: TracePort;
  readonly correlationId: string;
  readonly asker?: AskerPort;
  readonly #base: Ctx | undefined;

  constructor(base: Ctx | undefined, signal: AbortSignal | undefined) {
    this.#base = base;
    this.scope = base?.scope ?? new Scope();
    const signals = [base?.signal, signal].filter((s): s is AbortSignal => s !== undefined);
    this.signal = signals.length === 1
      ? signals[0]
      : signals.length
      ? AbortSignal.any(signals)
      : new AbortController().signal;
    this.clock = base?.clock ?? new SystemClock();
    this.trace = base?.trace ?? new NoopTrace();
    this.correlationId = base?.correlationId ?? "mcp";
    this.asker = base?.asker;
  }

  emit(kind: string, text: string): Promise<void> {
    return this.#base ? this.#base.emit(kind, text) : Promise.resolve();
  }

  checkCancelled(): void {
    if (this.signal.aborted) throw this.signal.reason;
  }
}

type Field = Record<string, unknown>;

// How one field is shown to the asker: its title, description, kind,
// choices and default.
function question(message: string, name: string, field: Field, required: boolean): string {
  const label = typeof field.title === "string" ? field.title : name;
  const parts: string[] = [];
  const choices = options(field);
  if (choices) {
    parts.push(
      `one${field.type === "array" ? " or more (comma-separated)" : ""} of ${
        choices.map((c) => c.title === c.value ? c.value : `${c.value} (${c.title})`).join(", ")
      }`,
    );
  } else parts.push(String(field.type));
  if (field.default !== undefined) {
    parts.push(`default ${JSON.stringify(field.default)}; empty keeps it`);
  } else if (!required) parts.push("optional; empty leaves it out");
  const about = typeof field.description === "string" ? ` - ${field.description}` : "";
  return `${message}\n${label}${about} [${parts.join("; ")}]`;
}

interface Choice {
  readonly value: string;
  readonly title: string;
}

// The choices of an enum field, in each of the 2025-11-25 forms (SEP-1330).
function options(field: Field): Choice[] | undefined {
  const one = (f: Field): Choice[] | undefined => {
    if (Array.isArray(f.enum)) {
      const names = Array.isArray(f.enumNames) ? f.enumNames : [];
      return f.enum.map((v, i) => ({ value: String(v), title: String(names[i] ?? v) }));
    }
    const list = Array.isArray(f.oneOf) ? f.oneOf : Array.isArray(f.anyOf) ? f.anyOf : undefined;
    return list?.map((o: Field) => ({ value: String(o.const), title: String(o.title ?? o.const) }));
  };
  if (field.type === "array" && field.items && typeof field.items === "object") {
    return one(field.items as Field);
  }
  return one(field);
}

// The asker's answer as the field's value, or why it is not one.
function valueOf(answer: string, field: Field): unknown {
  const text = answer.trim();
  const choices = options(field);
  const pick = (t: string): string => {
    const c = choices!.find((c) => c.value === t) ?? choices!.find((c) => c.title === t);
    if (!c) throw `"${t}" is not one of ${choices!.map((c) => c.value).join(", ")}`;
    return c.value;
  };
  switch (field.type) {
    case "array":
      return text.split(",").map((s) => s.trim()).filter(Boolean).map(pick);
    case "boolean":
      if (/^(y|yes|true)$/i.test(text)) return true;
      if (/^(n|no|false)$/i.test(text)) return false;
      throw `"${text}" is not yes or no`;
    case "number":
    case "integer": {
      const n = Number(text);
      if (
        text === "" || !Number.isFinite(n) || (field.type === "integer" && !Number.isInteger(n))
      ) {
        throw `"${text}" is not ${field.type === "integer" ? "an integer" : "a number"}`;
      }
      return n;
    }
    default:
      return choices ? pick(text) : answer;
  }
}

async function elicit(
  asker: AskerPort,
  params: Record<string, unknown>,
  ctx: Ctx,
): Promise<Record<string, unknown>> {
  const method = "elicitation/create";
  const message = typeof params.message === "string" ? params.message : "";
  if (params.mode === "url") {
    // URL mode: the user is sent to a page; an answer means they went.
    await asker.ask(`${message}\nOpen ${String(params.url)}`, ctx);
    return { action: "accept" };
  }
  const schema = params.requestedSchema as
    | { properties?: Record<string, Field>; required?: string[] }
    | undefined;
  if (!schema || typeof schema.properties !== "object" || schema.properties === null) {
    throw new McpRequestRefused(method, "requestedSchema has no properties object");
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const content: Record<string, unknown> = {};
  const fields = Object.entries(schema.properties);
  if (fields.length === 0) await asker.ask(message, ctx);
  for (const [name, field] of fields) {
    const answer = await asker.ask(question(message, name, field, required.has(name)), ctx);
    if (answer.trim() === "") {
      // SEP-1034: an omitted field takes its default.
      if (field.default !== undefined) content[name] = field.default;
      else if (required.has(name)) {
        throw new McpRequestRefused(method, `field "${name}" is required and the answer was empty`);
      }
      continue;
    }
    try {
      content[name] = valueOf(answer, field);
    } catch (problem) {
      throw new McpRequestRefused(method, `field "${name}": ${problem}`);
    }
  }
  return { action: "accept", content };
}

// A sampling message's content as the text a model port reads.
function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => {
    const x = b as Field;
    if (x?.type === "text" && typeof x.text === "string") return x.text;
    if ((x?.type === "image" || x?.type === "audio") && typeof x.data === "string") {
      return `[${x.type}: ${x.mimeType ?? "unknown type"}]`;
    }
    return JSON.stringify(b);
  }).join("\n");
}

// The stop reasons of MCP's CreateMessageResult, by the port's finish reason.
const STOP: Readonly<Record<string, string>> = {
  stop: "endTurn",
  length: "maxTokens",
  tool_calls: "toolUse",
};

async function sample(
  llm: LLMPort,
  params: Record<string, unknown>,
  ctx: Ctx,
  model: string | undefined,
): Promise<Record<string, unknown>> {
  const method = "sampling/createMessage";
  if (!Array.isArray(params.messages)) {
    throw new McpRequestRefused(method, "params.messages is not an array");
  }
  const messages: Message[] = [];
  if (typeof params.systemPrompt === "string") {
    messages.push({ role: "system", content: params.systemPrompt });
  }
  for (const m of params.messages as Field[]) {
    if (m?.role !== "user" && m?.role !== "assistant") {
      throw new McpRequestRefused(
        method,
        `a message's role must be "user" or "assistant", got ${JSON.stringify(m?.role)}`,
      );
    }
    messages.push({ role: m.role, content: textOf(m.content) });
  }
  const hint = ((params.modelPreferences as Field | undefined)?.hints as Field[] | undefined)
    ?.find((h) => typeof h?.name === "string")?.name as string | undefined;
  const settings: { maxTokens?: number; temperature?: number } = {};
  if (typeof params.maxTokens === "number") settings.maxTokens = params.maxTokens;
  if (typeof params.temperature === "number") settings.temperature = params.temperature;
  const response = await llm.chat({
    model: model ?? hint ?? "mcp-sampling",
    messages,
    settings,
    signal: ctx.signal,
  }, ctx);
  return {
    role: "assistant",
    content: { type: "text", text: response.content },
    model: response.model,
    stopReason: STOP[response.finishReason] ?? response.finishReason,
  };
}

/**
 * The request handlers for an MCP client (the SDK's `Client`, which
 * installs each with `client.setRequestHandler(h.schema, h.handler)`), so
 * that an agent answers what a server asks during a tool call:
 * `elicitation/create` through `asker` (each field of the form one question;
 * an empty answer takes the field's default, SEP-1034; enum fields take a
 * value or its title, multi-select ones a comma-separated list) and
 * `sampling/createMessage` through `llm`. A handler is given only for the
 * port given: without it the client answers the protocol's own error
 * (-32601, Method not found). The client declares what it handles
 * (`new Client(info, { capabilities: { elicitation: {}, sampling: {} } })`).
 *
 * @param options `asker`, `llm`, and optionally the `ctx` and `model` they run with.
 * @returns The handlers, one per port given.
 * @throws {TypeError} For an unknown option or a port of the wrong shape.
 *
 * @example An elicitation answered by a FakeAsker
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client";
 * import { mcpClientHandlers } from "@agentkit/testing/runtime";
 * import { FakeAsker, FakeMcpServer } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * await using server = new FakeMcpServer({
 *   tools: [{
 *     name: "book",
 *     result: async (_args, call) => {
 *       const answer = await call.elicit({
 *         message: "Which seat?",
 *         requestedSchema: { type: "object", properties: { seat: { type: "string", enum: ["aisle", "window"] } } },
 *       });
 *       return `booked: ${JSON.stringify(answer.content)}`;
 *     },
 *   }],
 * });
 * const client = new Client({ name: "agent", version: "1.0.0" }, { capabilities: { elicitation: {} } });
 * for (const h of mcpClientHandlers({ asker: new FakeAsker(["window"]) })) {
 *   client.setRequestHandler(h.schema as never, h.handler as never);
 * }
 * await client.connect(server.transport());
 * const result = await client.callTool({ name: "book", arguments: {} });
 * assertEquals(result.content, [{ type: "text", text: 'booked: {"seat":"window"}' }]);
 * await client.close();
 * ```
 */
export function mcpClientHandlers(options: McpClientHandlersOptions): readonly McpRequestHandler[] {
  checkOptions("mcpClientHandlers()", options, OPTIONS, { required: [] });
  const z = zod();
  const out: McpRequestHandler[] = [];
  const { asker, llm, ctx: base, model } = options ?? {};
  const pair = function* (this: McpRequestHandler): Generator<unknown> {
    yield this.schema;
    yield this.handler;
  };
  if (asker) {
    out.push({
      [Symbol.iterator]: pair,
      method: "elicitation/create",
      schema: z.object({ method: z.literal("elicitation/create"), params: z.looseObject({}) }),
      handler: (request, extra) =>
        elicit(asker, request.params ?? {}, new HandlerCtx(base, extra?.signal)),
    });
  }
  if (llm) {
    out.push({
      [Symbol.iterator]: pair,
      method: "sampling/createMessage",
      schema: z.object({ method: z.literal("sampling/createMessage"), params: z.looseObject({}) }),
      handler: (request, extra) =>
        sample(llm, request.params ?? {}, new HandlerCtx(base, extra?.signal), model),
    });
  }
  return out;
}
