/**
 * Agent hooks: code that runs before a run, on every stream event, and
 * after a run, in the order given.
 *
 * @module
 */
import type { Message } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { AgentResult } from "../cognition/cognition.ts";
import type { AgentInfo } from "../cognition/cognition.ts";
import type { RunContext } from "../context.ts";
import type { Session } from "../sessions/session.ts";

/**
 * What a run is asked to do, as `beforeRun` hooks see and rewrite it.
 *
 * @example
 * ```ts
 * import type { RunRequest } from "@agentkit/testing/runtime";
 * const r: RunRequest = { task: "hi", context: [] };
 * ```
 */
export interface RunRequest {
  /** The user's task. */
  readonly task: string;
  /** Earlier turns put before the task (the session's transcript, then `context`). */
  readonly context: readonly Message[];
}

/**
 * A `beforeRun` hook's answer that halts the run: the cognition is never
 * called, and the run ends with this reply and `stopReason: "halted"`.
 *
 * @example
 * ```ts
 * import type { HaltReply } from "@agentkit/testing/runtime";
 * const halt: HaltReply = { reply: "I cannot help with that." };
 * ```
 */
export interface HaltReply {
  /** The answer the user gets instead of the agent's. */
  readonly reply: string;
}

/**
 * What every hook receives besides its subject.
 *
 * @example
 * ```ts
 * import type { HookContext } from "@agentkit/testing/runtime";
 * import { makeTestCtx } from "@agentkit/testing/testing";
 * const h: HookContext = { agent: { name: "a", model: "m" }, ctx: makeTestCtx() };
 * ```
 */
export interface HookContext {
  /** The agent running. */
  readonly agent: AgentInfo;
  /** The run's context. */
  readonly ctx: RunContext;
  /** The run's session, when it has one. */
  readonly session?: Session;
}

/** What a `beforeRun` hook may return: a new request, a halt, or nothing (go on unchanged). */
export type BeforeRunOutcome = RunRequest | HaltReply | undefined | void;

/**
 * Runs before the cognition. It may return a rewritten request (the next
 * hook and the cognition see it), a {@linkcode HaltReply} (no later hook
 * runs, and neither does the cognition), or nothing.
 *
 * @example Upper-case the prompt
 * ```ts
 * import { Agent, type BeforeRunHook } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const shout: BeforeRunHook = { name: "shout", beforeRun: (r) => ({ ...r, task: r.task.toUpperCase() }) };
 * const llm = new FakeLLM(({ user }) => user);
 * const agent = new Agent("a", { model: "fake-model", hooks: { beforeRun: [shout] } });
 * assertEquals((await agent.run("hello", makeTestCtx({ llm }))).output, "HELLO");
 * ```
 */
export interface BeforeRunHook {
  /** A name for error messages. @default {the class name, or "beforeRun[i]"} */
  readonly name?: string;
  /** Sees the request; may rewrite it or halt the run. */
  beforeRun(request: RunRequest, hook: HookContext): BeforeRunOutcome | Promise<BeforeRunOutcome>;
}

/** What an `onStreamEvent` hook may return: replacement events, or nothing (pass it on). */
export type StreamEventOutcome = readonly StreamEvent[] | undefined | void;

/**
 * Sees every stream event of every run (`agent.run`, `agent.stream` and
 * `agent.start` are one stream), in order. Returning an array replaces the
 * event with those events (none drops it) and ends the chain for it: later
 * hooks do not see it, and the replacements are not shown to any hook.
 * Returning nothing passes the event to the next hook unchanged. The run's
 * result follows the events let through: a redaction applies to
 * `agent.run()`'s output too.
 *
 * @example Redact a word
 * ```ts
 * import { Agent, type StreamEventHook } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const redact: StreamEventHook = {
 *   name: "redact",
 *   onStreamEvent: (e) =>
 *     e.type === "text_delta" ? [{ ...e, content: e.content.replace("secret", "[redacted]") }] : undefined,
 * };
 * const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [redact] } });
 * const events = await Array.fromAsync(agent.stream("go", makeTestCtx({ llm: new FakeLLM("the secret") })));
 * assertEquals(events.flatMap((e) => e.type === "text_delta" ? [e.content] : []), ["the [redacted]"]);
 * const result = await agent.run("go", makeTestCtx({ llm: new FakeLLM("the secret") }));
 * assertEquals(result.output, "the [redacted]");
 * ```
 */
export interface StreamEventHook {
  /** A name for error messages. @default {the class name, or "onStreamEvent[i]"} */
  readonly name?: string;
  /** Sees one event; may replace it and end the chain. */
  onStreamEvent(
    event: StreamEvent,
    hook: HookContext,
  ): StreamEventOutcome | Promise<StreamEventOutcome>;
}

/**
 * Sees the result of every run that completed, halted ones included: the
 * same result whether the run was `agent.run`, `agent.stream` or
 * `agent.start`.
 *
 * @example
 * ```ts
 * import { Agent, type AfterRunHook, type AgentResult } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const seen: AgentResult[] = [];
 * const audit: AfterRunHook = { name: "audit", afterRun: (r) => { seen.push(r); } };
 * const agent = new Agent("a", { model: "fake-model", hooks: { afterRun: [audit] } });
 * await agent.run("go", makeTestCtx({ llm: new FakeLLM("done") }));
 * assertEquals(seen.map((r) => r.output), ["done"]);
 * ```
 */
export interface AfterRunHook {
  /** A name for error messages. @default {the class name, or "afterRun[i]"} */
  readonly name?: string;
  /** Sees the result. */
  afterRun(result: AgentResult, hook: HookContext): void | Promise<void>;
}

/**
 * The hooks of an agent, each list run in order. A hook that throws fails
 * the run with {@linkcode HookFailed} (hooks are often guardrails, and a
 * guardrail that cannot run must not be skipped silently); harness errors
 * and cancellation escape unwrapped.
 *
 * @example
 * ```ts
 * import type { AgentHooks } from "@agentkit/testing/runtime";
 * const hooks: AgentHooks = {
 *   beforeRun: [{ name: "block", beforeRun: (r) => r.task.includes("password") ? { reply: "No." } : undefined }],
 * };
 * ```
 */
export interface AgentHooks {
  /** Before the cognition, in order. @default {[]} */
  readonly beforeRun?: readonly BeforeRunHook[];
  /** On every stream event, in order. @default {[]} */
  readonly onStreamEvent?: readonly StreamEventHook[];
  /** After the run, in order. @default {[]} */
  readonly afterRun?: readonly AfterRunHook[];
}

/** Which hook list a hook belongs to. */
export type HookPhase = "beforeRun" | "onStreamEvent" | "afterRun";

/**
 * A hook threw. The run fails with this error, naming the hook and the
 * phase; the hook's error is the `cause`.
 *
 * @example
 * ```ts
 * import { Agent, HookFailed } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertRejects } from "@std/assert";
 *
 * const agent = new Agent("a", {
 *   model: "fake-model",
 *   hooks: { beforeRun: [{ name: "moderation", beforeRun: () => { throw new Error("service down"); } }] },
 * });
 * await assertRejects(() => agent.run("hi", makeTestCtx({ llm: new FakeLLM("x") })), HookFailed, 'hook "moderation"');
 * ```
 */
export class HookFailed extends Error {
  /** The hook's name. */
  readonly hook: string;
  /** Where it ran. */
  readonly phase: HookPhase;

  /**
   * The message names the hook and the phase; `cause` is what it threw.
   *
   * @param hook The hook's name.
   * @param phase Where it ran.
   * @param cause What it threw.
   */
  constructor(hook: string, phase: HookPhase, cause: unknown) {
    super(
      `The ${phase} hook "${hook}" threw: ${
        (cause as Error)?.message ?? String(cause)
      }; the run was stopped rather than continue without it (catch errors inside the hook to make it optional)`,
      { cause },
    );
    this.name = "HookFailed";
    this.hook = hook;
    this.phase = phase;
  }
}
