/**
 * The model double.
 *
 * @module
 */
import type { ChatRequest, ChatResponse, ChatSettings } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest, LLMPort } from "../../ports/llm.ts";
import type { Message } from "../../ports/message.ts";
import { ProviderResponseError, ProviderTimeoutError } from "../../ports/provider_errors.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { JsonSchema, ToolSpec } from "../../ports/tool_spec.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import type { HarnessError } from "../../runtime/harness_error.ts";
import { SystemClock } from "../../runtime/system_clock.ts";
import {
  isAppendOnly,
  markCut,
  markScripted,
  PULL,
  PullGenerator,
  untilAborted,
} from "../../runtime/internal.ts";
import { CHAT_NOW, type Now, offerNow, promised, throughPublic } from "../../runtime/internal.ts";
import { agentTurns } from "./_agent_turns.ts";
import {
  InvalidScript,
  ScriptExhausted,
  UnknownToolCall,
  UnmatchedPrompt,
  UnusedTurns,
} from "../errors.ts";
import { parseTurn, type Turn } from "./turn.ts";
import { chunkCount, chunksOf } from "./_turn_chunks.ts";
import { markOf } from "./_misbehaviour_mark.ts";
import { failedRuns, verifyAtDispose } from "../_dispose_verify.ts";
import { checkOptions as check, describe, is, type Rule } from "../../runtime/internal.ts";

/**
 * What the callable form of {@linkcode FakeLLM} receives.
 *
 * @example
 * ```ts
 * import type { ResponderInput } from "@agentkit/testing/testing";
 * const input: ResponderInput = { system: "", user: "hi", model: "m", messages: [], tools: [] };
 * ```
 */
export interface ResponderInput {
  /** The system prompt (system messages joined). */
  readonly system: string;
  /** The last user message. */
  readonly user: string;
  /** The model asked for. */
  readonly model: string;
  /** The whole transcript. */
  readonly messages: readonly Message[];
  /** The tools offered. */
  readonly tools: readonly ToolSpec[];
  /** The request's settings (`jsonSchema` when it asks for JSON); `undefined` when none. */
  readonly settings?: ChatSettings;
}

/** Options for {@linkcode FakeLLM.auto}: the answer, the tools, and the common options. */
export interface FakeLLMAutoOptions extends FakeLLMOptions {
  /**
   * The final answer.
   * @default {a JSON object of each tool's result by tool name; schema-valid JSON when the request asks for JSON; "success (no tool calls)" when no tool was called}
   */
  readonly answer?: string;
  /**
   * The tools to call, by name.
   * @default {every tool the request offers}
   */
  readonly tools?: readonly string[];
}

/** The callable form: answers with text or a whole turn, or a promise of one (awaited). */
export type Responder = (input: ResponderInput) => string | Turn | Promise<string | Turn>;

/** Options for {@linkcode FakeLLM}. */
export interface FakeLLMOptions {
  /**
   * The first n calls fail before any event (a pre-stream failure). The
   * count lives on the instance: a shared fake fails n times in total.
   * @default {0}
   */
  readonly failTimes?: number;
  /**
   * What those calls throw.
   * @default {one new ProviderTimeoutError("upstream timeout") per fake, thrown by each failing call}
   */
  readonly failWith?: Error;
  /** Wait this long on the context's clock before answering (cancellable). */
  readonly delayMs?: number;
  /**
   * Usage of a turn that does not script its own.
   * @default {{ inputTokens: 10, outputTokens: 0 }}
   */
  readonly usage?: Usage;
  /** The dictionary form throws `UnmatchedPrompt` instead of answering `"{}"`. */
  readonly strict?: boolean;
  /** The script form replays its last turn forever instead of running out. */
  readonly repeatLast?: boolean;
  /** `verify()` and disposal accept turns that were never used. */
  readonly allowUnused?: boolean;
  /**
   * A scripted tool call naming a tool the request did not offer throws
   * `UnknownToolCall` (a harness error) instead of being recorded in
   * `unknownToolCalls` and played.
   * @default {false}
   */
  readonly strictTools?: boolean;
  /** The model responses name (default: the request's). */
  readonly model?: string;
}

/**
 * A copy of one request, as the fake saw it.
 *
 * @example
 * ```ts
 * import type { RecordedRequest } from "@agentkit/testing/testing";
 * const r: RecordedRequest = {
 *   kind: "chat", streaming: false, turn: 1, model: "m", messages: [], tools: [], settings: undefined,
 * };
 * ```
 */
export interface RecordedRequest {
  /** Which method was called. */
  readonly kind: "chat" | "stream" | "complete";
  /** True for `stream`. */
  readonly streaming: boolean;
  /** The 1-based call number across the fake (and its clones). */
  readonly turn: number;
  /** The model asked for. */
  readonly model: string;
  /** A copy of the transcript. */
  readonly messages: readonly Message[];
  /** The tool specs offered (empty when none). */
  readonly tools: readonly ToolSpec[];
  /** The shape settings; `undefined` when none. `jsonSchema` is a detached copy. */
  readonly settings:
    | {
      readonly jsonSchema?: JsonSchema;
      readonly jsonSchemaName?: string;
      readonly maxTokens?: number;
      readonly temperature?: number;
    }
    | undefined;
}

type Answer =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "map"; readonly map: ReadonlyArray<readonly [string, Turn]> }
  | { readonly kind: "fn"; readonly fn: Responder }
  | { readonly kind: "script"; readonly turns: readonly Turn[] };

interface SharedState {
  calls: number;
  nextTurn: number;
  failsLeft: number;
  ids: number;
  readonly requests: RecordedRequest[];
  readonly cancelled: string[];
  readonly harnessErrors: HarnessError[];
  /**
   * The calls (0-based) that failed at the script: a same-conversation call
   * after one is a retry. Made at the first such failure: most fakes never
   * fail, and a fake built for each run pays for its record inside the run.
   */
  failedCalls?: Set<number>;
  readonly unknownToolCalls: UnknownToolCall[];
  /** The context of the last call, and `failedRuns()` then (see ../_dispose_verify.ts). */
  servedCtx: unknown;
  servedAt: number;
  /** The default failure, made on the first failing call and thrown by each. */
  failure?: Error;
  /** The copies of the transcript sent last. */
  log?: TranscriptLog;
  /** Whether `requests` was read: from then on every record is complete when made. */
  read: boolean;
  /**
   * Until `requests` is first read, its records hold the whole log in
   * `messages`; this is the length each is cut to (record i, length i).
   */
  readonly unslicedLengths: number[];
  /** The tools array sent last, and its copies: a loop sends the same one every call. */
  lastTools?: readonly ToolSpec[];
  lastToolCopies?: readonly ToolSpec[];
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

// The copies of one transcript's messages, in order, next to the messages
// they copy. A tool loop sends one growing array on every call; keeping its
// copies once and recording each request as a length into them makes the
// record cost linear in the loop's length, not quadratic.
interface TranscriptLog {
  readonly array: readonly Message[];
  readonly sources: Message[];
  readonly copies: Message[];
}

// The schema sampler behind FakeLLM.auto() (and the JSON Schema validator it
// checks every value with) is loaded on its first call, not with the package:
// most tests script their turns and never pay for it (bench/cold_start.ts).
let autoResponder: typeof import("./_auto_responder.ts") | undefined;
async function loadAutoResponder(): Promise<typeof import("./_auto_responder.ts")> {
  return autoResponder ??= await import("./_auto_responder.ts");
}

const DEFAULT_USAGE: Usage = Object.freeze({ inputTokens: 10, outputTokens: 0 });
// The options of a fake given none: one frozen bag, which needs no check.
const NO_OPTIONS: FakeLLMOptions = Object.freeze({});
const FALLBACK_CLOCK = new SystemClock();
const OPTIONS: Readonly<Record<string, Rule>> = {
  failTimes: is.count,
  failWith: is.error,
  delayMs: is.ms,
  usage: is.object,
  strict: is.boolean,
  repeatLast: is.boolean,
  allowUnused: is.boolean,
  model: is.text,
  strictTools: is.boolean,
};

/**
 * A language model that answers from a rule or a script, records every
 * request, and fails on demand. Four forms:
 *
 * | form | answers |
 * |---|---|
 * | `new FakeLLM("text")` | always that text |
 * | `new FakeLLM({ weather: "..." })` | the first key that is a substring of the user text; else `"{}"` (or `UnmatchedPrompt` when `strict`) |
 * | `new FakeLLM((input) => ...)` | whatever the function returns |
 * | `FakeLLM.script([turn, ...])` | one turn per call; one call too many throws `ScriptExhausted` |
 *
 * `chat`, `stream` and `complete` all read the same rule or script.
 *
 * @example A dictionary of substring matches
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = new FakeLLM({ weather: "It is raining.", price: "$15/Mtok" });
 * const ctx = makeTestCtx({ llm });
 * const agent = new Agent("a", { model: "fake-model" });
 * assertEquals((await agent.run("what is the weather", ctx)).output, "It is raining.");
 * assertEquals((await agent.run("something else entirely", ctx)).output, "{}");
 * ```
 *
 * @example The callable doubles as an assertion point
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const seen: string[] = [];
 * const llm = new FakeLLM(({ user }) => {
 *   seen.push(user);
 *   return `echo: ${user}`;
 * });
 * const result = await new Agent("a", { model: "fake-model" }).run("ping", makeTestCtx({ llm }));
 * assertEquals([result.output, seen], ["echo: ping", ["ping"]]);
 * ```
 */
export class FakeLLM implements LLMPort, Disposable {
  // Not readonly: clones and scripts are built by the constructor and then
  // given their answer and shared state.
  #answer: Answer;
  #options: FakeLLMOptions;
  // Made on first use (a call, a read of the record, a clone): a fake that
  // is built and never called (or one per test, called once) costs less.
  #shared?: SharedState;
  // What failedRuns() said when the fake was made: the record's first
  // servedAt, for a fake disposed before any call.
  readonly #bornAt: number;
  #model?: string;
  #settings?: ChatSettings;
  #usage: Usage;

  /**
   * Checks the answer and every option here; a malformed turn throws naming it.
   *
   * @param answer A text, a map of non-empty substring to answer, or a function.
   * @param options Failure injection, delay, usage, strictness.
   * @throws {InvalidScript} For a malformed turn, a map with the key `""`
   * (it would match every prompt), or tool-call arguments that are not JSON.
   */
  constructor(
    answer: string | Readonly<Record<string, string | Turn>> | Responder,
    options: FakeLLMOptions = NO_OPTIONS,
  ) {
    this.#options = options === NO_OPTIONS || isEmpty(options) ? options : checkOptions(options);
    this.#answer = toAnswer(answer);
    this.#usage = options.usage ?? DEFAULT_USAGE;
    this.#model = options.model;
    this.#bornAt = failedRuns();
  }

  // A private method, not a private getter: V8 inlines the one and calls
  // the other, and the record is read several times on every call.
  #state(): SharedState {
    return this.#shared ?? this.#newState();
  }

  #newState(): SharedState {
    return this.#shared = {
      calls: 0,
      nextTurn: 0,
      failsLeft: this.#options.failTimes ?? 0,
      ids: 0,
      requests: [],
      cancelled: [],
      harnessErrors: [],
      unknownToolCalls: [],
      read: false,
      unslicedLengths: [],
      failedCalls: undefined,
      servedCtx: undefined,
      servedAt: this.#bornAt,
    };
  }

  /**
   * A fake that plays `turns` in order, one per call, and throws
   * `ScriptExhausted` when asked for one more (unless `repeatLast`). Turns are
   * validated here: a mistyped key is an error now, not a silent pass later.
   *
   * @param turns The turns (a string is shorthand for `{ content }`).
   * @param options `repeatLast`, `allowUnused` and the common options.
   * @returns The scripted fake.
   * @throws {InvalidScript} When a turn is malformed.
   *
   * @example A script that runs out
   * ```ts
   * import { Agent } from "@agentkit/testing/runtime";
   * import { FakeLLM, ScriptExhausted, makeTestCtx } from "@agentkit/testing/testing";
   * import { assertEquals, assertRejects } from "@std/assert";
   *
   * const llm = FakeLLM.script([{ content: "one" }, { content: "two" }]);
   * const ctx = makeTestCtx({ llm });
   * const agent = new Agent("a", { model: "fake-model" });
   * assertEquals((await agent.run("go", ctx)).output, "one");
   * assertEquals((await agent.run("go", ctx)).output, "two");
   * await assertRejects(() => agent.run("go", ctx), ScriptExhausted, "has 2 turn(s), but the agent asked for turn 3");
   * ```
   */
  static script(
    turns: ReadonlyArray<Turn | string>,
    options: FakeLLMOptions = NO_OPTIONS,
  ): FakeLLM {
    if (!Array.isArray(turns)) {
      throw new InvalidScript(
        `FakeLLM.script takes an array of turns, got ${turns === null ? "null" : typeof turns}`,
      );
    }
    if (turns.length === 0) {
      throw new InvalidScript(
        "FakeLLM.script needs at least one turn; a script of none would fail on the first call",
      );
    }
    // A loop, not map(): a hole in the array is a turn that is missing, not one to skip.
    const parsed: Turn[] = [];
    for (let i = 0; i < turns.length; i++) parsed.push(parseTurn(turns[i], turnName(i)));
    const fake = new FakeLLM("", options);
    fake.#answer = { kind: "script", turns: parsed };
    return fake;
  }

  /**
   * A fake that needs no script, like pydantic-ai's `TestModel`: in each
   * conversation turn (after the last user message), the first call calls
   * every tool the request offers (or the ones named in `tools`) with
   * arguments generated from each tool's JSON Schema, deterministic and
   * valid (required properties, `enum`, `format`, lengths, bounds, nested
   * objects and arrays); the next call answers with `answer`, or with a JSON
   * object of the tool results by tool name. A request that asks for JSON
   * (`settings.jsonSchema`, as an agent with `output` sends) gets JSON valid
   * against that schema. A schema nothing can satisfy fails with an
   * `InvalidScript` naming the tool and the path into its schema. Every
   * value is checked by a JSON Schema validator (`@cfworker/json-schema`,
   * draft 2020-12) before it is served, and generation is bounded (10,000
   * characters per string, 1,000 items or properties, 100 levels, 100,000
   * steps): a schema over a limit fails at once with a
   * `SchemaLimitExceeded`.
   *
   * @param options `answer`, `tools`, and the common options.
   * @returns The fake.
   * @throws {InvalidScript} When an option is malformed; a call throws it
   * for an unsatisfiable schema or a named tool the request does not offer,
   * and its `SchemaLimitExceeded` for a schema over a limit.
   *
   * @example Every tool called once, then a summary
   * ```ts
   * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
   * import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
   * import { z } from "zod";
   * import { assertEquals } from "@std/assert";
   *
   * const cert = new FakeTool({
   *   name: "lookup_cert",
   *   parameters: z.object({ host: z.string().min(3), port: z.number().int().min(1).max(65535) }),
   *   responder: ({ host }: { host: string }) => ({ host, expired: true }),
   * });
   * const llm = FakeLLM.auto();
   * const agent = new Agent("sre", { model: "fake-model", cognition: new ReActCognition({ tools: [cert] }) });
   * const result = await agent.run("Why did the deploy fail?", makeTestCtx({ llm }));
   * assertEquals(cert.calls, [{ host: "aaa", port: 1 }]);
   * assertEquals(JSON.parse(result.output), { lookup_cert: { host: "aaa", expired: true } });
   * ```
   */
  static auto(options: FakeLLMAutoOptions = {}): FakeLLM {
    check("FakeLLM.auto()", options, {
      ...OPTIONS,
      answer: is.string,
      tools: is.arrayOf(is.text, 0),
    });
    const { answer, tools, ...common } = options;
    const rule = { answer, tools: tools ? [...tools] : undefined };
    return new FakeLLM(({ messages, tools: offered, settings }) => {
      const request = { messages, tools: offered, jsonSchema: settings?.jsonSchema };
      return autoResponder
        ? autoResponder.autoTurn(rule, request)
        : loadAutoResponder().then((m) => m.autoTurn(rule, request));
    }, common);
  }

  /** How many times the model was called (failed calls included). */
  get calls(): number {
    return this.#state().calls;
  }

  /** A copy of every request, in order (shared with clones). */
  get requests(): readonly RecordedRequest[] {
    const s = this.#state();
    s.read = true;
    const lengths = s.unslicedLengths;
    for (let i = 0; i < lengths.length; i++) {
      const record = s.requests[i] as Writable<RecordedRequest>;
      record.messages = record.messages.slice(0, lengths[i]);
    }
    lengths.length = 0;
    return s.requests;
  }

  /** The response ids of calls that were cancelled, in order. */
  get cancelled(): readonly string[] {
    return this.#state().cancelled;
  }

  /**
   * Scripted tool calls that named a tool the request did not offer, in
   * order (shared with clones). Each is also emitted on the run as an
   * `unknown_tool_call` observation; `strictTools` throws instead.
   */
  get unknownToolCalls(): readonly UnknownToolCall[] {
    return this.#state().unknownToolCalls;
  }

  /** Harness errors this fake has thrown (a swallowed one still shows here). */
  get harnessErrors(): readonly HarnessError[] {
    return this.#state().harnessErrors;
  }

  /**
   * How many scripted turns were asked for, the one that found the script
   * exhausted included (0 for the other forms; a call failed by `failTimes`
   * takes no turn).
   *
   * @example
   * ```ts
   * import { FakeLLM } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const llm = FakeLLM.script(["one", "two"]);
   * await llm.chat({ model: "m", messages: [] });
   * assertEquals([llm.turnsTaken, llm.unusedTurns], [1, 1]);
   * ```
   */
  get turnsTaken(): number {
    return this.#answer.kind === "script" ? this.#state().nextTurn : 0;
  }

  /** How many scripted turns were not used yet (0 for the other forms). */
  get unusedTurns(): number {
    return this.#answer.kind === "script"
      ? Math.max(0, this.#answer.turns.length - this.#state().nextTurn)
      : 0;
  }

  /**
   * A clone that names another model in its responses and shares the script,
   * the counters and the record with this fake: how a test gives two backends
   * different price or profile keys while reading one record.
   *
   * @param model The model the clone answers as.
   * @returns The clone.
   *
   * @example
   * ```ts
   * import { FakeLLM } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const llm = FakeLLM.script(["a", "b"]);
   * const big = llm.withModel("big-model");
   * assertEquals((await big.chat({ model: "x", messages: [] })).model, "big-model");
   * assertEquals((await llm.chat({ model: "x", messages: [] })).content, "b");
   * assertEquals(llm.calls, 2);
   * ```
   */
  withModel(model: string): FakeLLM {
    return this.#clone(model, this.#settings);
  }

  /**
   * A clone that applies `settings` to requests that carry none, sharing the
   * script and the record with this fake.
   *
   * @param settings The settings to apply.
   * @returns The clone.
   *
   * @example
   * ```ts
   * import { FakeLLM } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const llm = new FakeLLM("{}");
   * await llm.withSettings({ maxTokens: 512 }).chat({ model: "m", messages: [] });
   * assertEquals(llm.requests[0].settings?.maxTokens, 512);
   * ```
   */
  withSettings(settings: ChatSettings): FakeLLM {
    return this.#clone(this.#model, settings);
  }

  #clone(model: string | undefined, settings: ChatSettings | undefined): FakeLLM {
    const clone = new FakeLLM("", { ...this.#options, model });
    clone.#answer = this.#answer;
    clone.#shared = this.#state();
    clone.#settings = settings;
    return clone;
  }

  /**
   * Throws what a finished test should not hide: the first harness error this
   * fake threw (even if user code caught it), or an `UnusedTurns` error when
   * scripted turns were never used (unless `allowUnused` or `repeatLast`).
   *
   * @throws {HarnessError} As described.
   *
   * @example
   * ```ts
   * import { FakeLLM, UnusedTurns } from "@agentkit/testing/testing";
   * import { assertThrows } from "@std/assert";
   *
   * const llm = FakeLLM.script(["one", "two"]);
   * await llm.chat({ model: "m", messages: [] });
   * assertThrows(() => llm.verify(), UnusedTurns, "used only 1");
   * ```
   */
  verify(): void {
    const swallowed = this.#state().harnessErrors[0];
    if (swallowed) throw swallowed;
    if (this.#answer.kind === "script" && !this.#options.repeatLast && !this.#options.allowUnused) {
      const used = Math.min(this.#state().nextTurn, this.#answer.turns.length);
      if (used < this.#answer.turns.length) {
        throw new UnusedTurns("FakeLLM.script", this.#answer.turns.length, used);
      }
    }
  }

  static {
    // The runtime takes a ready answer as is (see ../runtime/_now.ts).
    const chat = this.prototype.chat;
    offerNow(
      this.prototype,
      CHAT_NOW,
      function (this: FakeLLM, request: ChatRequest, ctx?: Ctx) {
        return this.chat === chat
          ? this.#blocking(request, ctx, "chat")
          : throughPublic(this, this.chat, request, ctx);
      },
    );
  }

  /**
   * `using llm = FakeLLM.script(...)` verifies at scope exit; after a run
   * that failed, it notes what `verify()` found on the run's error instead
   * of throwing over it.
   */
  [Symbol.dispose](): void {
    const s = this.#state();
    verifyAtDispose(() => this.verify(), s.servedCtx, s.servedAt);
  }

  /**
   * One blocking call.
   * @param request The request.
   * @param ctx The run (for the clock and cancellation).
   * @returns The scripted response.
   */
  chat(request: ChatRequest, ctx?: Ctx): Promise<ChatResponse> {
    return promised(() => this.#blocking(request, ctx, "chat"));
  }

  // The answer as is when the turn waits on nothing (see
  // ../runtime/_now.ts), else a promise of it; a ready failure is thrown.
  #blocking(
    request: ChatRequest,
    ctx: Ctx | undefined,
    kind: "chat" | "complete",
  ): Now<ChatResponse> {
    const s = this.#state();
    const id = `fake-chat-${++s.ids}`;
    s.servedCtx = ctx;
    s.servedAt = failedRuns();
    const next = this.#next(request, kind);
    return next instanceof Promise
      ? next.then((turn) => this.#played(turn, id, request, ctx))
      : this.#played(next, id, request, ctx);
  }

  #played(turn: Turn, id: string, request: ChatRequest, ctx: Ctx | undefined): Now<ChatResponse> {
    if (turn.toolCalls?.length) this.#checkTools(turn, request, ctx);
    const signal = request.signal ?? ctx?.signal;
    if (turn.stall) {
      throw this.#harness(
        new InvalidScript(
          `turn ${this.#state().calls} is a stall turn, which only a stream can play; a blocking chat() would hang forever, so script it for stream() or drop stall`,
        ),
      );
    }
    // A blocking call answers when the stream would have ended.
    let ms = 0;
    if (turn.firstChunkDelayMs || turn.chunkDelayMs) {
      const chunks = chunkCount(turn);
      const upTo = turn.failAfterChunks ?? chunks;
      ms = (turn.firstChunkDelayMs ?? 0) + (turn.chunkDelayMs ?? 0) * Math.max(0, upTo - 1);
    }
    const paced = ms ? () => this.#pace(ms, id, ctx, signal) : undefined;
    if (this.#options.delayMs || turn.gate || signal?.aborted) {
      const held = this.#hold(turn, id, ctx, signal);
      return (paced ? held.then(paced) : held).then(() => this.#response(turn, id, request));
    }
    if (paced) return paced().then(() => this.#response(turn, id, request));
    return this.#response(turn, id, request);
  }

  #response(turn: Turn, id: string, request: ChatRequest): ChatResponse {
    const usage = turn.usage ?? this.#usage;
    const toolCalls = turn.toolCalls ?? [];
    const content = turn.content ?? turn.chunks?.join("") ?? turn.refusal ?? "";
    if (turn.failAfterChunks !== undefined) {
      throw toError(
        turn.error ?? `stream failed after ${turn.failAfterChunks} chunk(s)`,
        "mid_stream",
        turn.finishReason,
        usage,
      );
    }
    if (turn.error !== undefined) throw toError(turn.error, "pre_stream", turn.finishReason, usage);
    const response: Writable<ChatResponse> = {
      id,
      model: turn.model ?? this.#model ?? request.model,
      content,
      toolCalls,
      finishReason: finishOf(turn, toolCalls.length),
      usage,
    };
    if (turn.refusal !== undefined) response.refusal = true;
    if (turn.reasoning !== undefined) response.reasoning = turn.reasoning;
    return response;
  }

  /**
   * One streamed call: `message_start`, a `text_delta` per chunk, a
   * `tool_call` per call, then `message_end` (or, for a failing turn, an
   * `error` event carrying the finish reason and usage).
   * @param request The request.
   * @param ctx The run (for the clock and cancellation).
   * @returns The events.
   */
  stream(request: ChatRequest, ctx?: Ctx): AsyncGenerator<StreamEvent, void, undefined> {
    return new FakeStream(
      () => this.#open(request, ctx),
      request?.signal ?? ctx?.signal,
      this.#state().cancelled,
    );
  }

  // The call, made on the stream's first step: its events at once when the
  // turn waits on nothing, else the generator that waits for them.
  #open(
    request: ChatRequest,
    ctx: Ctx | undefined,
  ):
    | StreamEvent[]
    | AsyncIterator<StreamEvent, void, undefined>
    | Promise<
      StreamEvent[] | AsyncIterator<StreamEvent, void, undefined>
    > {
    const s = this.#state();
    const id = `fake-stream-${++s.ids}`;
    s.servedCtx = ctx;
    s.servedAt = failedRuns();
    const next = this.#next(request, "stream");
    if (next instanceof Promise) return next.then((turn) => this.#play(turn, id, request, ctx));
    return this.#play(next, id, request, ctx);
  }

  #play(
    turn: Turn,
    id: string,
    request: ChatRequest,
    ctx: Ctx | undefined,
  ): StreamEvent[] | AsyncIterator<StreamEvent, void, undefined> {
    if (turn.toolCalls?.length) this.#checkTools(turn, request, ctx);
    const signal = request.signal ?? ctx?.signal;
    if (
      this.#options.delayMs || turn.gate || signal?.aborted || turn.stall ||
      turn.firstChunkDelayMs || turn.chunkDelayMs
    ) return this.#waiting(turn, id, ctx, signal);
    return this.#events(turn, id);
  }

  // A turn's events, in order: the whole answer of a turn that waits on
  // nothing, and what the waiting path below yields as it comes.
  #events(turn: Turn, id: string): StreamEvent[] {
    const usage = turn.usage ?? this.#usage;
    const chunks = chunksOf(turn);
    const events: StreamEvent[] = [{ type: "message_start", messageId: id }];
    if (turn.reasoning !== undefined) {
      events.push({ type: "reasoning_delta", messageId: id, content: turn.reasoning });
    }
    const upTo = turn.failAfterChunks ?? chunks.length;
    const refusal = turn.refusal !== undefined;
    for (let i = 0; i < upTo; i++) {
      events.push(
        refusal
          ? { type: "text_delta", messageId: id, content: chunks[i], refusal }
          : { type: "text_delta", messageId: id, content: chunks[i] },
      );
    }
    if (turn.failAfterChunks !== undefined) {
      const error = markCut(toError(
        turn.error ?? `stream failed after ${upTo} chunk(s)`,
        "mid_stream",
        turn.finishReason,
        usage,
      ));
      for (const call of turn.toolCalls ?? []) {
        events.push({ type: "tool_call", messageId: id, call });
      }
      events.push({ type: "error", messageId: id, error, finishReason: turn.finishReason, usage });
      return events;
    }
    const toolCalls = turn.toolCalls ?? [];
    for (const call of toolCalls) events.push({ type: "tool_call", messageId: id, call });
    if (turn.error !== undefined) {
      const error = toError(turn.error, "mid_stream", turn.finishReason, usage);
      events.push({ type: "error", messageId: id, error, finishReason: turn.finishReason, usage });
      return events;
    }
    events.push({
      type: "message_end",
      messageId: id,
      finishReason: finishOf(turn, toolCalls.length),
      usage,
    });
    return events;
  }

  // A turn that waits (a delay, a gate, pacing, a stall, a cancelled
  // signal): its events as they come.
  async *#waiting(
    turn: Turn,
    id: string,
    ctx: Ctx | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    // A consumer that closes the stream after the run was cancelled (it saw
    // the abort before pulling again) cancels the call as surely as an abort
    // seen while waiting: the call is recorded as cancelled either way.
    let ended = false;
    try {
      if (this.#options.delayMs || turn.gate || signal?.aborted) {
        await this.#hold(turn, id, ctx, signal);
      }
      // message_start, a text_delta per chunk, then the tool calls and the end
      // (or the error: a cut after failAfterChunks is marked, so a FakeProvider
      // serves it as a broken connection).
      const events = this.#events(turn, id);
      yield events[0];
      // The thinking comes before the answer's first token.
      const first = turn.reasoning === undefined ? 1 : 2;
      if (first === 2) yield events[1];
      if (turn.firstChunkDelayMs) await this.#pace(turn.firstChunkDelayMs, id, ctx, signal);
      const chunks = (turn.failAfterChunks ?? chunkCount(turn)) + first - 1;
      for (let i = first; i <= chunks; i++) {
        if (i > first && turn.chunkDelayMs) await this.#pace(turn.chunkDelayMs, id, ctx, signal);
        yield events[i];
      }
      if (turn.stall && turn.failAfterChunks === undefined) {
        ended = true; // the stall records its own cancellation
        await this.#stallUntilCancelled(id, signal);
        return;
      }
      for (let i = chunks + 1; i < events.length; i++) yield events[i];

      ended = true;
    } finally {
      if (!ended && signal?.aborted && this.#state().cancelled.at(-1) !== id) {
        this.#state().cancelled.push(id);
      }
    }
  }

  /**
   * A system + user prompt, answered from the same rule or script as `chat`.
   * @param request The prompt.
   * @param ctx The run.
   * @returns The response.
   */
  complete(request: CompleteRequest, ctx?: Ctx): Promise<ChatResponse> {
    return promised(() => {
      if (request === null || typeof request !== "object" || typeof request.user !== "string") {
        throw new TypeError(
          `FakeLLM.complete(): the request must be a CompleteRequest ({ system, user, model }), got ${
            describe(request)
          }`,
        );
      }
      const messages: Message[] = [];
      if (request.system) messages.push({ role: "system", content: request.system });
      messages.push({ role: "user", content: request.user });
      return this.#blocking(
        { messages, model: request.model, signal: request.signal },
        ctx,
        "complete",
      );
    });
  }

  // A scripted call to a tool the request did not offer: recorded and
  // observed, or thrown under strictTools.
  #checkTools(turn: Turn, request: ChatRequest, ctx: Ctx | undefined): void {
    const tools = request.tools ?? NO_TOOLS;
    const calls = turn.toolCalls!;
    // Every call of a tool loop's turn is offered: what an unoffered one
    // costs is a method of its own, so this check of every tool turn stays
    // small enough for V8 to inline (issue 39).
    for (let i = 0; i < calls.length; i++) {
      if (!offers(tools, calls[i].name)) return this.#unofferedCalls(turn, tools, i, ctx);
    }
  }

  #unofferedCalls(
    turn: Turn,
    tools: readonly ToolSpec[],
    from: number,
    ctx: Ctx | undefined,
  ): void {
    // A misbehaviour's turn calls what it calls on purpose. Asked only here,
    // at a call that was not offered: the lookup cost every tool turn of a
    // loop (issue 39).
    if (markOf(turn)) return;
    const calls = turn.toolCalls!;
    for (let i = from; i < calls.length; i++) {
      const call = calls[i];
      // The names are listed only for a call to a tool that was not offered.
      if (offers(tools, call.name)) continue;
      const offered = tools.map((t) => t.name);
      const unknown = new UnknownToolCall(this.#state().calls, call, offered);
      if (this.#options.strictTools) throw this.#harness(unknown);
      this.#state().unknownToolCalls.push(unknown);
      ctx?.emit("unknown_tool_call", unknown.message, {
        payload: { turn: unknown.turn, callId: call.id, name: call.name, offered },
      }).catch(() => {});
    }
  }

  #harness(error: HarnessError): HarnessError {
    this.#state().harnessErrors.push(error);
    return error;
  }

  // Waits out the delay and the gate, and throws when the call was cancelled
  // meanwhile; callers skip it when there is nothing to wait for.
  async #hold(
    turn: Turn,
    id: string,
    ctx: Ctx | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    try {
      const delay = this.#options.delayMs;
      if (delay) await (ctx?.clock ?? FALLBACK_CLOCK).sleep(delay, signal);
      if (turn.gate) {
        await (signal ? untilAborted(turn.gate, signal) : turn.gate);
      }
    } catch (error) {
      if (signal?.aborted) this.#state().cancelled.push(id);
      throw error;
    }
    if (signal?.aborted) {
      this.#state().cancelled.push(id);
      throw signal.reason;
    }
  }

  // One paced wait of a stream on the context's clock; a cancelled wait is
  // recorded and ends the call with the signal's reason.
  async #pace(
    ms: number,
    id: string,
    ctx: Ctx | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    try {
      await (ctx?.clock ?? FALLBACK_CLOCK).sleep(ms, signal);
    } catch (error) {
      if (signal?.aborted) this.#state().cancelled.push(id);
      throw error;
    }
  }

  #stallUntilCancelled(id: string, signal: AbortSignal | undefined): Promise<never> {
    return new Promise((_, reject) => {
      const cancel = () => {
        this.#state().cancelled.push(id);
        reject(signal!.reason);
      };
      if (!signal) return; // never cancellable: the test hangs, as a real stalled provider would
      if (signal.aborted) return cancel();
      signal.addEventListener("abort", cancel, { once: true });
    });
  }

  // Counts and records the call, injects failures, and picks the turn.
  #next(request: ChatRequest, kind: RecordedRequest["kind"]): Turn | Promise<Turn> {
    if (
      request === null || typeof request !== "object" || !Array.isArray(request.messages)
    ) requestProblem(kind, request);
    const s = this.#state();
    s.calls++;
    const settings = request.settings ?? this.#settings;
    const copies = this.#copies(request.messages);
    const length = request.messages.length;
    // Built key by key rather than as a literal, as the tool loop builds its
    // messages and for the same reason (runtime/cognition/_loop_message.ts):
    // a long loop keeps every record, and V8 would then allocate the
    // literal's records in the old generation, slowing each step. (The
    // settings copy stays a literal: only a call with settings makes one.)
    const record = {} as Writable<RecordedRequest>;
    record.kind = kind;
    record.streaming = kind === "stream";
    record.turn = s.calls;
    record.model = request.model;
    record.messages = s.read ? copies.slice(0, length) : copies;
    record.tools = this.#toolCopies(request.tools);
    record.settings = settings === undefined ? undefined : {
      jsonSchema: settings.jsonSchema === undefined
        ? undefined
        : structuredClone(settings.jsonSchema),
      jsonSchemaName: settings.jsonSchemaName,
      maxTokens: settings.maxTokens,
      temperature: settings.temperature,
    };
    // Until the record is first read, the slice waits (`requests` makes it):
    // a slice per call would make a long loop quadratic.
    if (!s.read) s.unslicedLengths.push(length);
    s.requests.push(record);
    if (s.failsLeft > 0) {
      s.failsLeft--;
      (s.failedCalls ??= new Set()).add(s.calls - 1);
      throw markScripted(
        this.#options.failWith ?? (s.failure ??= new ProviderTimeoutError("upstream timeout")),
        `the FakeLLM's scripted failure (failTimes: ${this.#options.failTimes})`,
      );
    }
    const a = this.#answer;
    switch (a.kind) {
      case "text":
        return { content: a.text };
      case "script": {
        const i = s.nextTurn++;
        if (i < a.turns.length) return a.turns[i];
        if (this.#options.repeatLast) return a.turns[a.turns.length - 1];
        (s.failedCalls ??= new Set()).add(s.calls - 1);
        const { turn, retries } = agentTurns(this.requests, s.failedCalls!);
        throw this.#harness(
          new ScriptExhausted("FakeLLM.script", a.turns.length, turn, "turn", retries),
        );
      }
      case "map": {
        const user = lastUser(request.messages);
        for (const [key, turn] of a.map) if (user.includes(key)) return turn;
        if (this.#options.strict) {
          throw this.#harness(new UnmatchedPrompt(user, a.map.map(([k]) => k)));
        }
        return { content: "{}" };
      }
      case "fn": {
        const out = a.fn({
          system: request.messages.filter((m) => m.role === "system").map((m) => m.content).join(
            "\n",
          ),
          user: lastUser(request.messages),
          model: request.model,
          messages: request.messages,
          tools: request.tools ?? [],
          settings,
        });
        const where = `FakeLLM: the responder's answer to call ${s.calls}`;
        // An async responder is awaited; only it pays for a promise.
        return isThenable(out)
          ? Promise.resolve(out).then((v) => parseTurn(v, where))
          : parseTurn(out, where);
      }
    }
  }

  // Copies of the tool specs sent; the same array as last time (a tool loop
  // sends one on every call) shares the last copies, read-only as records are.
  #toolCopies(tools: readonly ToolSpec[] | undefined): readonly ToolSpec[] {
    if (!tools) return NO_TOOLS;
    const s = this.#state();
    if (tools === s.lastTools && sameSpecs(tools, s.lastToolCopies!)) return s.lastToolCopies!;
    const copies = tools.map((t) => ({ ...t }));
    s.lastTools = tools;
    s.lastToolCopies = copies;
    return copies;
  }

  // The copies of `messages` as they are now: the last call's copies when
  // this is the same array and it only grew since (each message still the
  // same object), else a fresh log. A message object is copied once, when
  // first sent.
  #copies(messages: readonly Message[]): Message[] {
    const s = this.#state();
    let log = s.log;
    if (log && log.array === messages) {
      const seen = log.sources;
      let same = messages.length >= seen.length;
      // A runtime loop's transcript only grows while marked; any other array
      // is checked message by message.
      if (!isAppendOnly(messages)) {
        for (let i = 0; same && i < seen.length; i++) same = messages[i] === seen[i];
      }
      if (!same) log = undefined;
    } else log = undefined;
    if (!log) {
      log = { array: messages, sources: [], copies: [] };
      s.log = log;
    }
    for (let i = log.sources.length; i < messages.length; i++) {
      log.sources.push(messages[i]);
      log.copies.push({ ...messages[i] });
    }
    return log.copies;
  }
}

// An options bag with no keys at all needs no check (the common case: none
// given). Anything else, a null or an array included, is checked.
function isEmpty(options: unknown): boolean {
  if (options === null || typeof options !== "object" || Array.isArray(options)) return false;
  for (const _ in options) return false;
  return true;
}

function checkOptions(options: FakeLLMOptions): FakeLLMOptions {
  check("new FakeLLM()", options, OPTIONS);
  const n = options.failTimes;
  if (options.failWith !== undefined && n === undefined) {
    throw new InvalidScript(
      "FakeLLM failWith has no effect without failTimes; pass { failTimes: 1, failWith }",
    );
  }
  if (options.usage !== undefined) parseTurn({ usage: options.usage }, "FakeLLM options");
  return options;
}

const NO_TOOLS: readonly ToolSpec[] = Object.freeze([]);

// Whether a tool named `name` is among `tools`.
function offers(tools: readonly ToolSpec[], name: string): boolean {
  for (const t of tools) if (t.name === name) return true;
  return false;
}

// Whether `copies` still match `tools` spec for spec (the array may have
// been changed since it was last sent).
function sameSpecs(tools: readonly ToolSpec[], copies: readonly ToolSpec[]): boolean {
  if (tools.length !== copies.length) return false;
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i] as unknown as Record<string, unknown>;
    const c = copies[i] as unknown as Record<string, unknown>;
    let keys = 0;
    for (const key in t) {
      if (t[key] !== c[key]) return false;
      keys++;
    }
    for (const _ in c) keys--;
    if (keys !== 0) return false;
  }
  return true;
}

// The names of the first turns, made once: a script is built in every test.
const TURN_NAMES: readonly string[] = Array.from({ length: 32 }, (_, i) => `turn ${i + 1}`);

function turnName(i: number): string {
  return i < TURN_NAMES.length ? TURN_NAMES[i] : `turn ${i + 1}`;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === "object" &&
    typeof (value as { then?: unknown }).then === "function";
}

// The answer a script is built from before its turns replace it.
const NO_TEXT: Answer = Object.freeze({ kind: "text", text: "" });

function toAnswer(answer: unknown): Answer {
  if (typeof answer === "string") return answer ? { kind: "text", text: answer } : NO_TEXT;
  if (typeof answer === "function") return { kind: "fn", fn: answer as Responder };
  if (answer !== null && typeof answer === "object" && !Array.isArray(answer)) {
    // "" is a substring of every prompt: the key would answer them all.
    if (Object.hasOwn(answer, "")) {
      throw new InvalidScript(
        'FakeLLM: the key "" matches every prompt (every text contains ""); keys are substrings of the last user message, so give each a non-empty one, or pass the answer alone: new FakeLLM("...")',
      );
    }
    const map = Object.entries(answer).map(([k, v]) =>
      [k, parseTurn(v, `the answer for key ${JSON.stringify(k)}`)] as const
    );
    return { kind: "map", map };
  }
  throw new InvalidScript(
    `FakeLLM takes a string, a map of substring to answer, or a function; got ${
      Array.isArray(answer) ? "an array (did you mean FakeLLM.script([...])?)" : String(answer)
    }`,
  );
}

function requestProblem(kind: string, request: unknown): never {
  throw new TypeError(
    `FakeLLM.${kind}(): the request must be a ChatRequest ({ model, messages: [...] }), got ${
      describe(request)
    }`,
  );
}

function lastUser(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "user") return messages[i].content;
  }
  return "";
}

// The finish a turn declares, else the one its content implies.
function finishOf(turn: Turn, calls: number): FinishReason {
  return turn.finishReason ??
    (turn.refusal !== undefined ? "content_filter" : calls ? "tool_calls" : "stop");
}

// What a scripted error without words says, so the failure still reads.
const EMPTY_ERROR =
  "a FakeLLM turn's scripted error with an empty message (give the turn's error words, e.g. { error: \"overloaded\" })";

function toError(
  error: string | Error,
  phase: "pre_stream" | "mid_stream",
  finishReason: FinishReason | undefined,
  usage: Usage,
): Error {
  return markScripted(
    typeof error === "string"
      ? new ProviderResponseError(error.trim() === "" ? EMPTY_ERROR : error, {
        phase,
        finishReason,
        usage,
      })
      : error,
    "the FakeLLM's scripted failure (a turn's error)",
  );
}

type Opened = StreamEvent[] | AsyncIterator<StreamEvent, void, undefined>;

const DONE: IteratorReturnResult<void> = Object.freeze({ done: true, value: undefined });

// What `stream()` returns: an async generator's face over the call, which
// is made on the first step (as a generator's body runs on its first
// `next()`). A turn that waits on nothing has all its events at once, and
// hands each out ready (through `[PULL]`, without a promise each).
class FakeStream extends PullGenerator<StreamEvent> {
  #open: (() => Opened | Promise<Opened>) | undefined;
  #events: StreamEvent[] | undefined;
  #waiting: AsyncIterator<StreamEvent, void, undefined> | undefined;
  #i = 0;
  #done = false;
  readonly #signal: AbortSignal | undefined;
  readonly #cancelled: string[];

  constructor(
    open: () => Opened | Promise<Opened>,
    signal: AbortSignal | undefined,
    cancelled: string[],
  ) {
    super();
    this.#open = open;
    this.#signal = signal;
    this.#cancelled = cancelled;
  }

  [PULL](): IteratorResult<StreamEvent, void> | Promise<IteratorResult<StreamEvent, void>> {
    if (this.#done) return DONE;
    const events = this.#events;
    if (events !== undefined) return this.#take(events);
    if (this.#waiting !== undefined) return this.#fromWaiting(this.#waiting);
    const open = this.#open!;
    this.#open = undefined;
    let opened: Opened | Promise<Opened>;
    try {
      opened = open();
    } catch (error) {
      this.#done = true;
      throw error;
    }
    if (opened instanceof Promise) {
      return opened.then((o) => this.#first(o), (error) => {
        this.#done = true;
        throw error;
      });
    }
    return this.#first(opened);
  }

  #first(
    opened: Opened,
  ): IteratorResult<StreamEvent, void> | Promise<IteratorResult<StreamEvent, void>> {
    if (Array.isArray(opened)) {
      this.#events = opened;
      return this.#take(opened);
    }
    this.#waiting = opened;
    return this.#fromWaiting(opened);
  }

  #take(events: StreamEvent[]): IteratorResult<StreamEvent, void> {
    if (this.#i < events.length) return { done: false, value: events[this.#i++] };
    this.#done = true;
    return DONE;
  }

  #fromWaiting(
    it: AsyncIterator<StreamEvent, void, undefined>,
  ): Promise<IteratorResult<StreamEvent, void>> {
    return it.next().then((step) => {
      if (step.done) this.#done = true;
      return step;
    }, (error) => {
      this.#done = true;
      throw error;
    });
  }

  async return(): Promise<IteratorResult<StreamEvent, void>> {
    this.#open = undefined;
    if (!this.#done) {
      this.#done = true;
      // A ready turn closed after the run's signal aborted is a cancelled
      // call, as the waiting path records one (its `finally`).
      const events = this.#events;
      if (events !== undefined && this.#signal?.aborted) this.#cancelled.push(events[0].messageId);
      await this.#waiting?.return?.();
    }
    return DONE;
  }
}
