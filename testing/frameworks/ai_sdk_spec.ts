/**
 * The parts of the AI SDK's provider specification (`@ai-sdk/provider`,
 * `LanguageModelV4` for `ai` 7 and `LanguageModelV3` for `ai` 6) that
 * {@linkcode aiSdkModel} reads and writes, written out structurally so this
 * package takes no dependency on `ai`. The two versions agree on every field
 * used here; only `specificationVersion` tells them apart.
 *
 * @module
 */
/**
 * A part of a prompt message: text, a file, a tool call or a tool result
 * (read by `type`; fields the adapter does not use are left out).
 *
 * @example
 * ```ts
 * import type { AiSdkPromptPart } from "@agentkit/testing/testing";
 * const part: AiSdkPromptPart = { type: "text", text: "hi" };
 * ```
 */
export interface AiSdkPromptPart {
  /** `"text"`, `"file"`, `"reasoning"`, `"tool-call"`, `"tool-result"`, ... */
  readonly type: string;
  /** The text of a text part. */
  readonly text?: string;
  /** The call id of a tool call or tool result. */
  readonly toolCallId?: string;
  /** The tool name of a tool call or tool result. */
  readonly toolName?: string;
  /** The arguments of a tool call (a JSON value). */
  readonly input?: unknown;
  /** The output of a tool result. */
  readonly output?: AiSdkToolResultOutput;
  /** The media type of a file part. */
  readonly mediaType?: string;
  /** The file name of a file part. */
  readonly filename?: string;
}

/**
 * The output of a tool result: `text`, `json`, `error-text`, `error-json`,
 * `execution-denied` or `content`.
 *
 * @example
 * ```ts
 * import type { AiSdkToolResultOutput } from "@agentkit/testing/testing";
 * const out: AiSdkToolResultOutput = { type: "json", value: { temp: 21 } };
 * ```
 */
export interface AiSdkToolResultOutput {
  /** The kind of output. */
  readonly type: string;
  /** The value (a string for the text kinds, JSON for the json kinds, parts for `content`). */
  readonly value?: unknown;
  /** Why execution was denied. */
  readonly reason?: string;
}

/**
 * One message of the prompt the SDK sends.
 *
 * @example
 * ```ts
 * import type { AiSdkPromptMessage } from "@agentkit/testing/testing";
 * const m: AiSdkPromptMessage = { role: "user", content: [{ type: "text", text: "hi" }] };
 * ```
 */
export type AiSdkPromptMessage =
  | { readonly role: "system"; readonly content: string }
  | {
    readonly role: "user" | "assistant" | "tool";
    readonly content: ReadonlyArray<AiSdkPromptPart>;
  };

/**
 * A tool the SDK offers the model: a function tool, or a provider tool
 * (which only a real provider can run).
 *
 * @example
 * ```ts
 * import type { AiSdkTool } from "@agentkit/testing/testing";
 * const t: AiSdkTool = { type: "function", name: "weather", inputSchema: { type: "object" } };
 * ```
 */
export interface AiSdkTool {
  /** `"function"` or `"provider"`. */
  readonly type: string;
  /** The tool's name. */
  readonly name: string;
  /** What it does. */
  readonly description?: string;
  /** Its arguments' JSON Schema (function tools). */
  readonly inputSchema?: unknown;
}

/**
 * The options of one `doGenerate` / `doStream` call.
 *
 * @example
 * ```ts
 * import type { AiSdkCallOptions } from "@agentkit/testing/testing";
 * const o: AiSdkCallOptions = { prompt: [{ role: "system", content: "Be brief." }] };
 * ```
 */
export interface AiSdkCallOptions {
  /** The transcript. */
  readonly prompt: ReadonlyArray<AiSdkPromptMessage>;
  /** The output token cap. */
  readonly maxOutputTokens?: number;
  /** Sampling temperature. */
  readonly temperature?: number;
  /** Stop sequences (not supported by the port; reported as a warning). */
  readonly stopSequences?: readonly string[];
  /** Nucleus sampling (reported as unsupported). */
  readonly topP?: number;
  /** Top-k sampling (reported as unsupported). */
  readonly topK?: number;
  /** Presence penalty (reported as unsupported). */
  readonly presencePenalty?: number;
  /** Frequency penalty (reported as unsupported). */
  readonly frequencyPenalty?: number;
  /** Seed (reported as unsupported). */
  readonly seed?: number;
  /** Text or JSON output; a JSON schema becomes `settings.jsonSchema`. */
  readonly responseFormat?:
    | { readonly type: "text" }
    | {
      readonly type: "json";
      readonly schema?: unknown;
      readonly name?: string;
      readonly description?: string;
    };
  /** The tools on offer. */
  readonly tools?: ReadonlyArray<AiSdkTool>;
  /** `auto`, `none`, `required` or one tool. */
  readonly toolChoice?: { readonly type: string; readonly toolName?: string };
  /** Cancels the call. */
  readonly abortSignal?: AbortSignal;
  /** Extra HTTP headers (meaningless in-process; ignored). */
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

/**
 * Why a turn ended, in the SDK's words (`unified`) and ours (`raw`).
 *
 * @example
 * ```ts
 * import type { AiSdkFinishReason } from "@agentkit/testing/testing";
 * const r: AiSdkFinishReason = { unified: "tool-calls", raw: "tool_calls" };
 * ```
 */
export interface AiSdkFinishReason {
  /** The SDK's unified reason. */
  readonly unified: "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";
  /** The port's finish reason. */
  readonly raw: string | undefined;
}

/**
 * Token usage in the SDK's shape. `inputTokens.total` includes cached tokens;
 * `noCache` is the port's `inputTokens` and `cacheRead` its `cachedInputTokens`.
 *
 * @example
 * ```ts
 * import type { AiSdkUsage } from "@agentkit/testing/testing";
 * const u: AiSdkUsage = {
 *   inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
 *   outputTokens: { total: 2, text: 2, reasoning: undefined },
 * };
 * ```
 */
export interface AiSdkUsage {
  /** Input tokens. */
  readonly inputTokens: {
    readonly total: number | undefined;
    readonly noCache: number | undefined;
    readonly cacheRead: number | undefined;
    readonly cacheWrite: number | undefined;
  };
  /** Output tokens. */
  readonly outputTokens: {
    readonly total: number | undefined;
    readonly text: number | undefined;
    readonly reasoning: number | undefined;
  };
  /** The port's usage as it reported it. */
  readonly raw?: { readonly [key: string]: number | undefined };
}

/**
 * A warning about a call option the port cannot honour.
 *
 * @example
 * ```ts
 * import type { AiSdkWarning } from "@agentkit/testing/testing";
 * const w: AiSdkWarning = { type: "unsupported", feature: "topP" };
 * ```
 */
export interface AiSdkWarning {
  /** Always `"unsupported"`. */
  readonly type: "unsupported";
  /** The option. */
  readonly feature: string;
  /** Why. */
  readonly details?: string;
}

/**
 * A piece of generated content: text or a tool call.
 *
 * @example
 * ```ts
 * import type { AiSdkContent } from "@agentkit/testing/testing";
 * const c: AiSdkContent = { type: "tool-call", toolCallId: "c1", toolName: "t", input: "{}" };
 * ```
 */
export type AiSdkContent =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "reasoning"; readonly text: string }
  | {
    readonly type: "tool-call";
    readonly toolCallId: string;
    readonly toolName: string;
    /** The arguments, JSON-encoded. */
    readonly input: string;
  };

/**
 * What `doGenerate` resolves to.
 *
 * @example
 * ```ts
 * import type { AiSdkGenerateResult } from "@agentkit/testing/testing";
 * const r: AiSdkGenerateResult = {
 *   content: [{ type: "text", text: "hi" }],
 *   finishReason: { unified: "stop", raw: "stop" },
 *   usage: {
 *     inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
 *     outputTokens: { total: 1, text: 1, reasoning: undefined },
 *   },
 *   warnings: [],
 * };
 * ```
 */
export interface AiSdkGenerateResult {
  /** Text, then tool calls. */
  readonly content: AiSdkContent[];
  /** Why the turn ended. */
  readonly finishReason: AiSdkFinishReason;
  /** What it consumed. */
  readonly usage: AiSdkUsage;
  /** `{ agentkit: { costUsd } }` when the port reported a cost. */
  readonly providerMetadata?: { readonly agentkit: { readonly costUsd: number } };
  /** The port's request, for the SDK's telemetry. */
  readonly request?: { readonly body?: unknown };
  /** The response's id and model. */
  readonly response?: { readonly id?: string; readonly modelId?: string };
  /** Options the port could not honour. */
  readonly warnings: AiSdkWarning[];
}

/**
 * One part of a `doStream` stream.
 *
 * @example
 * ```ts
 * import type { AiSdkStreamPart } from "@agentkit/testing/testing";
 * const p: AiSdkStreamPart = { type: "text-delta", id: "t1", delta: "Hel" };
 * ```
 */
export type AiSdkStreamPart =
  | { readonly type: "stream-start"; readonly warnings: AiSdkWarning[] }
  | { readonly type: "response-metadata"; readonly id?: string; readonly modelId?: string }
  | { readonly type: "text-start"; readonly id: string }
  | { readonly type: "text-delta"; readonly id: string; readonly delta: string }
  | { readonly type: "text-end"; readonly id: string }
  | { readonly type: "reasoning-start"; readonly id: string }
  | { readonly type: "reasoning-delta"; readonly id: string; readonly delta: string }
  | { readonly type: "reasoning-end"; readonly id: string }
  | { readonly type: "tool-input-start"; readonly id: string; readonly toolName: string }
  | { readonly type: "tool-input-delta"; readonly id: string; readonly delta: string }
  | { readonly type: "tool-input-end"; readonly id: string }
  | {
    readonly type: "tool-call";
    readonly toolCallId: string;
    readonly toolName: string;
    readonly input: string;
  }
  | {
    readonly type: "finish";
    readonly usage: AiSdkUsage;
    readonly finishReason: AiSdkFinishReason;
    readonly providerMetadata?: { readonly agentkit: { readonly costUsd: number } };
  }
  | { readonly type: "error"; readonly error: unknown };

/**
 * What `doStream` resolves to.
 *
 * @example
 * ```ts
 * import type { AiSdkStreamResult } from "@agentkit/testing/testing";
 * const r: AiSdkStreamResult = { stream: new ReadableStream() };
 * ```
 */
export interface AiSdkStreamResult {
  /** The parts. */
  readonly stream: ReadableStream<AiSdkStreamPart>;
  /** The port's request, for the SDK's telemetry. */
  readonly request?: { readonly body?: unknown };
}

/**
 * An AI SDK language model: what `generateText({ model })`, `streamText`,
 * `generateObject` and `ToolLoopAgent` accept. `V` is `"v4"` (`ai` 7) or
 * `"v3"` (`ai` 6).
 *
 * @example
 * ```ts
 * import type { AiSdkLanguageModel } from "@agentkit/testing/testing";
 * import { aiSdkModel, FakeLLM } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const model: AiSdkLanguageModel<"v4"> = aiSdkModel(new FakeLLM("hi"));
 * assertEquals(model.specificationVersion, "v4");
 * ```
 */
export interface AiSdkLanguageModel<V extends "v4" | "v3" = "v4"> {
  /** The specification this model implements. */
  readonly specificationVersion: V;
  /** Always `"agentkit"`. */
  readonly provider: string;
  /** The model name sent to the port (`ChatRequest.model`). */
  readonly modelId: string;
  /** No URL is fetched by the model itself: files reach the port as text placeholders. */
  readonly supportedUrls: Record<string, RegExp[]>;
  /** One blocking turn through `llm.chat`. */
  doGenerate(options: AiSdkCallOptions): Promise<AiSdkGenerateResult>;
  /** One streamed turn through `llm.stream`. */
  doStream(options: AiSdkCallOptions): Promise<AiSdkStreamResult>;
}

/**
 * What {@linkcode aiSdkModel} returns for the version `V`: its model, and for
 * a union of versions the union of their models. TypeScript infers `V` from
 * where the call stands, so an inline `model: aiSdkModel(llm)` type-checks
 * where either version is accepted (`ai` 7's `LanguageModel`, Mastra's
 * `MastraModelConfig`), and where only "v3" is (`ai` 6's).
 *
 * @example
 * ```ts
 * import type { AiSdkLanguageModel, AiSdkModelFor } from "@agentkit/testing/testing";
 * import { aiSdkModel, FakeLLM } from "@agentkit/testing/testing";
 *
 * type Accepted = AiSdkLanguageModel<"v3"> | AiSdkLanguageModel<"v4"> | string;
 * const config: { model: Accepted } = { model: aiSdkModel(new FakeLLM("hi")) };
 * const either: AiSdkModelFor<"v3" | "v4"> = config.model as AiSdkModelFor<"v4">;
 * ```
 */
export type AiSdkModelFor<V extends "v4" | "v3"> = V extends "v4" | "v3" ? AiSdkLanguageModel<V>
  : never;
