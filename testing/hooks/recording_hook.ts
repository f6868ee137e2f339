/**
 * A hook double that records what it saw.
 *
 * @module
 */
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { AgentResult } from "../../runtime/cognition/cognition.ts";
import type {
  AfterRunHook,
  BeforeRunHook,
  RunRequest,
  StreamEventHook,
} from "../../runtime/hooks/hooks.ts";
import { checkOptions, is } from "../../runtime/internal.ts";

/** Options for {@linkcode RecordingHook}. */
export interface RecordingHookOptions {
  /**
   * The hook's name in error messages.
   * @default {"recording"}
   */
  readonly name?: string;
}

/**
 * A hook of every kind that changes nothing and records everything it saw:
 * put the same instance in `beforeRun`, `onStreamEvent` and `afterRun`, and
 * assert on `.requests`, `.events` and `.results`. Placed after another
 * stream hook, it shows what that hook let through.
 *
 * @example What the second hook saw
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, HaltingHook, RecordingHook, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const first = new HaltingHook({ when: (e) => e.type === "text_delta" });
 * const second = new RecordingHook();
 * const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [first, second] } });
 * await Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: new FakeLLM("hello") })));
 * assertEquals(first.events.map((e) => e.type), ["message_start", "text_delta", "message_end"]);
 * assertEquals(second.events.map((e) => e.type), ["message_start", "message_end"]);
 * ```
 */
export class RecordingHook implements BeforeRunHook, StreamEventHook, AfterRunHook {
  /** The hook's name. */
  readonly name: string;
  /** Each request `beforeRun` saw (a copy). */
  readonly requests: RunRequest[] = [];
  /** Each event `onStreamEvent` saw, in order. */
  readonly events: StreamEvent[] = [];
  /** Each result `afterRun` saw. */
  readonly results: AgentResult[] = [];

  /**
   * Creates a recording hook.
   *
   * @param options Its name.
   */
  constructor(options: RecordingHookOptions = {}) {
    checkOptions("new RecordingHook()", options, { name: is.text });
    this.name = options.name ?? "recording";
  }

  /** Records the request and lets it through unchanged. */
  beforeRun(request: RunRequest): void {
    this.requests.push({ task: request.task, context: [...request.context] });
  }

  /** Records the event and passes it on. */
  onStreamEvent(event: StreamEvent): void {
    this.events.push(event);
  }

  /** Records the result. */
  afterRun(result: AgentResult): void {
    this.results.push(result);
  }
}
