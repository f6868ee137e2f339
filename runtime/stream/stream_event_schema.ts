/**
 * Validation of stream events at the runtime boundary: the zod schema that
 * documents the contract, a cheap structural check for the hot path, and the
 * error a cognition (or hook) gets when it yields something else.
 *
 * @module
 */
import type { z } from "zod";
import { zod } from "../_lazy/zod.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { HarnessError } from "../harness_error.ts";
import { preview } from "../_preview.ts";

const FINISH_REASONS = ["stop", "tool_calls", "length", "content_filter", "error"] as const;
const FINISH: ReadonlySet<unknown> = new Set<unknown>(FINISH_REASONS);

// The zod schema of StreamEvent: the written contract, and the source of the
// detail in InvalidStreamEvent messages. The runtime checks each event with
// isStreamEvent instead, which agrees with it (a test pins the agreement) at a
// fraction of the cost, so the schema is built on first use (an invalid
// event, a test), not at import, and zod itself loads then (../_lazy/).
// Extra keys are allowed:
// the runtime passes the event object on unchanged.
let built: z.ZodType<StreamEvent> | undefined;
function streamEventSchema(): z.ZodType<StreamEvent> {
  if (built) return built;
  const z = zod();
  const count = z.number().int().nonnegative();
  const usage = z.object({
    inputTokens: count,
    outputTokens: count,
    cachedInputTokens: count.optional(),
    cacheWriteInputTokens: count.optional(),
    reasoningTokens: count.optional(),
    costUsd: z.number().nonnegative().optional(),
  });
  const finishReason = z.enum(FINISH_REASONS);
  const messageId = z.string();

  const schema: z.ZodType<StreamEvent> = z.discriminatedUnion("type", [
    z.object({ type: z.literal("message_start"), messageId }),
    z.object({
      type: z.literal("text_delta"),
      messageId,
      content: z.string(),
      refusal: z.boolean().optional(),
    }),
    z.object({ type: z.literal("reasoning_delta"), messageId, content: z.string() }),
    z.object({
      type: z.literal("tool_call"),
      messageId,
      call: z.object({
        id: z.string(),
        name: z.string(),
        args: z.record(z.string(), z.unknown()),
        rawArgs: z.string().optional(),
      }),
    }),
    z.object({ type: z.literal("message_end"), messageId, finishReason, usage }),
    z.object({
      type: z.literal("error"),
      messageId,
      error: z.instanceof(Error),
      finishReason: finishReason.optional(),
      usage: usage.optional(),
    }),
  ]);
  return built = schema;
}

function isCount(v: unknown): boolean {
  return Number.isInteger(v) && (v as number) >= 0;
}

function isUsage(u: unknown): boolean {
  if (typeof u !== "object" || u === null) return false;
  const o = u as Record<string, unknown>;
  return isCount(o.inputTokens) && isCount(o.outputTokens) &&
    (o.cachedInputTokens === undefined || isCount(o.cachedInputTokens)) &&
    hasValidExtras(o);
}

// The fields few usages carry, out of line for the same reason as
// isRareEvent: isUsage is inlined into every message_end's check.
function hasValidExtras(o: Record<string, unknown>): boolean {
  return (o.cacheWriteInputTokens === undefined || isCount(o.cacheWriteInputTokens)) &&
    (o.reasoningTokens === undefined || isCount(o.reasoningTokens)) &&
    (o.costUsd === undefined ||
      (typeof o.costUsd === "number" && Number.isFinite(o.costUsd) && o.costUsd >= 0));
}

function isCall(c: unknown): boolean {
  if (typeof c !== "object" || c === null) return false;
  const o = c as Record<string, unknown>;
  return typeof o.id === "string" && typeof o.name === "string" &&
    typeof o.args === "object" && o.args !== null && !Array.isArray(o.args) &&
    (o.rawArgs === undefined || typeof o.rawArgs === "string");
}

/**
 * Whether a value is a well-formed {@linkcode StreamEvent}: the same answer
 * as {@linkcode streamEventIssues} being empty, from a hand-written
 * structural check (about 10 ns an event against 50 to 120 ns for the parse,
 * on a path where one pass-through layer costs about 125 ns).
 *
 * @param value Anything a cognition yielded.
 * @returns True for a valid event.
 *
 * @example
 * ```ts
 * import { isStreamEvent } from "@agentkit/testing/runtime";
 * import { assert } from "@std/assert";
 *
 * assert(isStreamEvent({ type: "message_start", messageId: "m1" }));
 * assert(!isStreamEvent({ type: "text_delta", messageId: "m1", text: "Hi" }));
 * ```
 */
export function isStreamEvent(value: unknown): value is StreamEvent {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Record<string, unknown>;
  if (typeof e.messageId !== "string") return false;
  // The four kinds every turn has are checked here, the rest out of line:
  // this check runs on every event a run yields, and kept small V8 inlines
  // it into the run's event loop (grown by one case, it was not: issue 39).
  switch (e.type) {
    case "text_delta":
      return typeof e.content === "string" &&
        (e.refusal === undefined || typeof e.refusal === "boolean");
    case "message_start":
      return true;
    case "message_end":
      return FINISH.has(e.finishReason) && isUsage(e.usage);
    case "tool_call":
      return isCall(e.call);
    default:
      return isRareEvent(e);
  }
}

// The kinds a turn may lack: thinking, and an error.
function isRareEvent(e: Record<string, unknown>): boolean {
  switch (e.type) {
    case "reasoning_delta":
      return typeof e.content === "string";
    case "error":
      return e.error instanceof Error &&
        (e.finishReason === undefined || FINISH.has(e.finishReason)) &&
        (e.usage === undefined || isUsage(e.usage));
    default:
      return false;
  }
}

/**
 * Something other than a {@linkcode StreamEvent} reached the runtime boundary
 * of `agent.stream`: a cognition yielded a bare string, an event with a
 * missing or mistyped field, or a hook returned such a value. The message
 * names the source (`cognition "echo"`, `hook "redact"`) and shows the bad
 * value. A harness error: it is a broken implementation of the seam, and it
 * escapes every catch site.
 *
 * @example
 * ```ts
 * import { Agent, InvalidStreamEvent, type Cognition } from "@agentkit/testing/runtime";
 * import { makeTestCtx } from "@agentkit/testing/testing";
 * import { assertRejects } from "@std/assert";
 *
 * const bad: Cognition = {
 *   name: "bare-strings",
 *   // deno-lint-ignore no-explicit-any
 *   async *stream(): AsyncGenerator<any> { yield "Hel"; },
 * };
 * const agent = new Agent("a", { model: "m", cognition: bad });
 * await assertRejects(
 *   () => Array.fromAsync(agent.stream("hi", makeTestCtx())),
 *   InvalidStreamEvent,
 *   'cognition "bare-strings" yielded "Hel"',
 * );
 * ```
 */
export class InvalidStreamEvent extends HarnessError {
  /** Who produced the value (`cognition "echo"`). */
  readonly source: string;
  /** The value itself. */
  readonly value: unknown;

  /**
   * Creates the instance; the message carries zod's account of what is wrong.
   *
   * @param source Who produced the value (`cognition "echo"`, `hook "redact"`).
   * @param value The bad value.
   */
  constructor(source: string, value: unknown) {
    super(
      `${source} yielded ${preview(value)}, which is not a StreamEvent (${
        explain(value)
      }); yield objects such as { type: "text_delta", messageId, content }, and own the message boundaries with message_start and message_end`,
    );
    this.source = source;
    this.value = value;
  }
}

function explain(value: unknown): string {
  const issues = streamEventIssues(value);
  return issues.length ? issues.slice(0, 3).join("; ") : "it failed the structural check";
}

/**
 * What is wrong with a value as a {@linkcode StreamEvent}, from the zod
 * schema of the union: one line per problem, empty for a valid event. The
 * slow, thorough twin of {@linkcode isStreamEvent}, for messages and tests.
 *
 * @param value Anything.
 * @returns The problems, each with its path.
 *
 * @example
 * ```ts
 * import { streamEventIssues } from "@agentkit/testing/runtime";
 * import { assertEquals, assertStringIncludes } from "@std/assert";
 *
 * assertEquals(streamEventIssues({ type: "message_start", messageId: "m1" }), []);
 * assertStringIncludes(streamEventIssues({ type: "text_delta", messageId: "m1" })[0], "content");
 * ```
 */
export function streamEventIssues(value: unknown): string[] {
  const r = streamEventSchema().safeParse(value);
  if (r.success) return [];
  return r.error.issues.map((i) => {
    const at = i.path.length ? `${i.path.map(String).join(".")}: ` : "";
    return `${at}${i.message}`;
  });
}

/**
 * Returns `value` if it is a valid stream event, else throws.
 *
 * @param value Anything yielded.
 * @param source Who yielded it, for the message.
 * @returns The same value, typed.
 * @throws {InvalidStreamEvent} When the value is not a `StreamEvent`.
 *
 * @example
 * ```ts
 * import { InvalidStreamEvent, checkStreamEvent } from "@agentkit/testing/runtime";
 * import { assertThrows } from "@std/assert";
 *
 * assertThrows(() => checkStreamEvent("Hello", 'cognition "echo"'), InvalidStreamEvent, '"Hello"');
 * ```
 */
export function checkStreamEvent(value: unknown, source: string): StreamEvent {
  if (isStreamEvent(value)) return value;
  throw new InvalidStreamEvent(source, value);
}
