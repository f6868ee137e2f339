/**
 * The Vercel AI SDK over any model port.
 *
 * @module
 */
import type { ChatRequest, ChatResponse, ChatSettings } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { LLMPort } from "../../ports/llm.ts";
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { JsonSchema, ToolSpec } from "../../ports/tool_spec.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import {
  checkOptions as check,
  checkValue,
  is,
  parseArgs,
  ports,
  underPolicy,
} from "../../runtime/internal.ts";
import { toSdkError } from "./_ai_sdk_error.ts";
import { installedAi, specFor } from "./_installed_ai.ts";
import type {
  AiSdkCallOptions,
  AiSdkContent,
  AiSdkFinishReason,
  AiSdkGenerateResult,
  AiSdkLanguageModel,
  AiSdkModelFor,
  AiSdkPromptMessage,
  AiSdkPromptPart,
  AiSdkStreamPart,
  AiSdkStreamResult,
  AiSdkToolResultOutput,
  AiSdkUsage,
  AiSdkWarning,
} from "./ai_sdk_spec.ts";

/** Options for {@linkcode aiSdkModel}. */
export interface AiSdkModelOptions<V extends "v4" | "v3" = "v4" | "v3"> {
  /**
   * The model name: the SDK's `modelId` and every request's `model` (the
   * price-table key, and what a real port sends to its provider).
   * @default {"fake-model"}
   */
  readonly modelId?: string;
  /**
   * The provider specification to implement: `"v4"` for `ai` 7, `"v3"` for
   * `ai` 6 (which refuses any other version). Omitted, the one the `ai`
   * installed in the working directory's project takes (`"v4"` when none is
   * found, as under Deno's `npm:` specifiers); `"v4"` with `ai` 6 installed
   * is an error that says to pass `"v3"`. TypeScript types the omitted
   * version as `"v4"`: on `ai` 6, pass `"v3"` for the types too.
   * @default {"v4"}
   */
  readonly specificationVersion?: V;
  /**
   * The run context handed to every port call: its clock times a fake's
   * `delayMs`, its signal cancels. Omitted, the port gets none (a `FakeLLM`
   * then waits on the system clock, which `FakeClock.install()` drives).
   */
  readonly ctx?: Ctx;
}

const RULES = {
  modelId: is.text,
  specificationVersion: is.oneOf(["v4", "v3"]),
  ctx: ports.ctx,
};
const NO_URLS: Record<string, RegExp[]> = {};

/**
 * An AI SDK `LanguageModel` backed by any {@linkcode LLMPort}: `generateText`,
 * `streamText`, structured output and the SDK's tool loop (`stopWhen`,
 * `ToolLoopAgent`) run against a `FakeLLM` script in-process, or against a
 * cassette or a real port. The SDK's prompt becomes the port's messages
 * (tool calls and tool results included, so `llm.requests[i].messages` shows
 * what the SDK sent), its tools become tool specs, and the port's text, tool
 * calls, usage, finish reasons and stream events become the SDK's. A
 * provider error becomes an `APICallError` whose `cause` is the original: a
 * scripted `RateLimitError` is one the SDK retries, honouring `retryAfterMs`.
 * Harness errors (`ScriptExhausted`) pass through untouched.
 *
 * The SDK waits between retries with the global `setTimeout`: install a
 * `FakeClock` (`using _ = clock.install()`) and the waits cost no wall time.
 *
 * Structural: this package does not depend on `ai`; the returned object
 * implements the provider specification (`LanguageModelV4` for `ai` 7, or
 * `LanguageModelV3` for `ai` 6 with `{ specificationVersion: "v3" }`).
 *
 * @param llm The port that answers (a `FakeLLM`, a cassette, a real port).
 * @typeParam V The specification version: `"v4"` unless `specificationVersion` says `"v3"`.
 * @param options The model name, the specification version and the context.
 * @returns A model to pass as `model` to the SDK's functions.
 * @throws {TypeError} On an unknown option or a wrong type; when the
 * installed `ai` cannot take the model (`ai` 6 and `"v4"`, or `ai` 5 and
 * older), naming the installed version and the option that fits.
 *
 * @example The model's two calls, as the SDK makes them
 * ```ts
 * import { aiSdkModel, FakeLLM } from "@agentkit/testing/testing";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = FakeLLM.script([
 *   { toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] },
 *   { content: "It is raining in Oslo." },
 * ]);
 * const model = aiSdkModel(llm);
 * const first = await model.doGenerate({
 *   prompt: [{ role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] }],
 *   tools: [{ type: "function", name: "weather", inputSchema: { type: "object" } }],
 * });
 * assertEquals(first.content, [
 *   { type: "tool-call", toolCallId: "c1", toolName: "weather", input: '{"city":"Oslo"}' },
 * ]);
 * assertEquals(first.finishReason.unified, "tool-calls");
 * const second = await model.doGenerate({
 *   prompt: [
 *     { role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] },
 *     { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Oslo" } }] },
 *     { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "weather", output: { type: "text", value: "rain" } }] },
 *   ],
 * });
 * assertEquals(second.content, [{ type: "text", text: "It is raining in Oslo." }]);
 * assertEquals(llm.requests[1].messages.at(-1), { role: "tool", content: "rain", toolCallId: "c1" });
 * ```
 *
 * @example For `ai` 6: specification v3
 * ```ts
 * import { aiSdkModel, FakeLLM } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const model = aiSdkModel(new FakeLLM("hi"), { specificationVersion: "v3" });
 * assertEquals(model.specificationVersion, "v3");
 * const { content } = await model.doGenerate({
 *   prompt: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
 * });
 * assertEquals(content, [{ type: "text", text: "hi" }]);
 * ```
 *
 * @example With the SDK (a test imports `ai` itself; this package does not)
 * ```ts ignore
 * import { generateText } from "npm:ai@7.0.173";
 * import { aiSdkModel, FakeLLM } from "@agentkit/testing/testing";
 *
 * const { text } = await generateText({ model: aiSdkModel(new FakeLLM("hi")), prompt: "hello" });
 * ```
 */
export function aiSdkModel<V extends "v4" | "v3" = "v4">(
  llm: LLMPort,
  options: AiSdkModelOptions<V> = {},
): AiSdkModelFor<V> {
  checkOptions(llm, options);
  return new PortModel<V>(
    llm,
    options.modelId ?? "fake-model",
    versionFor(options.specificationVersion) as V,
    options.ctx,
  ) as AiSdkLanguageModel<V> as AiSdkModelFor<V>;
}

// The version given, checked against the installed `ai`; none given, the
// one the installed `ai` takes ("v4" when none is found). The AI SDK's own
// refusal ("Unsupported model version v4 ... AI SDK 5 only supports ... v2")
// names neither the installed SDK nor the option, so the mismatch is told here.
function versionFor(given: "v4" | "v3" | undefined): "v4" | "v3" {
  const installed = installedAi();
  const fits = installed && specFor(installed.major);
  if (installed && fits === "none") {
    throw new TypeError(
      `aiSdkModel(): the installed AI SDK is ai@${installed.version} (${installed.at}), which takes specification "v2" models; aiSdkModel implements the specification of ai 7 ("v4", the default) and ai 6 ({ specificationVersion: "v3" }): install ai 7 (Node 22 or later) or ai 6 (Node 20)`,
    );
  }
  if (given === "v4" && installed && fits === "v3") {
    throw new TypeError(
      `aiSdkModel(): { specificationVersion: "v4" } is ai 7's, but the installed AI SDK is ai@${installed.version} (${installed.at}), which refuses any model but "v3": pass aiSdkModel(llm, { specificationVersion: "v3" }), or install ai 7 (it needs Node 22 or later)`,
    );
  }
  return given ?? (fits === "v3" ? "v3" : "v4");
}

class PortModel<V extends "v4" | "v3"> implements AiSdkLanguageModel<V> {
  readonly provider = "agentkit";
  readonly supportedUrls: Record<string, RegExp[]> = NO_URLS;
  readonly #llm: LLMPort;
  readonly #ctx: Ctx | undefined;
  readonly #url: string;

  constructor(
    llm: LLMPort,
    readonly modelId: string,
    readonly specificationVersion: V,
    ctx: Ctx | undefined,
  ) {
    this.#llm = llm;
    this.#ctx = ctx;
    this.#url = `agentkit:${modelId}`;
  }

  async doGenerate(options: AiSdkCallOptions): Promise<AiSdkGenerateResult> {
    const warnings: AiSdkWarning[] = [];
    const request = toRequest(options, this.modelId, warnings);
    let response: ChatResponse;
    try {
      const ctx = this.#ctx;
      response = await (ctx ? this.#llm.chat(request, ctx) : guarded(() =>
        this.#llm.chat(request)
      ));
    } catch (error) {
      throw toSdkError(error, this.#url, bodyOf(request));
    }
    const result: {
      -readonly [K in keyof AiSdkGenerateResult]: AiSdkGenerateResult[K];
    } = {
      content: toContent(response),
      finishReason: toFinishReason(response.finishReason, response.refusal === true),
      usage: toUsage(response.usage),
      response: { id: response.id, modelId: response.model },
      warnings,
    };
    if (response.usage.costUsd !== undefined) {
      result.providerMetadata = { agentkit: { costUsd: response.usage.costUsd } };
    }
    return result;
  }

  async doStream(options: AiSdkCallOptions): Promise<AiSdkStreamResult> {
    const warnings: AiSdkWarning[] = [];
    const request = toRequest(options, this.modelId, warnings);
    const events = this.#llm.stream(request, this.#ctx)[Symbol.asyncIterator]();
    let first: IteratorResult<StreamEvent>;
    // The first event is awaited here, so a failure before it (a 429, a
    // script that ran out) rejects doStream, where the SDK's retry sees it.
    try {
      first = await (this.#ctx ? events.next() : guarded(() => events.next()));
    } catch (error) {
      throw toSdkError(error, this.#url, bodyOf(request));
    }
    const parts = new PartWriter(this.modelId, this.#url, request, this.specificationVersion);
    let pending: IteratorResult<StreamEvent> | undefined = first;
    const stream = new ReadableStream<AiSdkStreamPart>({
      start(controller) {
        controller.enqueue({ type: "stream-start", warnings });
      },
      async pull(controller) {
        let next = pending;
        pending = undefined;
        try {
          next ??= await events.next();
        } catch (error) {
          parts.fail(controller, error);
          controller.close();
          return;
        }
        if (next.done) {
          parts.end(controller);
          controller.close();
          return;
        }
        parts.write(controller, next.value);
      },
      async cancel() {
        await events.return?.();
      },
    });
    return { stream, request: { body: bodyOf(request) } };
  }
}

type Controller = ReadableStreamDefaultController<AiSdkStreamPart>;

// A model built without a ctx is a test double all the same: a real port
// behind it meets the test guard (its request is sent on the first step).
const REFUSING = { allowModelRequests: false } as const;
function guarded<T>(fn: () => T): T {
  return underPolicy(REFUSING, fn);
}

// Turns the port's events into the SDK's parts: text in a text block, each
// tool call as input start/delta/end then the call, and exactly one finish.
class PartWriter {
  #textId: string | undefined;
  #reasoningId: string | undefined;
  #refused = false;
  #finished = false;

  constructor(
    readonly modelId: string,
    readonly url: string,
    readonly request: ChatRequest,
    readonly version: "v4" | "v3",
  ) {}

  write(c: Controller, event: StreamEvent): void {
    switch (event.type) {
      case "message_start":
        c.enqueue({ type: "response-metadata", id: event.messageId, modelId: this.modelId });
        return;
      case "reasoning_delta":
        this.#closeText(c);
        if (this.#reasoningId === undefined) {
          this.#reasoningId = `${event.messageId}:reasoning`;
          c.enqueue({ type: "reasoning-start", id: this.#reasoningId });
        }
        c.enqueue({ type: "reasoning-delta", id: this.#reasoningId, delta: event.content });
        return;
      case "text_delta":
        this.#closeReasoning(c);
        if (event.refusal) this.#refused = true;
        if (this.#textId === undefined) {
          this.#textId = `${event.messageId}:text`;
          c.enqueue({ type: "text-start", id: this.#textId });
        }
        c.enqueue({ type: "text-delta", id: this.#textId, delta: event.content });
        return;
      case "tool_call": {
        this.#closeText(c);
        const { id, name } = event.call;
        const input = inputOf(event.call);
        c.enqueue({ type: "tool-input-start", id, toolName: name });
        c.enqueue({ type: "tool-input-delta", id, delta: input });
        c.enqueue({ type: "tool-input-end", id });
        c.enqueue({ type: "tool-call", toolCallId: id, toolName: name, input });
        return;
      }
      case "message_end":
        this.#finish(c, toFinishReason(event.finishReason, this.#refused), event.usage);
        return;
      case "error":
        this.#closeText(c);
        c.enqueue({
          type: "error",
          error: toSdkError(event.error, this.url, bodyOf(this.request)),
        });
        this.#finish(c, toFinishReason(event.finishReason ?? "error"), event.usage);
        return;
    }
  }

  /** The port threw mid-stream. */
  fail(c: Controller, error: unknown): void {
    this.#closeText(c);
    c.enqueue({ type: "error", error: toSdkError(error, this.url, bodyOf(this.request)) });
    this.#finish(c, { unified: "error", raw: undefined }, undefined);
  }

  /** The port's stream ended; a stream without a message_end ends "other". */
  end(c: Controller): void {
    this.#finish(c, { unified: "other", raw: undefined }, undefined);
  }

  #closeReasoning(c: Controller): void {
    if (this.#reasoningId === undefined) return;
    c.enqueue({ type: "reasoning-end", id: this.#reasoningId });
    this.#reasoningId = undefined;
  }

  #closeText(c: Controller): void {
    this.#closeReasoning(c);
    if (this.#textId === undefined) return;
    c.enqueue({ type: "text-end", id: this.#textId });
    this.#textId = undefined;
  }

  #finish(c: Controller, finishReason: AiSdkFinishReason, usage: Usage | undefined): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#closeText(c);
    if (usage?.costUsd !== undefined) {
      c.enqueue({
        type: "finish",
        finishReason,
        usage: toUsage(usage),
        providerMetadata: { agentkit: { costUsd: usage.costUsd } },
      });
    } else {
      c.enqueue({ type: "finish", finishReason, usage: usage ? toUsage(usage) : NO_USAGE });
    }
  }
}

const NO_USAGE: AiSdkUsage = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

const FINISH: Readonly<Record<FinishReason, AiSdkFinishReason>> = {
  stop: { unified: "stop", raw: "stop" },
  tool_calls: { unified: "tool-calls", raw: "tool_calls" },
  length: { unified: "length", raw: "length" },
  content_filter: { unified: "content-filter", raw: "content_filter" },
  error: { unified: "error", raw: "error" },
};

// A refusal is the SDK's "content-filter", as its Anthropic provider maps
// stop_reason "refusal" (vercel/ai: packages/anthropic/src/map-anthropic-stop-reason.ts).
const REFUSAL: AiSdkFinishReason = { unified: "content-filter", raw: "refusal" };

function toFinishReason(reason: FinishReason, refused = false): AiSdkFinishReason {
  if (refused && reason === "content_filter") return REFUSAL;
  return FINISH[reason] ?? { unified: "other", raw: reason };
}

function toUsage(u: Usage): AiSdkUsage {
  const cached = u.cachedInputTokens;
  return {
    inputTokens: {
      total: cached === undefined ? u.inputTokens : u.inputTokens + cached,
      noCache: u.inputTokens,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: { total: u.outputTokens, text: u.outputTokens, reasoning: undefined },
    raw: { ...u },
  };
}

function inputOf(call: ToolCall): string {
  return call.rawArgs ?? JSON.stringify(call.args);
}

function toContent(response: ChatResponse): AiSdkContent[] {
  const content: AiSdkContent[] = [];
  if (response.reasoning) content.push({ type: "reasoning", text: response.reasoning });
  if (response.content) content.push({ type: "text", text: response.content });
  for (const call of response.toolCalls) {
    content.push({
      type: "tool-call",
      toolCallId: call.id,
      toolName: call.name,
      input: inputOf(call),
    });
  }
  return content;
}

// The request as the SDK's telemetry shows it: no signal.
function bodyOf(request: ChatRequest): unknown {
  const { signal: _, ...body } = request;
  return body;
}

function toRequest(
  options: AiSdkCallOptions,
  model: string,
  warnings: AiSdkWarning[],
): ChatRequest {
  // The AI SDK always passes call options with a prompt array; a direct
  // caller may not, and gets told so rather than "prompt is not iterable".
  if (typeof options !== "object" || options === null || !Array.isArray(options.prompt)) {
    throw new TypeError(
      `aiSdkModel(): doGenerate()/doStream() take the AI SDK's call options with a prompt array (as generateText and streamText pass them), got ${
        options === null || typeof options !== "object"
          ? String(options)
          : `prompt ${JSON.stringify(options.prompt) ?? String(options.prompt)}`
      }`,
    );
  }
  const request: {
    messages: Message[];
    model: string;
    tools?: ToolSpec[];
    settings?: ChatSettings;
    signal?: AbortSignal;
  } = { messages: toMessages(options.prompt), model };
  const tools = toTools(options, warnings);
  if (tools) request.tools = tools;
  const settings = toSettings(options, warnings);
  if (settings) request.settings = settings;
  if (options.abortSignal) request.signal = options.abortSignal;
  return request;
}

const UNSUPPORTED = [
  "stopSequences",
  "topP",
  "topK",
  "presencePenalty",
  "frequencyPenalty",
  "seed",
] as const;

function toSettings(options: AiSdkCallOptions, warnings: AiSdkWarning[]): ChatSettings | undefined {
  for (const key of UNSUPPORTED) {
    if (options[key] !== undefined) {
      warnings.push({
        type: "unsupported",
        feature: key,
        details: "The model port has no such setting (ChatRequest.settings).",
      });
    }
  }
  const format = options.responseFormat;
  let jsonSchema: JsonSchema | undefined;
  let jsonSchemaName: string | undefined;
  if (format?.type === "json") {
    if (format.schema !== undefined) {
      jsonSchema = format.schema as JsonSchema;
      jsonSchemaName = format.name;
    } else {
      warnings.push({
        type: "unsupported",
        feature: "responseFormat",
        details:
          "JSON output needs a schema: the model port takes a JSON Schema (settings.jsonSchema).",
      });
    }
  }
  const { maxOutputTokens: maxTokens, temperature } = options;
  if (
    jsonSchema === undefined && maxTokens === undefined && temperature === undefined
  ) return undefined;
  const settings: {
    jsonSchema?: JsonSchema;
    jsonSchemaName?: string;
    maxTokens?: number;
    temperature?: number;
  } = {};
  if (jsonSchema !== undefined) settings.jsonSchema = jsonSchema;
  if (jsonSchemaName !== undefined) settings.jsonSchemaName = jsonSchemaName;
  if (maxTokens !== undefined) settings.maxTokens = maxTokens;
  if (temperature !== undefined) settings.temperature = temperature;
  return settings;
}

function toTools(options: AiSdkCallOptions, warnings: AiSdkWarning[]): ToolSpec[] | undefined {
  const tools = options.tools;
  if (!tools?.length) return undefined;
  const choice = options.toolChoice?.type;
  if (choice === "none") return undefined;
  if (choice === "required" || choice === "tool") {
    warnings.push({
      type: "unsupported",
      feature: "toolChoice",
      details:
        `toolChoice "${choice}" is not part of the model port; the tools are offered as "auto".`,
    });
  }
  const specs: ToolSpec[] = [];
  for (const tool of tools) {
    if (tool.type !== "function") {
      warnings.push({
        type: "unsupported",
        feature: `provider tool ${tool.name}`,
        details: "Only function tools reach a model port.",
      });
      continue;
    }
    specs.push({
      name: tool.name,
      description: tool.description ?? "",
      parameters: (tool.inputSchema ?? { type: "object" }) as JsonSchema,
    });
  }
  return specs.length ? specs : undefined;
}

function toMessages(prompt: ReadonlyArray<AiSdkPromptMessage>): Message[] {
  const out: Message[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case "system":
        out.push({ role: "system", content: message.content });
        break;
      case "user":
        out.push({ role: "user", content: userText(message.content) });
        break;
      case "assistant": {
        let text = "";
        let calls: ToolCall[] | undefined;
        for (const part of message.content) {
          if (part.type === "text") text += part.text ?? "";
          else if (part.type === "tool-call") (calls ??= []).push(toToolCall(part));
          // Reasoning and provider-executed results are the model's own
          // bookkeeping; the port's Message has no place for them.
        }
        out.push(
          calls ? { role: "assistant", content: text, toolCalls: calls } : {
            role: "assistant",
            content: text,
          },
        );
        break;
      }
      case "tool":
        for (const part of message.content) {
          if (part.type !== "tool-result") continue;
          const output = part.output;
          const isError = output !== undefined && ERROR_OUTPUTS.has(output.type);
          const m: { role: "tool"; content: string; toolCallId: string; isError?: boolean } = {
            role: "tool",
            content: outputText(output),
            toolCallId: part.toolCallId ?? "",
          };
          if (isError) m.isError = true;
          out.push(m);
        }
        break;
    }
  }
  return out;
}

const ERROR_OUTPUTS = new Set(["error-text", "error-json", "execution-denied"]);

function userText(parts: ReadonlyArray<AiSdkPromptPart>): string {
  if (parts.length === 1 && parts[0].type === "text") return parts[0].text ?? "";
  let text = "";
  for (const part of parts) {
    if (part.type === "text") text += part.text ?? "";
    // A model port carries text only: a file shows where it was and what it was.
    else if (part.type === "file") {
      text += `[file ${part.mediaType ?? "unknown"}${part.filename ? ` ${part.filename}` : ""}]`;
    }
  }
  return text;
}

function toToolCall(part: AiSdkPromptPart): ToolCall {
  const id = part.toolCallId ?? "";
  const name = part.toolName ?? "";
  const input = part.input;
  if (input !== null && typeof input === "object" && !Array.isArray(input)) {
    return { id, name, args: input as Record<string, unknown> };
  }
  if (typeof input === "string") {
    // JSON text, as the runtime's ports read it; text that is no JSON object
    // is kept raw. The SDK's input is JSON, so an empty one is malformed too
    // (where the wire's "" means no arguments).
    return input === "" ? { id, name, args: {}, rawArgs: "" } : parseArgs(id, name, input);
  }
  return { id, name, args: {}, rawArgs: JSON.stringify(input ?? null) };
}

function outputText(output: AiSdkToolResultOutput | undefined): string {
  if (output === undefined) return "";
  switch (output.type) {
    case "text":
    case "error-text":
      return String(output.value ?? "");
    case "execution-denied":
      return output.reason ?? "The tool's execution was denied.";
    case "content":
      return Array.isArray(output.value)
        ? output.value.map((p: { type?: string; text?: string }) =>
          p.type === "text" ? p.text ?? "" : `[${p.type ?? "part"}]`
        ).join("")
        : "";
    default:
      return JSON.stringify(output.value ?? null);
  }
}

function checkOptions(llm: unknown, options: AiSdkModelOptions): void {
  checkValue("aiSdkModel()", "the llm", llm, ports.llm);
  check("aiSdkModel()", options, RULES);
}
