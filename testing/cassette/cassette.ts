/**
 * Record a real model once, replay it forever.
 *
 * @module
 */
// node:fs, node:path and node:url are loaded when a cassette first reads or
// writes (see runtime/spawn/_builtin.ts), not when the package is imported.
import type * as Fs from "node:fs";
import type * as Path from "node:path";
import type * as Url from "node:url";
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest, LLMPort } from "../../ports/llm.ts";
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { Usage } from "../../ports/usage.ts";
import type { HarnessError } from "../../runtime/harness_error.ts";
import { failedRuns, verifyAtDispose } from "../_dispose_verify.ts";
import { env } from "../_env.ts";
import {
  builtin,
  checkOptions as check,
  is,
  Redactor,
  underPolicy,
} from "../../runtime/internal.ts";
import { FakeLLM } from "../llm/fake_llm.ts";
import type { Turn } from "../llm/turn.ts";
import {
  type CassetteLine,
  faultOf,
  firstDifference,
  parseCassette,
  recordedCall,
  replayTurn,
} from "./_cassette_line.ts";
import { CassetteMismatch } from "./cassette_mismatch.ts";

/**
 * How a cassette treats its file: `"once"` replays it when it exists and
 * records it when it does not; `"replay"` never records; `"record"` records
 * afresh over whatever is there.
 */
export type CassetteMode = "once" | "replay" | "record";

/** Options for {@linkcode cassette}. */
export interface CassetteOptions {
  /**
   * Makes the real port to record through (called once, and only when
   * recording: a replay never builds it, so it needs no key and no network).
   */
  readonly upstream?: () => LLMPort;
  /**
   * The mode; the `AGENTKIT_CASSETTE` environment variable (`once`, `replay`
   * or `record`) overrides it, so CI can forbid recording and a developer can
   * re-record without editing the test.
   * @default {"once"}
   */
  readonly mode?: CassetteMode;
  /**
   * More to mask before anything is written: strings, replaced by
   * `[REDACTED]` wherever they occur in a recorded request or turn, and
   * patterns, at every match whatever their flags (`g`, `y`, `i`; no state
   * is kept between strings). Always masked as well, in every string of
   * every line (messages, tool arguments, settings, the answer, a recorded
   * error's message): the values of the provider key variables
   * (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY` and the others listed in
   * docs/frameworks.md, when 8 characters or longer), strings under
   * secret-named keys (`apiKey`, `api_token`, `password`, `authorization`,
   * `cookie`, ...), and credential shapes in text: vendor key prefixes
   * (`sk-`, `sk-ant-`, `sk_live_`, `AIza`, `ghp_`, `AKIA`, `xox?-`, `hf_`,
   * ...), JWTs, PEM private keys, `Bearer`/`Basic` credentials, secret-named
   * `name=value` / `name: value` / JSON fields and URL query parameters,
   * `user:pass@` in URLs, and cookie headers. Headers are never recorded.
   * @default {[]}
   */
  readonly redact?: ReadonlyArray<string | RegExp>;
}

const MODES: readonly CassetteMode[] = ["once", "replay", "record"];
const RULES = {
  upstream: {
    accepts: "a function that makes the real port (() => new OpenAIChatLLM()), not the port",
    test: (v: unknown) => typeof v === "function" ? undefined : { kind: "type" as const },
  },
  mode: is.oneOf(MODES),
  redact: is.arrayOf(is.either(is.string, is.instance(RegExp))),
};
// A line without usage bills nothing: nothing was recorded as billed.
const NO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });
// The provider keys a recording machine is likely to hold: their values are
// masked wherever they appear, whatever shape they have.
const KEY_VARIABLES = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "AZURE_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GROQ_API_KEY",
  "MISTRAL_API_KEY",
  "OPENROUTER_API_KEY",
  "XAI_API_KEY",
  "DEEPSEEK_API_KEY",
  "TOGETHER_API_KEY",
  "FIREWORKS_API_KEY",
  "COHERE_API_KEY",
  "LITELLM_API_KEY",
  "LITELLM_MASTER_KEY",
  "VLLM_API_KEY",
  "HF_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
];
// Shorter values would mask common words in every recorded string.
const MIN_KEY_VARIABLE = 8;

/**
 * A model port that replays a recorded conversation from a JSONL file, or
 * records one through a real port. Each line is `{ request, turn }`: the
 * request as sent (model, messages, tools, settings) and the answer in the
 * `FakeLLM.script` turn format (streamed chunks, tool calls, usage, finish
 * reason, errors), so a cassette reads like a script and can be edited as
 * one. Replay checks each request against its recording, in order, and fails
 * with `CassetteMismatch` at the first differing field.
 *
 * Obtain one with {@linkcode cassette}; `await using` it (or call
 * `verify()`), so a replay that used fewer turns than recorded fails.
 *
 * @example Replaying a hand-written cassette
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { cassette, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, JSON.stringify({
 *   request: { model: "fake-model", messages: [{ role: "user", content: "hi" }] },
 *   turn: { content: "Hello!", usage: { inputTokens: 3, outputTokens: 2 } },
 * }) + "\n");
 * {
 *   await using llm = cassette(path, { mode: "replay" });
 *   const result = await new Agent("a", { model: "fake-model" }).run("hi", makeTestCtx({ llm }));
 *   assertEquals(result.output, "Hello!");
 * }
 * await Deno.remove(path);
 * ```
 */
export class Cassette implements LLMPort, AsyncDisposable {
  /** The file. */
  readonly path: string;
  /** The mode in force (after `AGENTKIT_CASSETTE`): `"replay"` or `"record"`. */
  readonly mode: "replay" | "record";
  readonly #lines: readonly CassetteLine[];
  readonly #replay: FakeLLM | undefined;
  readonly #upstream: (() => LLMPort) | undefined;
  readonly #redactor: Redactor;
  readonly #mask: (s: string, secret: boolean) => string;
  #port: LLMPort | undefined;
  #calls = 0;
  // The context of the last call, and failedRuns() then (see ../_dispose_verify.ts).
  #servedCtx: unknown;
  #servedAt = failedRuns();
  #written = 0;
  #harnessErrors: HarnessError[] = [];

  /**
   * Opens the cassette (use {@linkcode cassette}).
   *
   * @param path The JSONL file (a non-empty path or a `file:` URL).
   * @param options Upstream, mode and extra redactions.
   * @throws {TypeError} On a path that is not a non-empty string or a `file:` URL, or a bad option.
   */
  constructor(path: string | URL, options: CassetteOptions = {}) {
    this.path = checkPath(path);
    checkOptions(options);
    this.#upstream = options.upstream;
    const redactor = new Redactor({ literals: keyValues(), extra: options.redact });
    this.#redactor = redactor;
    this.#mask = (s, secret) => redactor.field(s, secret);
    const mode = modeOf(options.mode);
    const exists = fs().existsSync(this.path);
    this.mode = mode === "record" || (mode === "once" && !exists) ? "record" : "replay";
    if (this.mode === "replay") {
      if (!exists) {
        throw new CassetteMismatch(
          this.path,
          1,
          "",
          undefined,
          undefined,
          "the file does not exist and the mode is replay, which never records; record it once",
          true,
        );
      }
      this.#lines = parseCassette(fs().readFileSync(this.path, "utf8"), this.path);
      this.#replay = this.#lines.length
        ? FakeLLM.script(this.#lines.map(replayTurn), { usage: NO_USAGE })
        : undefined;
    } else {
      if (!this.#upstream) {
        throw new TypeError(
          `Cannot record cassette ${this.path} without upstream: pass cassette(path, { upstream: () => new OpenAIChatLLM({ ... }) }), or commit the recorded file and replay it`,
        );
      }
      this.#lines = [];
      // "record" starts the file afresh; "once" writes it at the first answer.
      if (mode === "record") this.#write("", false);
    }
  }

  /** How many model calls the cassette served. */
  get calls(): number {
    return this.#calls;
  }

  /** How many interactions the file holds (replay) or has recorded so far (record). */
  get size(): number {
    return this.mode === "replay" ? this.#lines.length : this.#written;
  }

  /**
   * One blocking call: replayed, or sent upstream and recorded.
   * @param request The request.
   * @param ctx The run.
   * @returns The recorded or the upstream response.
   */
  async chat(request: ChatRequest, ctx?: Ctx): Promise<ChatResponse> {
    const n = ++this.#calls;
    this.#servedCtx = ctx;
    this.#servedAt = failedRuns();
    if (this.mode === "replay") {
      this.#check(request, n);
      return await this.#replay!.chat(request, ctx);
    }
    return await this.#recordChat(request, ctx);
  }

  /**
   * One streamed call: replayed, or streamed from upstream and recorded.
   * @param request The request.
   * @param ctx The run.
   * @returns The events.
   */
  stream(request: ChatRequest, ctx?: Ctx): AsyncIterable<StreamEvent> {
    const n = ++this.#calls;
    this.#servedCtx = ctx;
    this.#servedAt = failedRuns();
    if (this.mode === "replay") return this.#replayStream(request, ctx, n);
    return this.#recordStream(request, ctx);
  }

  /**
   * A system + user prompt, as a chat call.
   * @param request The prompt.
   * @param ctx The run.
   * @returns The response.
   */
  complete(request: CompleteRequest, ctx?: Ctx): Promise<ChatResponse> {
    const messages: Message[] = [];
    if (request.system) messages.push({ role: "system", content: request.system });
    messages.push({ role: "user", content: request.user });
    return this.chat({ messages, model: request.model, signal: request.signal }, ctx);
  }

  /**
   * Throws what a finished replay should not hide: a mismatch the code under
   * test swallowed, or recorded interactions that were never asked for.
   *
   * @throws {HarnessError} `CassetteMismatch`, or `UnusedTurns`.
   *
   * @example
   * ```ts
   * import { cassette, UnusedTurns } from "@agentkit/testing/testing";
   * import { assertThrows } from "@std/assert";
   *
   * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
   * const line = { request: { model: "m", messages: [] }, turn: { content: "ok" } };
   * await Deno.writeTextFile(path, `${JSON.stringify(line)}\n${JSON.stringify(line)}\n`);
   * const llm = cassette(path, { mode: "replay" });
   * await llm.chat({ model: "m", messages: [] });
   * assertThrows(() => llm.verify(), UnusedTurns, "used only 1");
   * await Deno.remove(path);
   * ```
   */
  verify(): void {
    const swallowed = this.#harnessErrors[0];
    if (swallowed) throw swallowed;
    this.#replay?.verify();
  }

  /**
   * `await using` verifies a replay at scope exit; after a run that failed, it notes what `verify()` found on the run's
   * error instead of throwing over it.
   */
  [Symbol.asyncDispose](): Promise<void> {
    try {
      verifyAtDispose(() => this.verify(), this.#servedCtx, this.#servedAt);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #check(request: ChatRequest, n: number): void {
    const line = this.#lines[n - 1];
    if (!line) {
      throw this.#harness(
        new CassetteMismatch(
          this.path,
          n,
          "",
          undefined,
          recordedCall(request),
          `request ${n} has no recording: the cassette holds ${this.#lines.length} interaction(s)`,
        ),
      );
    }
    const actual = recordedCall(request);
    const d = firstDifference(line.request, actual, this.#mask);
    if (d !== undefined) {
      throw this.#harness(new CassetteMismatch(this.path, n, d.field, d.recorded, d.actual));
    }
  }

  async *#replayStream(
    request: ChatRequest,
    ctx: Ctx | undefined,
    n: number,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    this.#check(request, n);
    const line = this.#lines[n - 1];
    // A failure recorded before the first event is thrown before any event
    // again (a retry middleware re-invokes only those).
    if (line.fault?.phase === "pre_stream" && !line.turn.chunks?.length) {
      await this.#replay!.chat(request, ctx);
      return;
    }
    yield* this.#replay!.stream(request, ctx);
  }

  #harness(error: HarnessError): HarnessError {
    this.#harnessErrors.push(error);
    return error;
  }

  #upstreamPort(): LLMPort {
    return this.#port ??= checkPort(this.#upstream!());
  }

  async #recordChat(request: ChatRequest, ctx: Ctx | undefined): Promise<ChatResponse> {
    let response: ChatResponse;
    try {
      // Recording is the opt-in: allowed even for a caller with no ctx (aiSdkModel's).
      response = await underPolicy(
        ALLOWING,
        () => this.#upstreamPort().chat(request, allowing(ctx)),
      );
    } catch (error) {
      this.#recordFailure(request, error, "pre_stream", {});
      throw error;
    }
    this.#append(request, turnOf(request, response.content, [], response));
    return response;
  }

  async *#recordStream(
    request: ChatRequest,
    ctx: Ctx | undefined,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    const chunks: string[] = [];
    const toolCalls: ToolCall[] = [];
    let refusal = false;
    let reasoning: string | undefined;
    let started = false;
    let done = false;
    try {
      for await (const event of allowedSteps(this.#upstreamPort().stream(request, allowing(ctx)))) {
        started = true;
        if (event.type === "text_delta") {
          chunks.push(event.content);
          if (event.refusal) refusal = true;
        } else if (event.type === "reasoning_delta") reasoning = (reasoning ?? "") + event.content;
        else if (event.type === "tool_call") toolCalls.push(event.call);
        else if (event.type === "message_end") {
          done = true;
          const kept = this.#chunks(chunks);
          this.#append(
            request,
            turnOf(request, kept.join(""), kept, {
              toolCalls,
              finishReason: event.finishReason,
              usage: event.usage,
              refusal,
              reasoning,
            }),
          );
        } else if (event.type === "error") {
          done = true;
          this.#recordFailure(request, event.error, "mid_stream", {
            chunks,
            toolCalls,
            usage: event.usage,
            finishReason: event.finishReason,
          });
        }
        yield event;
      }
    } catch (error) {
      if (!done) {
        done = true;
        this.#recordFailure(request, error, started ? "mid_stream" : "pre_stream", {
          chunks,
          toolCalls,
        });
      }
      throw error;
    } finally {
      // The consumer stopped reading (cancelled, timed out): replay streams
      // the same chunks and then waits for the same cancellation.
      if (!done && started) {
        this.#append(request, { ...chunkFields(this.#chunks(chunks)), stall: true });
      }
    }
  }

  #recordFailure(
    request: ChatRequest,
    error: unknown,
    phase: "pre_stream" | "mid_stream",
    seen: {
      chunks?: readonly string[];
      toolCalls?: readonly ToolCall[];
      usage?: Usage;
      finishReason?: Turn["finishReason"];
    },
  ): void {
    // Harness errors, cancellations and bugs are not the provider's answer.
    const fault = faultOf(error, phase);
    if (!fault) return;
    const chunks = this.#chunks(seen.chunks ?? []);
    const turn: Record<string, unknown> = { ...chunkFields(chunks) };
    if (fault.phase === "mid_stream") turn.failAfterChunks = chunks.length;
    if (seen.toolCalls?.length) turn.toolCalls = seen.toolCalls;
    const e = error as { usage?: Usage; finishReason?: string; message: string };
    const usage = seen.usage ?? e.usage;
    const finishReason = seen.finishReason ?? e.finishReason;
    if (usage) turn.usage = usage;
    if (finishReason) turn.finishReason = finishReason;
    turn.error = e.message;
    this.#write(this.#line({ request: recordedCall(request), turn, fault }), true);
  }

  // A secret streamed in pieces is in no single chunk, so chunks are masked
  // together: where a masked stretch crosses a boundary, the chunks on both
  // sides are merged into one (a replay streams fewer, longer chunks there).
  #chunks(chunks: readonly string[]): readonly string[] {
    if (chunks.length < 2) return chunks;
    const r = this.#redactor;
    const joined = chunks.join("");
    const whole = r.text(joined);
    if (chunks.map((c) => r.text(c)).join("") === whole) return chunks;
    const merged: string[] = [];
    let group = "";
    let at = 0;
    // The end is always a boundary: the text after it is empty.
    for (let i = 0; i < chunks.length; i++) {
      group += chunks[i];
      at += chunks[i].length;
      if (r.text(joined.slice(0, at)) + r.text(joined.slice(at)) === whole) {
        merged.push(group);
        group = "";
      }
    }
    return merged.map((c) => r.text(c)).join("") === whole ? merged : [joined];
  }

  #append(request: ChatRequest, turn: Record<string, unknown>): void {
    this.#write(this.#line({ request: recordedCall(request), turn }), true);
  }

  #line(value: unknown): string {
    return JSON.stringify(this.#redactor.json(value)) + "\n";
  }

  #write(text: string, append: boolean): void {
    const { appendFileSync, existsSync, mkdirSync, writeFileSync } = fs();
    if (append && this.#written === 0 && !existsSync(this.path)) append = false;
    if (!append) {
      const { dirname } = builtin<typeof Path>("node:path", "A Cassette");
      mkdirSync(dirname(this.path), { recursive: true });
    }
    if (append) appendFileSync(this.path, text);
    else writeFileSync(this.path, text);
    if (text) this.#written++;
  }
}

/**
 * A cassette: replays `path` when it exists, records it through
 * `upstream()` when it does not (mode `"once"`), never records
 * (`"replay"`), or records afresh (`"record"`); `AGENTKIT_CASSETTE`
 * overrides the mode. Recording under a test context is allowed: choosing to
 * record is the opt-in, so the upstream port gets a context that permits real
 * requests. Nothing but the request's model, messages, tools and settings
 * and the answer is written: no header, and every string goes through the
 * package's redaction engine first (secret-named keys, credential shapes,
 * the provider key variables' values; see `CassetteOptions.redact`), so
 * the file is safe to commit; `redact` masks more.
 *
 * @param path The JSONL file (a non-empty path or a `file:` URL).
 * @param options `upstream` (a factory of the real port), `mode`, `redact`.
 * @returns The cassette, a model port.
 * @throws {TypeError} On a path that is not a non-empty string or a `file:`
 *   URL, a bad option, or recording without `upstream`; at the first
 *   recorded call, when `upstream()` returns something that is not a port.
 * @throws {InvalidScript} When the file has a malformed line (the message names it).
 * @throws {CassetteMismatch} In replay mode, when the file does not exist.
 *
 * @example Record once through a port, then replay without it
 * ```ts
 * import { cassette, FakeLLM } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/greeting.jsonl`;
 * const request = { model: "fake-model", messages: [{ role: "user" as const, content: "hi" }] };
 * {
 *   // In a real suite, upstream is a provider port: () => new OpenAIChatLLM()
 *   await using recorder = cassette(path, { upstream: () => new FakeLLM("Hello!") });
 *   assertEquals(recorder.mode, "record");
 *   assertEquals((await recorder.chat(request)).content, "Hello!");
 * }
 * {
 *   await using player = cassette(path, {
 *     upstream: () => { throw new Error("a replay never builds the port"); },
 *   });
 *   assertEquals(player.mode, "replay");
 *   assertEquals((await player.chat(request)).content, "Hello!");
 * }
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @example What is written is redacted
 * ```ts
 * import { cassette, FakeLLM } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/secret.jsonl`;
 * const content = 'call with {"apiKey": "k-42"} or sk-proj-0123456789abcdef, ticket T-4711';
 * {
 *   await using rec = cassette(path, { upstream: () => new FakeLLM("ok"), redact: [/T-\d+/] });
 *   await rec.chat({ model: "m", messages: [{ role: "user", content }] });
 * }
 * const line = JSON.parse(await Deno.readTextFile(path));
 * assertEquals(
 *   line.request.messages[0].content,
 *   'call with {"apiKey": "[REDACTED]"} or [REDACTED], ticket [REDACTED]',
 * );
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function cassette(path: string | URL, options: CassetteOptions = {}): Cassette {
  return new Cassette(path, options);
}

function turnOf(
  request: ChatRequest,
  content: string,
  chunks: readonly string[],
  response:
    & Pick<ChatResponse, "toolCalls" | "finishReason" | "usage" | "refusal" | "reasoning">
    & { model?: string },
): Record<string, unknown> {
  // A refusal is one piece: a turn's refusal is its whole answer.
  const turn: Record<string, unknown> = response.refusal
    ? { refusal: content }
    : chunks.length > 1
    ? { chunks }
    : content
    ? { content }
    : {};
  if (response.reasoning !== undefined) turn.reasoning = response.reasoning;
  if (response.toolCalls.length) turn.toolCalls = response.toolCalls;
  turn.usage = response.usage;
  const derived = response.refusal
    ? "content_filter"
    : response.toolCalls.length
    ? "tool_calls"
    : "stop";
  if (response.finishReason !== derived) turn.finishReason = response.finishReason;
  if (response.model !== undefined && response.model !== request.model) {
    turn.model = response.model;
  }
  return turn;
}

function chunkFields(chunks: readonly string[]): Record<string, unknown> {
  return chunks.length ? { chunks } : {};
}

// Recording is the opt-in, so the guard lets the upstream port send even when
// the caller gave no ctx or runs under a refusing one: each step of its
// stream (the request goes out on the first) runs under a policy that allows.
const ALLOWING = { allowModelRequests: true } as const;
function allowedSteps(events: AsyncIterable<StreamEvent>): AsyncIterable<StreamEvent> {
  const it = events[Symbol.asyncIterator]();
  const steps: AsyncIterator<StreamEvent> = {
    next: () => underPolicy(ALLOWING, () => it.next()),
    return: (value?: unknown) =>
      it.return ? it.return(value) : Promise.resolve({ done: true as const, value: undefined }),
  };
  return { [Symbol.asyncIterator]: () => steps };
}

// The context the upstream port gets while recording: the caller's, with
// real model requests allowed (recording is the opt-in). Methods stay bound
// to the original, whose private state they read.
function allowing(ctx: Ctx | undefined): Ctx | undefined {
  if (!ctx) return ctx;
  return new Proxy(ctx, {
    get(target, key) {
      if (key === "allowModelRequests") return true;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function keyValues(): string[] {
  const values: string[] = [];
  for (const name of KEY_VARIABLES) {
    const value = env(name);
    if (value && value.length >= MIN_KEY_VARIABLE) values.push(value);
  }
  return values;
}

function checkPath(path: unknown): string {
  if (path instanceof URL) {
    if (path.protocol !== "file:") {
      throw new TypeError(
        `cassette() takes a file path or a file: URL, got the ${path.protocol} URL ${path.href}: pass a path such as "tests/cassettes/greeting.jsonl"`,
      );
    }
    return builtin<typeof Url>("node:url", "A Cassette").fileURLToPath(path);
  }
  if (typeof path !== "string" || path === "") {
    throw new TypeError(
      `cassette() takes a file path (a non-empty string) or a file: URL as its first argument, got ${
        describe(path)
      }: pass a path such as "tests/cassettes/greeting.jsonl"`,
    );
  }
  return path;
}

// What upstream() made must be a port before the first call is sent to it.
function checkPort(port: unknown): LLMPort {
  const p = port as Partial<LLMPort> | null | undefined;
  if (
    p === null || (typeof p !== "object" && typeof p !== "function") ||
    typeof p.chat !== "function" || typeof p.stream !== "function"
  ) {
    throw new TypeError(
      `cassette()'s upstream returned ${
        describe(port)
      }, not a model port (an object with chat() and stream()): make upstream a function that returns the port, upstream: () => new OpenAIChatLLM()`,
    );
  }
  return p as LLMPort;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 60))}`;
  if (typeof value === "function") return "a function";
  if (typeof value !== "object") return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return "an array";
  if (value instanceof Promise) {
    return "a Promise (upstream must return the port itself, not await it)";
  }
  const name = (value as object).constructor?.name;
  return name && name !== "Object" ? `an instance of ${name}` : "an object";
}

function modeOf(given: CassetteMode | undefined): CassetteMode {
  const fromEnv = env("AGENTKIT_CASSETTE");
  if (fromEnv !== undefined && fromEnv !== "") {
    if (!MODES.includes(fromEnv as CassetteMode)) {
      throw new TypeError(
        `AGENTKIT_CASSETTE must be one of ${MODES.join(", ")}, got ${JSON.stringify(fromEnv)}`,
      );
    }
    return fromEnv as CassetteMode;
  }
  return given ?? "once";
}

function checkOptions(options: CassetteOptions): void {
  check("cassette()", options, RULES, {
    hints: {
      upstreamPort: "upstream is a function that makes the port: () => new OpenAIChatLLM()",
    },
  });
}

function fs(): typeof Fs {
  return builtin<typeof Fs>("node:fs", "A Cassette");
}
