/**
 * Settled-run helpers: wait for a `Run` without ever hanging the suite.
 *
 * @module
 */
import type { StreamEvent } from "../ports/stream_event.ts";
import type { AgentResult } from "../runtime/cognition/cognition.ts";
import type { Run } from "../runtime/run.ts";
import type { StreamChunk } from "../runtime/stream/stream_chunk.ts";
import { checkOptions, is } from "../runtime/internal.ts";

// The safety net runs on real time even while a FakeClock drives the globals
// (its autoAdvance would otherwise fire the net at once): keep the originals.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** Options for {@linkcode runSettled} and {@linkcode drainedSettled}. */
export interface SettledOptions {
  /**
   * How long to wait, in real milliseconds, before failing with
   * {@linkcode RunNotSettled}. A safety net against a hung run, not a
   * deadline in the code under test (those run on `ctx.clock`).
   * @default {5000}
   */
  readonly timeoutMs?: number;
}

/**
 * A run did not finish (or drain) within the safety-net timeout. The message
 * names the test's label for the run.
 *
 * @example
 * ```ts
 * import { RunNotSettled } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new RunNotSettled("the scripted run", "finish", 50);
 * assertEquals([e.name, e.label, e.timeoutMs], ["RunNotSettled", "the scripted run", 50]);
 * ```
 */
export class RunNotSettled extends Error {
  /** The label the test gave the run. */
  readonly label: string;
  /** What was waited for. */
  readonly waitedFor: "finish" | "drain";
  /** The timeout that passed (real ms). */
  readonly timeoutMs: number;

  /**
   * The message lists what usually waits forever and how to release it.
   *
   * @param label The run's label.
   * @param waitedFor `"finish"` (runSettled) or `"drain"` (drainedSettled).
   * @param timeoutMs The timeout that passed.
   */
  constructor(label: string, waitedFor: "finish" | "drain", timeoutMs: number) {
    super(
      waitedFor === "finish"
        ? `${label} did not finish within ${timeoutMs} ms; something in it is waiting forever (an unopened gate, a stall with no idleTimeout, a blocked tool), so open it, cancel the run, or raise { timeoutMs }`
        : `${label} did not stop producing within ${timeoutMs} ms; something in it is still running after the run ended (a cognition winding down, work that ignores cancellation), so release it or raise { timeoutMs }`,
    );
    this.name = "RunNotSettled";
    this.label = label;
    this.waitedFor = waitedFor;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Waits for a run to finish and returns its result, or fails loudly with
 * {@linkcode RunNotSettled} naming `label` after `timeoutMs` of real time
 * instead of hanging the suite. A run that failed or was cancelled rejects
 * with its own error. The safety-net timer is cleared whichever way it ends,
 * so nothing leaks into the next test.
 *
 * @param run The run.
 * @param label What the test calls it, for the failure message.
 * @param options The safety-net timeout.
 * @returns The run's result.
 * @throws {RunNotSettled} When the run does not finish in time.
 *
 * @example
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx, RunNotSettled, runSettled } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const agent = new Agent("a", { model: "fake-model" });
 * const done = agent.start("go", makeTestCtx({ llm: new FakeLLM("ok") }));
 * assertEquals((await runSettled(done, "the quick run")).output, "ok");
 *
 * const gate = Promise.withResolvers<void>();
 * const held = agent.start("go", makeTestCtx({ llm: FakeLLM.script([{ content: "late", gate: gate.promise }]) }));
 * await assertRejects(() => runSettled(held, "the gated run", { timeoutMs: 20 }), RunNotSettled, "the gated run did not finish");
 * gate.resolve();
 * await runSettled(held, "the gated run");
 * ```
 */
export function runSettled(
  run: Run,
  label: string,
  options: SettledOptions = {},
): Promise<AgentResult> {
  const ms = checkTimeout(options, "runSettled");
  return withSafetyNet(run.result, () => new RunNotSettled(label, "finish", ms), ms);
}

/**
 * Waits for a run to stop producing: on a cancelled run that is later than
 * {@linkcode runSettled} (a cognition still winding down keeps it
 * going). Use it before asserting that something did not happen. Fails with
 * {@linkcode RunNotSettled} naming `label` after `timeoutMs` of real time.
 *
 * @param run The run.
 * @param label What the test calls it.
 * @param options The safety-net timeout.
 * @throws {RunNotSettled} When the run keeps producing past the timeout.
 *
 * @example
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { drainedSettled, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = FakeLLM.script([{ chunks: ["..."], stall: true }]);
 * const run = new Agent("a", { model: "fake-model" }).start("go", makeTestCtx({ llm }));
 * run.cancel();
 * await drainedSettled(run, "the cancelled run");
 * assertEquals(llm.cancelled, ["fake-stream-1"]);
 * ```
 */
export function drainedSettled(
  run: Run,
  label: string,
  options: SettledOptions = {},
): Promise<void> {
  const ms = checkTimeout(options, "drainedSettled");
  return withSafetyNet(run.drained, () => new RunNotSettled(label, "drain", ms), ms);
}

/**
 * Every stream event of a run, in order, once its events have ended. A run
 * that failed or was cancelled still gives the events it produced (its error
 * stays in `run.result`). Reads from the run's buffer, so calling it after the
 * run finished, or twice, gives the same events.
 *
 * @param run The run.
 * @returns The events.
 *
 * @example
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { drainEvents, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const run = new Agent("a", { model: "fake-model" }).start("go", makeTestCtx({ llm: new FakeLLM("hi") }));
 * await run.result;
 * assertEquals((await drainEvents(run)).map((e) => e.type), ["message_start", "text_delta", "message_end"]);
 * ```
 */
export async function drainEvents(run: Run): Promise<StreamEvent[]> {
  return (await drainChunks(run)).map((c) => c.event);
}

/**
 * Every chunk of a run (each event with its text `delta`), like
 * {@linkcode drainEvents}.
 *
 * @param run The run.
 * @returns The chunks.
 *
 * @example
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { drainChunks, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = FakeLLM.script([{ chunks: ["a", "b"] }]);
 * const run = new Agent("a", { model: "fake-model" }).start("go", makeTestCtx({ llm }));
 * assertEquals((await drainChunks(run)).map((c) => c.delta), [undefined, "a", "b", undefined]);
 * ```
 */
export async function drainChunks(run: Run): Promise<StreamChunk[]> {
  const out: StreamChunk[] = [];
  try {
    for await (const chunk of run.events) out.push(chunk);
  } catch {
    // The run failed or was cancelled: its error is in run.result.
  }
  return out;
}

function checkTimeout(options: SettledOptions, fn: string): number {
  checkOptions(`${fn}()`, options, { timeoutMs: is.number({ min: 1 }) }, { optional: true });
  // checkOptions has made it a finite number of 1 or more, when given.
  return options?.timeoutMs ?? 5_000;
}

function withSafetyNet<T>(promise: Promise<T>, fail: () => Error, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const net = new Promise<never>((_, reject) => {
    timer = realSetTimeout(() => reject(fail()), ms);
  });
  return Promise.race([promise, net]).finally(() => realClearTimeout(timer));
}
