/**
 * A started run: a handle on an agent run that is already under way.
 *
 * @module
 */
import type { StreamEvent } from "../ports/stream_event.ts";
import type { AgentResult } from "./cognition/cognition.ts";
import { settledResult, StreamResult } from "./stream/_stream_result.ts";
import type { RunContext } from "./context.ts";
import { type StreamChunk, toChunk } from "./stream/stream_chunk.ts";
import { linkSignal } from "./_link_signal.ts";
import { noteRunFailed } from "./stream/_run_failed.ts";

/**
 * What a {@linkcode Run} drives: the events of one run on the run's own
 * context. A producer that is an async generator returning an `AgentResult`
 * (as `agent.stream` does) settles the run with that result; otherwise the
 * result is folded from the events.
 */
export type RunProducer = (ctx: RunContext) => AsyncIterable<StreamEvent>;

/** Options for {@linkcode Run}. */
export interface RunOptions {
  /**
   * Who is running, for the default cancellation message.
   * @default {"run"}
   */
  readonly name?: string;
}

/**
 * A run that has started. It drives itself from the moment it is built, so
 * `result` settles whether or not anyone reads `events`.
 *
 * - `events` is buffered: every consumer, however late it attaches, sees
 *   every event from the first, as a {@linkcode StreamChunk}. A run that
 *   fails or is cancelled ends each consumer's iteration by throwing its
 *   error after the buffered events. Breaking out of a loop over `events`
 *   does not cancel the run; `cancel()` does.
 * - `result` is the run's result, the same `agent.run()` returns for the
 *   same script: the producer's return value (`agent.stream` returns the
 *   cognition's result after the hooks: output, usage, stop reason and the
 *   transcript with tool messages), or for a producer that returns nothing,
 *   the result folded from its events (the text of the last message, the
 *   usage of every message, failed ones included). A run that ends on an
 *   `error` event (other than a length cut, which ends it with
 *   `"length"`) rejects it with that error.
 * - `cancel(reason?)` aborts the run's own signal, which every model and tool
 *   call of the run receives (linked by hand to the context's signal, which
 *   cancels it too), and rejects `result` at once with the reason.
 * - `drained` resolves when the run has stopped producing. On a run that
 *   ends by itself that is right after `result`; on a cancelled run it can be
 *   much later (a cognition that needs time to wind down, such as a CLI child
 *   that must exit, or one awaiting work it cannot abandon, holds it open). It
 *   never rejects. Events produced after cancellation are dropped.
 *
 * `agent.start(task, ctx)` is the usual way to get one.
 *
 * @example Stream, then read the result
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = FakeLLM.script([{ chunks: ["The cert ", "expired."] }]);
 * const run = new Agent("a", { model: "fake-model" }).start("why?", makeTestCtx({ llm }));
 * const deltas: string[] = [];
 * for await (const { delta } of run.events) if (delta !== undefined) deltas.push(delta);
 * const result = await run.result;
 * assertEquals(deltas, ["The cert ", "expired."]);
 * assertEquals([result.output, result.stopReason, run.isDone], ["The cert expired.", "stop", true]);
 * ```
 *
 * @example Cancellation reaches the provider
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const llm = FakeLLM.script([{ chunks: ["thinking..."], stall: true }]);
 * const run = new Agent("a", { model: "fake-model" }).start("go", makeTestCtx({ llm }));
 * run.cancel(new Error("user pressed stop"));
 * await assertRejects(() => run.result, Error, "user pressed stop");
 * await run.drained;
 * assertEquals(llm.cancelled, ["fake-stream-1"]);
 * ```
 */
export class Run {
  /** Every event of the run, buffered: each consumer sees all of them. */
  readonly events: AsyncIterable<StreamChunk>;
  /** The outcome, built from the streamed events. */
  readonly result: Promise<AgentResult>;
  /** Resolves when the run has stopped producing (never rejects). */
  readonly drained: Promise<void>;

  readonly #name: string;
  // Set in the constructor; cancel() may run before (a parent already aborted).
  #controller?: AbortController;
  readonly #buffer: StreamChunk[] = [];
  #waiters: Array<() => void> = [];
  #done = false;
  #failure: { error: unknown } | undefined;
  // The run's own context, which its ports are called with.
  #ctx: RunContext | undefined;
  #resolve!: (result: AgentResult) => void;
  #reject!: (error: unknown) => void;

  /**
   * Starts driving `produce` on a copy of `ctx` whose signal belongs to this
   * run.
   *
   * @param produce Yields the run's events, given the run's context.
   * @param ctx The context the run was started on; its signal cancels the run.
   * @param options A name for messages.
   */
  constructor(produce: RunProducer, ctx: RunContext, options: RunOptions = {}) {
    this.#name = options.name ?? "run";
    this.result = new Promise<AgentResult>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // A cancelled or failed run whose result nobody awaits is not an
    // unhandled rejection; awaiting it still rejects.
    this.result.catch(() => {});
    this.events = { [Symbol.asyncIterator]: () => this.#cursor() };

    // The run's own signal, linked to the context's: the parent aborting
    // cancels the run (settling it before the provider sees the abort).
    const link = linkSignal([ctx.signal], (reason) => this.cancel(reason));
    this.#controller = link.controller;
    const runCtx = ctx.with({ signal: link.controller.signal });
    this.#ctx = runCtx;
    this.drained = this.#pump(produce, runCtx).finally(() => link.unlink());
  }

  /** True once `result` has settled (fulfilled, failed or cancelled). */
  get isDone(): boolean {
    return this.#done;
  }

  /** The run's own cancellation signal (what its model and tool calls receive). */
  get signal(): AbortSignal {
    return this.#controller!.signal;
  }

  /**
   * Cancels the run: aborts its signal (the provider sees it), rejects
   * `result` with `reason` and ends every consumer of `events`. Does nothing
   * once the run is done.
   *
   * @param reason Why; defaults to an `AbortError` naming the run.
   */
  cancel(reason?: unknown): void {
    if (this.#done) return;
    const why = reason ?? new DOMException(`${this.#name} was cancelled`, "AbortError");
    // Settle first, so a producer that reacts to the abort synchronously
    // cannot slip a result in; then let the provider see the cancellation.
    this.#settle({ error: why });
    const controller = this.#controller;
    if (controller && !controller.signal.aborted) controller.abort(why);
  }

  // One consumer's position in the buffer.
  #cursor(): AsyncIterator<StreamChunk> {
    const buffer = this.#buffer;
    let i = 0;
    let closed = false;
    return {
      next: async (): Promise<IteratorResult<StreamChunk>> => {
        if (closed) return { done: true, value: undefined };
        while (i >= buffer.length && !this.#done) {
          await new Promise<void>((wake) => this.#waiters.push(wake));
        }
        if (i < buffer.length) return { done: false, value: buffer[i++] };
        if (this.#failure) throw this.#failure.error;
        return { done: true, value: undefined };
      },
      return: (): Promise<IteratorResult<StreamChunk>> => {
        closed = true;
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  async #pump(produce: RunProducer, ctx: RunContext): Promise<void> {
    let iterator: AsyncIterator<StreamEvent> | undefined;
    let finished = false;
    let returned: AgentResult | undefined;
    try {
      iterator = produce(ctx)[Symbol.asyncIterator]();
      while (!this.#done) {
        const step = await iterator.next();
        if (step.done) {
          finished = true;
          returned = step.value as AgentResult | undefined;
          break;
        }
        if (this.#done) break; // cancelled while the event was on its way
        this.#buffer.push(toChunk(step.value));
        this.#wake();
      }
      if (finished && !this.#done) this.#complete(returned);
    } catch (error) {
      finished = true;
      if (!this.#done) this.#settle({ error });
    } finally {
      if (!finished && iterator?.return) {
        try {
          await iterator.return();
        } catch {
          // The run is already settled; a producer failing to close is not news.
        }
      }
    }
  }

  // Settles with what the producer returned (agent.stream returns its
  // result), else with the result folded from the events, by the code
  // agent.run uses.
  #complete(returned: AgentResult | undefined): void {
    let result = returned;
    if (!result?.stopReason) {
      const fold = new StreamResult();
      for (const chunk of this.#buffer) fold.add(chunk.event);
      result = fold.result([], undefined, false, false);
    }
    try {
      this.#settle(undefined, settledResult(result));
    } catch (error) {
      this.#settle({ error });
    }
  }

  #settle(failure: { error: unknown } | undefined, result?: AgentResult): void {
    if (this.#done) return;
    this.#done = true;
    this.#failure = failure;
    if (failure) {
      // A run cancelled as it starts (its context's signal had aborted) has no context yet.
      if (this.#ctx !== undefined) noteRunFailed(this.#ctx, failure.error);
      this.#reject(failure.error);
    } else this.#resolve(result!);
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    if (waiters.length === 0) return;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
