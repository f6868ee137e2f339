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
import type { Message, ProviderData, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { Usage } from "../../ports/usage.ts";
import type { HarnessError } from "../../runtime/harness_error.ts";
import { failedRuns, verifyAtDispose } from "../_dispose_verify.ts";
import { env } from "../_env.ts";
import {
  builtin,
  checkOptions as check,
  is,
  readKeyVariables,
  Redactor,
  underPolicy,
} from "../../runtime/internal.ts";
import { FakeLLM } from "../llm/fake_llm.ts";
import type { Turn } from "../llm/turn.ts";
import {
  CASSETTE_VERSION,
  type CassetteLine,
  type Fault,
  faultOf,
  firstDifference,
  parseCassette,
  type Provenance,
  type RecordedCall,
  recordedCall,
  replayTurn,
  type Timing,
} from "./_cassette_line.ts";
import { checkCanary, makeCanary } from "./_canary.ts";
import { registerSecretSink } from "./_cassette_secrets.ts";
import { Scrubber } from "./_scrub.ts";
import { globalCopy, keyHash, KeyWriter } from "./_canonical_key.ts";
import { nearestOf } from "./_nearest.ts";
import { provenanceOf, providerName, staleReason } from "./_provenance.ts";
import {
  canonicalJson,
  type CassetteNormalizer,
  type CassetteRequest,
  normalizeRequest,
} from "./cassette_key.ts";
import { CassetteMismatch } from "./cassette_mismatch.ts";
import { UnusedTurns } from "../errors.ts";

/**
 * How a cassette treats its file: `"replay"` never records (a request with
 * no recording is a `CassetteMismatch`); `"once"` replays the file when it
 * exists and records it when it does not; `"newEpisodes"` replays what
 * matches and records (and appends) what does not; `"record"` records
 * afresh over whatever is there.
 */
export type CassetteMode = "once" | "replay" | "newEpisodes" | "record";

/**
 * How a request finds its recording: `"content"` by its content key (see
 * {@linkcode cassetteKey}; equal keys are served first in, first out), or
 * `"order"`: request n must equal recorded entry n field by field.
 */
export type CassetteMatch = "content" | "order";

/**
 * How a replay paces a recorded stream on `ctx.clock`: `"instant"` not at
 * all, `"recorded"` with the recorded time to the first chunk and gaps
 * between chunks, or a number scaling them (0.1 is a tenth).
 */
export type CassetteTiming = "recorded" | "instant" | number;

/** Options for {@linkcode cassette}. */
export interface CassetteOptions {
  /**
   * Makes the real port to record through (called once, and only when
   * recording: a replay never builds it, so it needs no key and no network).
   */
  readonly upstream?: () => LLMPort;
  /**
   * The mode; the `AGENTKIT_CASSETTE` environment variable (`once`,
   * `replay`, `newEpisodes` or `record`) overrides it, so CI can forbid
   * recording and a developer can re-record without editing the test.
   * @default {"once"}
   */
  readonly mode?: CassetteMode;
  /**
   * How requests find their recordings.
   * @default {"content"}
   */
  readonly match?: CassetteMatch;
  /**
   * More normalisation before a request is keyed, after the built-in rules
   * (tool-call ids, `providerData`, timestamps, UUIDs; see
   * {@linkcode normalizeRequest}): a pattern (every match becomes
   * `"<normalized>"`) or a function from request to request, or a list.
   * @default {[]}
   */
  readonly normalize?: CassetteNormalizer | readonly CassetteNormalizer[];
  /**
   * Pace replayed answers on `ctx.clock` as recorded (or scaled by a number).
   * @default {"instant"}
   */
  readonly timing?: CassetteTiming;
  /**
   * An entry recorded more than this many days ago (or with no recorded
   * date) is a mismatch that says so; `newEpisodes` records it afresh.
   */
  readonly staleAfterDays?: number;
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
   * A replayed request is scrubbed by the same rules before it is matched,
   * so what was masked in the file still matches.
   * @default {[]}
   */
  readonly redact?: ReadonlyArray<string | RegExp>;
}

/**
 * One recorded entry, as `unused()` and `verify({ prune: true })` report it.
 *
 * @example
 * ```ts
 * import type { CassetteEntry } from "@agentkit/testing/testing";
 * const show = (e: CassetteEntry): string => `line ${e.line}: ${e.request.model}`;
 * ```
 */
export interface CassetteEntry {
  /** The 1-based line of the file it is on. */
  readonly line: number;
  /** Its content key (as matching computes it now). */
  readonly key: string;
  /** The recorded request. */
  readonly request: CassetteRequest;
  /** Where and when it was recorded, when the file says. */
  readonly provenance?: Provenance;
}

/** Options for {@linkcode Cassette.verify}. */
export interface CassetteVerifyOptions {
  /**
   * Rewrite the file without the entries no request used, instead of
   * throwing `UnusedTurns` for them.
   * @default {false}
   */
  readonly prune?: boolean;
}

export type { Provenance, Timing } from "./_cassette_line.ts";

const MODES: readonly CassetteMode[] = ["once", "replay", "newEpisodes", "record"];
const NORMALIZER = is.either(is.instance(RegExp), is.function, "a RegExp or a function");
const RULES = {
  upstream: {
    accepts: "a function that makes the real port (() => new OpenAIChatLLM()), not the port",
    test: (v: unknown) => typeof v === "function" ? undefined : { kind: "type" as const },
  },
  mode: is.oneOf(MODES),
  match: is.oneOf(["content", "order"]),
  normalize: is.either(
    NORMALIZER,
    is.arrayOf(NORMALIZER),
    "a RegExp, a function (request) => request, or a list of them",
  ),
  timing: is.either(
    is.oneOf(["recorded", "instant"]),
    is.number({ min: 0 }),
    '"recorded", "instant" or a finite number 0 or more (a scale of the recorded gaps)',
  ),
  staleAfterDays: is.number({ min: 0 }),
  redact: is.arrayOf(is.either(is.string, is.instance(RegExp))),
};
const VERIFY_RULES = { prune: is.boolean };
// A line without usage bills nothing: nothing was recorded as billed.
const NO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

/**
 * A model port that replays recorded answers from a JSONL file, or records
 * them through a real port. The file has one JSON line per entry: `{
 * version, request, turn, key, provenance, timing, providerData }` (a line without
 * `version` is format 1, written before the format was versioned, and is
 * read as before): the request as sent (model, messages, tools, settings), the
 * answer in the `FakeLLM.script` turn format (streamed chunks, tool calls,
 * usage, finish reason, errors), so a cassette reads like a script and can
 * be edited as one, where, when and how fast it was recorded, and what the
 * answer asked the next request to send back (`providerData`: thought
 * signatures, reasoning items), which the replayed answer carries again.
 *
 * A request finds its entry by content (see {@linkcode cassetteKey}): the
 * same request in another order, or with other generated ids or
 * timestamps, still matches; equal requests take equal entries first in,
 * first out. A request with no entry is a `CassetteMismatch` naming the
 * nearest entry and its first difference. `{ match: "order" }` keeps the
 * strict order: request n must equal entry n.
 *
 * Obtain one with {@linkcode cassette}; `await using` it (or call
 * `verify()`), so a replay that left entries unused fails.
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
  /**
   * The mode in force (after `AGENTKIT_CASSETTE`): `"replay"`, `"record"`,
   * or `"newEpisodes"` (replays what matches, records the rest).
   */
  readonly mode: "replay" | "record" | "newEpisodes";
  /** The file's format version: 2 when this package wrote it, 1 for a file written before formats were versioned. */
  readonly version: number;
  readonly #entries: Entry[] = [];
  readonly #byKey = new Map<string, Entry[]>();
  #indexed = false;
  // Entries before it are all used (content matching's fast path starts there).
  #cursor = 0;
  readonly #match: CassetteMatch;
  readonly #rules: readonly CassetteNormalizer[];
  readonly #scale: number;
  readonly #staleAfterDays: number | undefined;
  readonly #upstream: (() => LLMPort) | undefined;
  #redactor: Redactor;
  #scrubber: Scrubber;
  #writer: KeyWriter | undefined;
  readonly #mask: (s: string, secret: boolean) => string;
  #port: LLMPort | undefined;
  #calls = 0;
  // The context of the last call, and failedRuns() then (see ../_dispose_verify.ts).
  #servedCtx: unknown;
  #servedAt = failedRuns();
  #written = 0;
  #fileExists: boolean;
  #endsInNewline = true;
  #harnessErrors: HarnessError[] = [];

  /**
   * Opens the cassette (use {@linkcode cassette}).
   *
   * @param path The JSONL file (a non-empty path or a `file:` URL).
   * @param options Upstream, mode, matching, timing, staleness and extra redactions.
   * @throws {TypeError} On a path that is not a non-empty string or a `file:` URL, or a bad option.
   */
  constructor(path: string | URL, options: CassetteOptions = {}) {
    this.path = checkPath(path);
    checkOptions(options);
    this.#upstream = options.upstream;
    this.#match = options.match ?? "content";
    const normalize = options.normalize;
    this.#rules = normalize === undefined ? [] : Array.isArray(normalize) ? normalize : [
      normalize as CassetteNormalizer,
    ];
    const timing = options.timing ?? "instant";
    this.#scale = timing === "instant" ? 0 : timing === "recorded" ? 1 : timing;
    this.#staleAfterDays = options.staleAfterDays;
    const canary = makeCanary();
    // The provider key variables, and the upstream port's key and headers
    // once it is built, are masked through the process's secret registry;
    // the canary and a recording proxy's client keys are this cassette's own.
    readKeyVariables();
    const literals = [canary];
    this.#redactor = new Redactor({ literals, extra: options.redact });
    this.#scrubber = new Scrubber(this.#redactor);
    this.#writer = this.#makeWriter();
    this.#mask = (s, secret) => this.#redactor.field(s, secret);
    registerSecretSink(this, (value) => {
      if (literals.includes(value)) return;
      literals.push(value);
      this.#redactor = new Redactor({ literals, extra: options.redact });
      this.#scrubber = new Scrubber(this.#redactor);
      this.#writer = this.#makeWriter();
    });
    const mode = modeOf(options.mode);
    const exists = fs().existsSync(this.path);
    this.#fileExists = exists;
    this.mode = mode === "record" || (mode === "once" && !exists)
      ? "record"
      : mode === "newEpisodes"
      ? "newEpisodes"
      : "replay";
    if (this.mode === "replay" && !exists) {
      throw new CassetteMismatch(
        this.path,
        1,
        "",
        undefined,
        undefined,
        "the file does not exist and the mode is replay, which never records; record it once",
        { missing: true },
      );
    }
    let version = CASSETTE_VERSION;
    if (this.mode !== "record" && exists) {
      const text = fs().readFileSync(this.path, "utf8");
      this.#endsInNewline = text === "" || text.endsWith("\n");
      const parsed = parseCassette(text, this.path);
      version = parsed.version;
      for (const line of parsed.lines) this.#add(line, false);
    }
    this.version = version;
    if (this.mode !== "replay") {
      if (!this.#upstream) {
        throw new TypeError(
          `Cannot record cassette ${this.path} without upstream: pass cassette(path, { upstream: () => new OpenAIChatLLM({ ... }) }), or commit the recorded file and replay it (AGENTKIT_CASSETTE=replay)`,
        );
      }
      checkCanary(this.path, canary, (value) => this.#serialize(value));
      // "record" starts the file afresh; "once" and "newEpisodes" write at the first answer.
      if (mode === "record") {
        this.#fileExists = false;
        this.#write("", false);
      }
    }
  }

  /** How many model calls the cassette served. */
  get calls(): number {
    return this.#calls;
  }

  /** How many entries the file holds (replay, newEpisodes) or has recorded so far (record). */
  get size(): number {
    return this.mode === "record" ? this.#written : this.#entries.length;
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
    if (this.mode === "record") return await this.#recordChat(request, ctx);
    const entry = this.#find(request, n);
    if (!entry) return await this.#recordChat(request, ctx);
    const timing = entry.line.timing;
    if (timing && this.#scale > 0) {
      const total = timing.firstChunkMs + (timing.gapsMs ?? []).reduce((a, b) => a + b, 0);
      await pace(total * this.#scale, ctx, request.signal);
    }
    return withProviderData(await fakeOf(entry).chat(request, ctx), entry.line.providerData);
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
    if (this.mode === "record") return this.#recordStream(request, ctx);
    return this.#replayStream(request, ctx, n);
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
   * The recorded entries no request has used so far, in file order: after a
   * run, the ones no test needs any more.
   *
   * @returns The unused entries (none for a cassette in mode `"record"`).
   *
   * @example
   * ```ts
   * import { cassette } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
   * const line = (q: string) =>
   *   JSON.stringify({ request: { model: "m", messages: [{ role: "user", content: q }] }, turn: "ok" });
   * await Deno.writeTextFile(path, `${line("a")}\n${line("b")}\n`);
   * const llm = cassette(path, { mode: "replay" });
   * await llm.chat({ model: "m", messages: [{ role: "user", content: "b" }] });
   * assertEquals(llm.unused().map((e) => e.line), [1]);
   * await Deno.remove(path);
   * ```
   */
  unused(): readonly CassetteEntry[] {
    return this.#entries.filter((e) => !e.used).map((e) => this.#info(e));
  }

  /**
   * Throws what a finished replay should not hide: a mismatch the code under
   * test swallowed, or recorded entries that were never asked for. With
   * `{ prune: true }` it rewrites the file without those entries instead,
   * and returns them.
   *
   * @param options `prune`.
   * @returns The entries pruned (none without `prune`).
   * @throws {HarnessError} `CassetteMismatch`, or `UnusedTurns`.
   * @throws {TypeError} On a bad option.
   *
   * @example
   * ```ts
   * import { cassette, UnusedTurns } from "@agentkit/testing/testing";
   * import { assertEquals, assertThrows } from "@std/assert";
   *
   * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
   * const line = { request: { model: "m", messages: [] }, turn: { content: "ok" } };
   * await Deno.writeTextFile(path, `${JSON.stringify(line)}\n${JSON.stringify(line)}\n`);
   * const llm = cassette(path, { mode: "replay" });
   * await llm.chat({ model: "m", messages: [] });
   * assertThrows(() => llm.verify(), UnusedTurns, "used only 1");
   * assertEquals(llm.verify({ prune: true }).length, 1);
   * assertEquals(cassette(path, { mode: "replay" }).size, 1);
   * await Deno.remove(path);
   * ```
   */
  verify(options: CassetteVerifyOptions = {}): readonly CassetteEntry[] {
    check("Cassette.verify()", options, VERIFY_RULES);
    const swallowed = this.#harnessErrors[0];
    if (swallowed) throw swallowed;
    if (this.mode === "record") return [];
    const unused = this.#entries.filter((e) => !e.used);
    if (unused.length === 0) return [];
    if (!options.prune) {
      throw new UnusedTurns(
        `Cassette ${this.path}`,
        this.#entries.length,
        this.#entries.length - unused.length,
        "turn",
        unused.map((e) => `line ${e.line.lineNumber}`),
      );
    }
    const kept = this.#entries.filter((e) => e.used);
    this.#fileExists = false;
    this.#written = 0;
    this.#write(kept.map((e) => `${e.line.source}\n`).join(""), false);
    const pruned = unused.map((e) => this.#info(e));
    this.#entries.length = 0;
    this.#byKey.clear();
    this.#indexed = false;
    this.#cursor = 0;
    // Re-read, so line numbers are the file's again.
    for (const line of parseCassette(fs().readFileSync(this.path, "utf8"), this.path).lines) {
      this.#add(line, true);
    }
    return pruned;
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

  #add(line: CassetteLine, used: boolean): Entry {
    const entry: Entry = { line, used };
    this.#entries.push(entry);
    if (this.#indexed) this.#indexEntry(entry);
    return entry;
  }

  // Keys are computed when content matching first needs them: a cassette
  // matched in order never pays for them.
  #keyed(entry: Entry): Keyed {
    if (entry.keyed) return entry.keyed;
    // Scrubbed as a live request is, so a hand-edited line holding a secret
    // still matches the request that sends it.
    const request = entry.line.request;
    let normalized: RecordedCall | undefined;
    const keyed: Keyed = {
      key: this.#keyOf(request),
      get normalized(): RecordedCall {
        return normalized ??= keyed.normalizeNow();
      },
      normalizeNow: () =>
        normalizeRequest(this.#scrubber.json(request) as RecordedCall, this.#rules),
    };
    return entry.keyed = keyed;
  }

  // The content key of a request (live or recorded), scrubbed by the rules
  // the recording went through: in one pass when the rules allow, else
  // through the scrubbed, normalised copy.
  #keyOf(request: ChatRequest | RecordedCall): string {
    const text = this.#writer?.text(request);
    if (text !== undefined) return keyHash(text);
    const scrubbed = this.#scrubber.json(recordedCall(request as ChatRequest)) as RecordedCall;
    return keyOf(normalizeRequest(scrubbed, this.#rules));
  }

  #makeWriter(): KeyWriter | undefined {
    if (!this.#rules.every((r) => r instanceof RegExp)) return undefined;
    const scrubber = this.#scrubber;
    return new KeyWriter(
      {
        scrub: (s, secret) => scrubber.field(s, secret),
        secretName: (k) => scrubber.secretName(k),
      },
      (this.#rules as RegExp[]).map(globalCopy),
    );
  }

  #index(): Map<string, Entry[]> {
    if (!this.#indexed) {
      this.#indexed = true;
      for (const entry of this.#entries) this.#indexEntry(entry);
    }
    return this.#byKey;
  }

  #indexEntry(entry: Entry): void {
    const key = this.#keyed(entry).key;
    const same = this.#byKey.get(key);
    if (same) same.push(entry);
    else this.#byKey.set(key, [entry]);
  }

  #info(e: Entry): CassetteEntry {
    const info: { -readonly [K in keyof CassetteEntry]: CassetteEntry[K] } = {
      line: e.line.lineNumber,
      key: this.#keyed(e).key,
      request: e.line.request,
    };
    if (e.line.provenance) info.provenance = e.line.provenance;
    return info;
  }

  // The entry request n replays, or undefined when newEpisodes is to record it.
  #find(request: ChatRequest, n: number): Entry | undefined {
    const entry = this.#match === "order" ? this.#inOrder(request, n) : this.#byContent(request, n);
    if (!entry) return undefined;
    const stale = this.#staleAfterDays === undefined
      ? undefined
      : staleReason(entry.line.provenance, this.#staleAfterDays, Date.now());
    if (stale !== undefined) {
      if (this.mode === "newEpisodes") return undefined;
      throw this.#harness(
        new CassetteMismatch(
          this.path,
          n,
          "",
          undefined,
          undefined,
          `request ${n} matches the entry on line ${entry.line.lineNumber}, which is stale: ${stale}; refresh it with AGENTKIT_CASSETTE=newEpisodes and staleAfterDays set, or re-record`,
          { nearest: entry.line.lineNumber, stale: true },
        ),
      );
    }
    entry.used = true;
    return entry;
  }

  #inOrder(request: ChatRequest, n: number): Entry | undefined {
    const entry = this.#entries[n - 1];
    const actual = recordedCall(request);
    if (!entry) {
      if (this.mode === "newEpisodes") return undefined;
      throw this.#harness(
        new CassetteMismatch(
          this.path,
          n,
          "",
          undefined,
          actual,
          `request ${n} has no recording: the cassette holds ${this.#entries.length} interaction(s)`,
        ),
      );
    }
    const d = firstDifference(entry.line.request, actual, this.#mask);
    if (d !== undefined) {
      if (this.mode === "newEpisodes") return undefined;
      throw this.#harness(new CassetteMismatch(this.path, n, d.field, d.recorded, d.actual));
    }
    return entry;
  }

  #byContent(request: ChatRequest, n: number): Entry | undefined {
    // Scrubbed by the rules the recording went through, then keyed: what was
    // masked in the file matches its unmasked original.
    // The common case first: the request is the next unused entry, field
    // for field (as order matching compares). That entry is then also the
    // first unused one with the request's key, which is what matching by
    // key would serve, at the cost of a comparison instead of a key.
    while (this.#cursor < this.#entries.length && this.#entries[this.#cursor].used) this.#cursor++;
    const next = this.#entries[this.#cursor];
    if (
      next && firstDifference(next.line.request, recordedCall(request), this.#mask) === undefined
    ) {
      return next;
    }
    const key = this.#keyOf(request);
    const same = this.#index().get(key);
    if (same) {
      for (const entry of same) if (!entry.used) return entry;
    }
    if (this.mode === "newEpisodes") return undefined;
    // A miss: now the scrubbed, normalised request, for the nearest-entry search.
    const scrubbed = this.#scrubber.json(recordedCall(request)) as RecordedCall;
    const normalized = normalizeRequest(scrubbed, this.#rules);
    const unused = this.#entries.filter((e) => !e.used);
    const pool = unused.length ? unused : this.#entries;
    const i = nearestOf(pool.map((e) => this.#keyed(e).normalized), normalized);
    if (i < 0) {
      throw this.#harness(
        new CassetteMismatch(
          this.path,
          n,
          "",
          undefined,
          scrubbed,
          `request ${n} has no recording: the cassette holds no interaction`,
        ),
      );
    }
    const nearest = pool[i];
    const d = firstDifference(this.#keyed(nearest).normalized, normalized, (s) => s) ??
      { field: "", recorded: undefined, actual: undefined };
    const where = `the nearest ${
      unused.length ? "unused " : ""
    }entry, on line ${nearest.line.lineNumber}, differs first at ${
      d.field || "the request"
    }: recorded ${show(d.recorded)}, got ${show(d.actual)}`;
    const hint = "to record just the new requests, run once with AGENTKIT_CASSETTE=newEpisodes";
    if (unused.length === 0) {
      throw this.#harness(
        new CassetteMismatch(
          this.path,
          n,
          "",
          undefined,
          scrubbed,
          `request ${n} has no recording: the cassette holds ${this.#entries.length} interaction(s), all used (${
            same?.length ? `${same.length} of them with this content` : where
          }); ${hint}`,
          { nearest: nearest.line.lineNumber },
        ),
      );
    }
    throw this.#harness(
      new CassetteMismatch(
        this.path,
        n,
        d.field,
        d.recorded,
        d.actual,
        `request ${n} differs from the recording at ${d.field || "the request"}: recorded ${
          show(d.recorded)
        }, got ${show(d.actual)} (matched by content: no unused entry has its key ${key}; ${
          where.replace(/, differs first at .*/, "")
        } is the nearest); ${hint}`,
        { nearest: nearest.line.lineNumber },
      ),
    );
  }

  async *#replayStream(
    request: ChatRequest,
    ctx: Ctx | undefined,
    n: number,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    const entry = this.#find(request, n);
    if (!entry) {
      yield* this.#recordStream(request, ctx);
      return;
    }
    const line = entry.line;
    const fake = fakeOf(entry);
    // A failure recorded before the first event is thrown before any event
    // again (a retry middleware re-invokes only those).
    if (line.fault?.phase === "pre_stream" && !line.turn.chunks?.length) {
      await fake.chat(request, ctx);
      return;
    }
    const events = line.providerData
      ? withEndProviderData(fake.stream(request, ctx), line.providerData)
      : fake.stream(request, ctx);
    const timing = line.timing;
    if (!timing || this.#scale === 0) {
      yield* events;
      return;
    }
    let chunk = 0;
    for await (const event of events) {
      if (isChunk(event)) {
        const ms = chunk === 0 ? timing.firstChunkMs : timing.gapsMs?.[chunk - 1] ?? 0;
        chunk++;
        await pace(ms * this.#scale, ctx, request.signal);
      }
      yield event;
    }
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
    const started = performance.now();
    try {
      // Recording is the opt-in: allowed even for a caller with no ctx
      // (aiSdkModel's), through the ambient policy; a caller's ctx is
      // allowed in itself, and the guard reads it before any ambient one.
      response = ctx
        ? await this.#upstreamPort().chat(request, allowing(ctx))
        : await underPolicy(ALLOWING, () => this.#upstreamPort().chat(request, undefined));
    } catch (error) {
      this.#recordFailure(request, error, "pre_stream", {});
      throw error;
    }
    this.#append(
      request,
      turnOf(request, response.content, [], response),
      {
        firstChunkMs: elapsed(started),
      },
      response.model,
      response.providerData,
    );
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
    const sent = performance.now();
    const times: number[] = [];
    const timing = (): Timing => {
      if (times.length === 0) return { firstChunkMs: elapsed(sent) };
      const gapsMs = times.slice(1).map((t, i) => Math.round(t - times[i]));
      return gapsMs.length
        ? { firstChunkMs: Math.round(times[0] - sent), gapsMs }
        : { firstChunkMs: Math.round(times[0] - sent) };
    };
    try {
      const upstream = ctx
        ? this.#upstreamPort().stream(request, allowing(ctx))
        : allowedSteps(this.#upstreamPort().stream(request, undefined));
      for await (const event of upstream) {
        started = true;
        if (isChunk(event)) times.push(performance.now());
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
            timing(),
            undefined,
            event.providerData,
          );
        } else if (event.type === "error") {
          done = true;
          this.#recordFailure(request, event.error, "mid_stream", {
            chunks,
            toolCalls,
            usage: event.usage,
            finishReason: event.finishReason,
          }, timing());
        }
        yield event;
      }
    } catch (error) {
      if (!done) {
        done = true;
        this.#recordFailure(request, error, started ? "mid_stream" : "pre_stream", {
          chunks,
          toolCalls,
        }, timing());
      }
      throw error;
    } finally {
      // The consumer stopped reading (cancelled, timed out): replay streams
      // the same chunks and then waits for the same cancellation.
      if (!done && started) {
        this.#append(
          request,
          { ...chunkFields(this.#chunks(chunks)), stall: true },
          timing(),
          undefined,
        );
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
    timing?: Timing,
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
    this.#entry(request, turn, timing, undefined, fault);
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

  #append(
    request: ChatRequest,
    turn: Record<string, unknown>,
    timing: Timing | undefined,
    answeredBy: string | undefined,
    providerData?: ProviderData,
  ): void {
    this.#entry(request, turn, timing, answeredBy, undefined, providerData);
  }

  #entry(
    request: ChatRequest,
    turn: Record<string, unknown>,
    timing: Timing | undefined,
    answeredBy: string | undefined,
    fault: Fault | undefined,
    providerData?: ProviderData,
  ): void {
    // The request as it is written, so its key is the one a replay computes.
    const call = this.#scrubber.json(recordedCall(request)) as RecordedCall;
    const key = this.#keyOf(call);
    const provenance = provenanceOf(
      providerName(this.#port, request),
      call,
      answeredBy ?? (turn.model as string | undefined),
      Date.now(),
    );
    const text = this.#serialize({ request: call, turn, fault }, {
      key,
      provenance,
      ...(timing ? { timing } : {}),
      // Opaque to us, and scrubbed like the answer: what reaches the file is masked.
      ...(providerData ? { providerData: this.#scrubber.json(providerData) } : {}),
    }, true);
    this.#write(text, true);
    this.#written++;
    if (this.mode === "newEpisodes") {
      const line = parseCassette(text, this.path).lines[0];
      this.#add({ ...line, lineNumber: this.#nextLine() }, true);
    }
  }

  #nextLine(): number {
    const text = fs().readFileSync(this.path, "utf8");
    return text.split("\n").length - 1;
  }

  // The one path every line is written through (and the canary check runs
  // through): the request, turn and fault scrubbed; `ours` (key, provenance,
  // timing: not the provider's, and a "key" field is no secret) as it is.
  // (`requestScrubbed`: the request is this scrubber's output already.)
  #serialize(value: unknown, ours: Record<string, unknown> = {}, requestScrubbed = false): string {
    const v = value as { request?: unknown; turn?: unknown; fault?: unknown };
    const line: Record<string, unknown> = { version: CASSETTE_VERSION };
    if (v.request !== undefined) {
      line.request = requestScrubbed ? v.request : this.#scrubber.json(v.request);
    }
    if (v.turn !== undefined) line.turn = this.#scrubber.json(v.turn);
    if (v.fault !== undefined) line.fault = this.#scrubber.json(v.fault);
    for (const k in ours) line[k] = ours[k];
    return JSON.stringify(line) + "\n";
  }

  #write(text: string, append: boolean): void {
    const { appendFileSync, mkdirSync, writeFileSync } = fs();
    if (append && !this.#fileExists) append = false;
    if (!append) {
      const { dirname } = builtin<typeof Path>("node:path", "A Cassette");
      mkdirSync(dirname(this.path), { recursive: true });
    }
    // A hand-written file may end without a newline: the next line starts on its own.
    if (append && !this.#endsInNewline) text = `\n${text}`;
    // Deno's own append is one operation; node:fs's appendFileSync under Deno is four.
    const deno = (globalThis as { Deno?: { writeTextFileSync?: DenoWrite } }).Deno;
    if (append && typeof deno?.writeTextFileSync === "function") {
      deno.writeTextFileSync(this.path, text, { append: true });
    } else if (append) appendFileSync(this.path, text);
    else writeFileSync(this.path, text);
    this.#fileExists = true;
    this.#endsInNewline = text === "" || text.endsWith("\n");
  }
}

type DenoWrite = (path: string, data: string, options: { append: boolean }) => void;

// An entry of a replaying cassette: its line, whether a request used it, its
// replaying FakeLLM, and (once content matching needs them) its key and its
// normalised request, for the nearest-entry search.
interface Entry {
  readonly line: CassetteLine;
  used: boolean;
  fake?: FakeLLM;
  keyed?: Keyed;
}

interface Keyed {
  readonly key: string;
  // Built only on a miss, for the nearest-entry search.
  readonly normalized: RecordedCall;
  readonly normalizeNow: () => RecordedCall;
}

const fakeOf = (entry: Entry): FakeLLM =>
  entry.fake ??= FakeLLM.script([replayTurn(entry.line)], { usage: NO_USAGE });

function keyOf(normalized: RecordedCall): string {
  return keyHash(canonicalJson(normalized));
}

// The recorded providerData, given back with the answer it came with (a
// FakeLLM turn has no place for it: it is the line's).
function withProviderData(
  response: ChatResponse,
  providerData: ProviderData | undefined,
): ChatResponse {
  return providerData ? { ...response, providerData } : response;
}

async function* withEndProviderData(
  events: AsyncIterable<StreamEvent>,
  providerData: ProviderData,
): AsyncGenerator<StreamEvent, void, undefined> {
  for await (const event of events) {
    yield event.type === "message_end" ? { ...event, providerData } : event;
  }
}

const isChunk = (e: StreamEvent): boolean =>
  e.type === "text_delta" || e.type === "tool_call" || e.type === "reasoning_delta";

const elapsed = (since: number): number => Math.round(performance.now() - since);

// A recorded wait, on the run's clock (a FakeClock in tests: no wall time).
async function pace(ms: number, ctx: Ctx | undefined, signal: AbortSignal | undefined) {
  if (ms <= 0 || !ctx) return;
  await ctx.clock.sleep(ms, signal ?? ctx.signal);
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
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
function allowing(ctx: Ctx): Ctx {
  // Each method is bound once per context, not at every read.
  const bound = new Map<PropertyKey, { fn: unknown; bound: unknown }>();
  return new Proxy(ctx, {
    get(target, key) {
      if (key === "allowModelRequests") return true;
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      const known = bound.get(key);
      if (known !== undefined && known.fn === value) return known.bound;
      const b = value.bind(target);
      bound.set(key, { fn: value, bound: b });
      return b;
    },
  });
}

function checkPath(path: unknown): string {
  if (path instanceof URL) {
    if (path.protocol !== "file:") {
      throw new TypeError(
        `cassette() takes a file path or a file: URL, got the ${path.protocol} URL ${path.href}: pass a path such as "tests/cassettes/greeting.jsonl"`,
      );
    }
    return noNul(builtin<typeof Url>("node:url", "A Cassette").fileURLToPath(path));
  }
  if (typeof path !== "string" || path === "") {
    throw new TypeError(
      `cassette() takes a file path (a non-empty string) or a file: URL as its first argument, got ${
        describe(path)
      }: pass a path such as "tests/cassettes/greeting.jsonl"`,
    );
  }
  return noNul(path);
}

// No file system takes a NUL byte in a name: said here, not as "does not
// exist" in replay or as the file system's own error in record.
function noNul(path: string): string {
  const at = path.indexOf("\0");
  if (at < 0) return path;
  throw new TypeError(
    `cassette() got a file path with a NUL byte at position ${at} (${
      JSON.stringify(path)
    }), which no file system allows in a name: remove it (a path built from untrusted or binary data is the usual cause)`,
  );
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

// Looked up once: process.getBuiltinModule is not free, and a recording writes a line a request.
let fsModule: typeof Fs | undefined;
function fs(): typeof Fs {
  return fsModule ??= builtin<typeof Fs>("node:fs", "A Cassette");
}
