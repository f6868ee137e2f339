/**
 * A hook double that halts runs and ends stream-hook chains.
 *
 * @module
 */
import type { StreamEvent } from "../../ports/stream_event.ts";
import type {
  BeforeRunHook,
  HaltReply,
  RunRequest,
  StreamEventHook,
} from "../../runtime/hooks/hooks.ts";
import { checkOptions, is } from "../../runtime/internal.ts";

/** Options for {@linkcode HaltingHook}. */
export interface HaltingHookOptions {
  /**
   * The hook's name in error messages.
   * @default {"halting"}
   */
  readonly name?: string;
  /**
   * As a `beforeRun` hook, halt every run with this reply (the cognition is
   * never called). Unset, `beforeRun` lets runs through.
   * @default {undefined}
   */
  readonly reply?: string;
  /**
   * As an `onStreamEvent` hook, which events end the chain.
   * @default {every event}
   */
  readonly when?: (event: StreamEvent) => boolean;
  /**
   * What a matched event becomes: a list of events (empty drops it) or a
   * function of the event.
   * @default {the event itself, unchanged}
   */
  readonly replaceWith?: readonly StreamEvent[] | ((event: StreamEvent) => readonly StreamEvent[]);
}

/**
 * A hook that stops things. As a `beforeRun` hook with `reply`, it halts
 * every run with that reply (`stopReason: "halted"`). As an `onStreamEvent`
 * hook, it returns an array for each event `when` matches, which ends the
 * chain for that event: later hooks do not see it. It records what it saw
 * (`.requests`, `.events`) and counts what it stopped (`.halted`, `.ended`).
 *
 * @example Halt before the model is called
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, HaltingHook, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = new FakeLLM("never");
 * const guard = new HaltingHook({ reply: "I cannot help with that." });
 * const agent = new Agent("a", { model: "fake-model", hooks: { beforeRun: [guard] } });
 * const r = await agent.run("hi", makeTestCtx({ llm }));
 * assertEquals([r.output, r.stopReason, llm.calls, guard.halted], ["I cannot help with that.", "halted", 0, 1]);
 * ```
 */
export class HaltingHook implements BeforeRunHook, StreamEventHook {
  /** The hook's name. */
  readonly name: string;
  /** Each request `beforeRun` saw. */
  readonly requests: RunRequest[] = [];
  /** Each event `onStreamEvent` saw. */
  readonly events: StreamEvent[] = [];
  readonly #reply?: string;
  readonly #when: (event: StreamEvent) => boolean;
  readonly #replace: (event: StreamEvent) => readonly StreamEvent[];
  #halted = 0;
  #ended = 0;

  /**
   * Creates a halting hook.
   *
   * @param options The reply, and which events end the chain and how.
   */
  constructor(options: HaltingHookOptions = {}) {
    checkOptions("new HaltingHook()", options, {
      name: is.text,
      reply: is.string,
      when: is.function,
      replaceWith: is.either(
        is.arrayOf(is.object),
        is.function,
        "an array of events or a function",
      ),
    });
    this.name = options.name ?? "halting";
    this.#reply = options.reply;
    this.#when = options.when ?? (() => true);
    const r = options.replaceWith;
    this.#replace = r === undefined ? (e) => [e] : typeof r === "function" ? r : () => r;
  }

  /** How many runs it halted. */
  get halted(): number {
    return this.#halted;
  }

  /** How many events it ended the chain for. */
  get ended(): number {
    return this.#ended;
  }

  /** Records the request; halts with the reply when one was given. */
  beforeRun(request: RunRequest): HaltReply | undefined {
    this.requests.push({ task: request.task, context: [...request.context] });
    if (this.#reply === undefined) return undefined;
    this.#halted++;
    return { reply: this.#reply };
  }

  /** Records the event; ends the chain for it when `when` matches. */
  onStreamEvent(event: StreamEvent): readonly StreamEvent[] | undefined {
    this.events.push(event);
    if (!this.#when(event)) return undefined;
    this.#ended++;
    return this.#replace(event);
  }
}
