/**
 * The real compactor: a summary of the middle of a transcript that grew past
 * a token threshold.
 *
 * @module
 */
import type { Compactor } from "../ports/compactor.ts";
import type { Ctx } from "../ports/context.ts";
import type { Message } from "../ports/message.ts";
import { RunContext } from "./context.ts";
import { estimateTokens } from "./estimate_tokens.ts";
import { NoInvoker } from "./errors.ts";
import { checkOptions, is } from "./_options.ts";

/**
 * Options for {@linkcode SummaryCompactor}.
 *
 * @example
 * ```ts
 * import { SummaryCompactor, type SummaryCompactorOptions } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const options: SummaryCompactorOptions = { maxTokens: 8_000, keepRecent: 10 };
 * assertEquals(new SummaryCompactor(options).keepRecent, 10);
 * ```
 */
export interface SummaryCompactorOptions {
  /** Compact when the transcript's estimated tokens exceed this. */
  readonly maxTokens: number;
  /**
   * How many of the last messages are kept word for word. The window is
   * widened backwards so it never starts with a tool result cut off from the
   * assistant turn that asked for it.
   * @default {6}
   */
  readonly keepRecent?: number;
  /**
   * Writes the summary of the dropped messages. Takes precedence over `model`.
   * @default {an extract of the dropped messages, or a model call when `model` is set}
   */
  readonly summarise?: (messages: readonly Message[], ctx: Ctx) => string | Promise<string>;
  /**
   * Summarise with a model call through the run's invoker (so it is metered,
   * traced and cancellable like every other call). Needs a `RunContext` with
   * an invoker.
   */
  readonly model?: string;
  /**
   * The token count of one message.
   * @default {estimateTokens}
   */
  readonly estimate?: (message: Message) => number;
}

/**
 * The first line of every summary message; earlier summaries are recognised
 * by it.
 *
 * @example
 * ```ts
 * import { SUMMARY_PREFIX } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(SUMMARY_PREFIX, "Summary of the earlier conversation:");
 * ```
 */
export const SUMMARY_PREFIX = "Summary of the earlier conversation:";

const SUMMARY_INSTRUCTIONS =
  "You condense a conversation for the assistant that will carry it on. Keep the task, facts, decisions, tool results that still matter and open questions; leave out small talk. Reply with the summary and nothing else.";
const LINE_CHARS = 160;

/**
 * A `Compactor` that leaves a transcript alone while its estimated size is at
 * most `maxTokens`, and past that returns: the leading system messages (the
 * system prompt and grounding), then one system message starting with
 * {@linkcode SUMMARY_PREFIX} that summarises everything in between, then the
 * last `keepRecent` messages word for word. An earlier summary is part of
 * what gets summarised again, so summaries do not pile up.
 *
 * The size is estimated with {@linkcode estimateTokens} (four characters a
 * token plus four per message) unless `estimate` says otherwise. The summary
 * comes from `summarise` if given; else from a model call through the run's
 * invoker if `model` is given; else it is an extract, which needs no invoker
 * at all: one line per dropped message, cut at 160 characters, and when the
 * lines do not fit the room `maxTokens` leaves beside the kept messages (at
 * least a quarter of `maxTokens`), the first line (the task) and the latest
 * lines that fit, with the rest counted as "(n more)". A `compact` span
 * records the sizes before and after.
 *
 * @example Past the threshold, the middle becomes a summary
 * ```ts
 * import { SUMMARY_PREFIX, SummaryCompactor } from "@agentkit/testing/runtime";
 * import type { Message } from "@agentkit/testing/ports";
 * import { makeTestCtx } from "@agentkit/testing/testing";
 * import { assert, assertEquals } from "@std/assert";
 *
 * const compactor = new SummaryCompactor({ maxTokens: 60, keepRecent: 2 });
 * const transcript: Message[] = [
 *   { role: "system", content: "You are an SRE." },
 *   { role: "user", content: "The deploy failed at 09:12 with a TLS handshake error." },
 *   { role: "assistant", content: "Which host served the expired certificate?" },
 *   { role: "user", content: "api.example.com" },
 *   { role: "assistant", content: "Then rotate the certificate on api.example.com." },
 * ];
 * const out = await compactor.compact(transcript, makeTestCtx()); // no llm needed
 * assertEquals(out.map((m) => m.role), ["system", "system", "user", "assistant"]);
 * assert(out[1].content.startsWith(SUMMARY_PREFIX));
 * assert(out[1].content.includes("TLS handshake"));
 * assertEquals(await compactor.compact(transcript.slice(0, 2), makeTestCtx()), transcript.slice(0, 2));
 * ```
 *
 * @example A summary written by the model
 * ```ts
 * import { SummaryCompactor } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = new FakeLLM("The user reported a TLS failure on api.example.com.");
 * const compactor = new SummaryCompactor({ maxTokens: 10, keepRecent: 1, model: "fake-model" });
 * const out = await compactor.compact([
 *   { role: "user", content: "The deploy failed with a TLS error." },
 *   { role: "assistant", content: "Which host?" },
 *   { role: "user", content: "api.example.com" },
 * ], makeTestCtx({ llm }));
 * assertEquals(out[0].content.split("\n")[1], "The user reported a TLS failure on api.example.com.");
 * assertEquals(llm.calls, 1);
 * ```
 */
export class SummaryCompactor implements Compactor {
  /** The threshold, in estimated tokens. */
  readonly maxTokens: number;
  /** Messages kept word for word at the end. */
  readonly keepRecent: number;
  readonly #summarise?: (messages: readonly Message[], ctx: Ctx) => string | Promise<string>;
  readonly #model?: string;
  readonly #estimate: (message: Message) => number;

  /**
   * Checks every option here; `maxTokens` is required.
   *
   * @param options The threshold, the window and how to summarise.
   * @throws {RangeError} For a threshold or window that is not a positive integer.
   * @throws {TypeError} For an unknown option.
   */
  constructor(options: SummaryCompactorOptions) {
    checkOptions("new SummaryCompactor()", options, {
      maxTokens: is.number({ min: 1, integer: true }),
      keepRecent: is.count,
      summarise: is.function,
      model: is.text,
      estimate: is.function,
    }, { required: ["maxTokens"], hints: { summarize: 'the option is spelled "summarise"' } });
    const { maxTokens, keepRecent = 6 } = options;
    this.maxTokens = maxTokens;
    this.keepRecent = keepRecent;
    this.#summarise = options.summarise;
    this.#model = options.model;
    this.#estimate = options.estimate ?? estimateTokens;
  }

  /**
   * The estimated size of a transcript.
   * @param messages The transcript.
   * @returns The sum of the per-message estimates.
   */
  tokens(messages: readonly Message[]): number {
    let n = 0;
    for (const m of messages) n += this.#estimate(m);
    return n;
  }

  /**
   * The transcript, compacted when it is past `maxTokens`.
   * @param messages The transcript.
   * @param ctx The run (its trace, and its invoker when `model` is set).
   * @returns A new array: the same messages, or system prompt + summary + recent turns.
   */
  async compact(messages: readonly Message[], ctx: Ctx): Promise<Message[]> {
    const before = this.tokens(messages);
    if (before <= this.maxTokens) return [...messages];
    let lead = 0;
    while (
      lead < messages.length && messages[lead].role === "system" &&
      !messages[lead].content.startsWith(SUMMARY_PREFIX)
    ) lead++;
    let start = Math.max(lead, messages.length - this.keepRecent);
    while (start > lead && messages[start]?.role === "tool") start--;
    const dropped = messages.slice(lead, start);
    if (dropped.length === 0) return [...messages];
    const span = ctx.trace.span("compact", "internal", {
      "agentkit.compact.tokens_before": before,
      "agentkit.compact.dropped": dropped.length,
    });
    try {
      ctx.checkCancelled();
      // Room for the extract: what maxTokens leaves after the kept messages
      // and the summary's own framing, at four characters a token, and never
      // less than a quarter of maxTokens.
      const kept = this.tokens(messages.slice(0, lead)) + this.tokens(messages.slice(start));
      const room = 4 * Math.max(Math.floor(this.maxTokens / 4), this.maxTokens - kept - 4) -
        SUMMARY_PREFIX.length - 1;
      const summary = (await this.#summary(dropped, ctx, room)).trim();
      const out: Message[] = [
        ...messages.slice(0, lead),
        { role: "system", content: `${SUMMARY_PREFIX}\n${summary}` },
        ...messages.slice(start),
      ];
      span.setAttribute("agentkit.compact.tokens_after", this.tokens(out));
      return out;
    } finally {
      span.end();
    }
  }

  #summary(
    dropped: readonly Message[],
    ctx: Ctx,
    room: number,
  ): string | Promise<string> {
    if (this.#summarise) return this.#summarise(dropped, ctx);
    if (this.#model !== undefined) return this.#modelSummary(dropped, ctx, this.#model);
    return extract(dropped, room);
  }

  async #modelSummary(dropped: readonly Message[], ctx: Ctx, model: string): Promise<string> {
    const invoker = ctx instanceof RunContext ? ctx.invoker : undefined;
    if (!invoker || !(ctx instanceof RunContext)) throw new NoInvoker("SummaryCompactor");
    const res = await invoker.chat({
      model,
      messages: [
        { role: "system", content: SUMMARY_INSTRUCTIONS },
        { role: "user", content: dropped.map((m) => line(m, Infinity)).join("\n") },
      ],
    }, ctx);
    return res.content;
  }
}

// One line per dropped message; past `room` characters, the first line (the
// task) and as many of the latest lines as fit, with the rest elided.
function extract(dropped: readonly Message[], room: number): string {
  const lines = dropped.map((m) => `- ${line(m, LINE_CHARS)}`);
  let size = -1;
  for (const l of lines) size += l.length + 1;
  if (size <= room) return lines.join("\n");
  let left = room - lines[0].length - 1 - `- (${lines.length} more)`.length - 1;
  let from = lines.length;
  while (from > 1 && lines[from - 1].length + 1 <= left) left -= lines[--from].length + 1;
  return [lines[0], `- (${from - 1} more)`, ...lines.slice(from)].join("\n");
}

function line(m: Message, max: number): string {
  let text = m.content;
  if (m.toolCalls?.length) {
    const calls = m.toolCalls.map((c) => `${c.name}(${c.rawArgs ?? JSON.stringify(c.args)})`);
    text = `${text}${text ? " " : ""}[called ${calls.join(", ")}]`;
  }
  text = text.replace(/\s+/g, " ").trim();
  if (text.length > max) text = `${text.slice(0, max - 1)}…`;
  return `${m.role}: ${text}`;
}
