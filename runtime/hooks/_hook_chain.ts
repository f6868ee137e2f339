// The hook chains behind agent.run and agent.stream: validated once when the
// agent is built, then run per request and per event. Not exported.
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { AgentResult } from "../cognition/cognition.ts";
import type { RunContext } from "../context.ts";
import { editDistance } from "../_edit_distance.ts";
import { rethrowIfFatal } from "../harness_error.ts";
import {
  type AfterRunHook,
  type AgentHooks,
  type BeforeRunHook,
  type BeforeRunOutcome,
  type HaltReply,
  type HookContext,
  HookFailed,
  type HookPhase,
  type RunRequest,
  type StreamEventHook,
  type StreamEventOutcome,
} from "./hooks.ts";

const PHASES: readonly HookPhase[] = ["beforeRun", "onStreamEvent", "afterRun"];

/** A hook list after validation, with each hook's display name. */
export interface PreparedHooks {
  /** `beforeRun` hooks and their names. */
  readonly beforeRun: readonly (readonly [BeforeRunHook, string])[];
  /** `onStreamEvent` hooks and their names. */
  readonly onStreamEvent: readonly (readonly [StreamEventHook, string])[];
  /** `afterRun` hooks and their names. */
  readonly afterRun: readonly (readonly [AfterRunHook, string])[];
}

/**
 * Checks an agent's hooks once, when the agent is built.
 *
 * @param agent The agent's name, for messages.
 * @param hooks The hooks.
 * @returns The prepared lists.
 * @throws {TypeError} For an unknown list (with the nearest valid one) or a
 *   hook without the method of its list.
 */
export function prepareHooks(agent: string, hooks: AgentHooks | undefined): PreparedHooks {
  if (hooks === undefined) return { beforeRun: [], onStreamEvent: [], afterRun: [] };
  // new Agent() has checked that `hooks` is a plain object (its options check).
  for (const key of Object.keys(hooks)) {
    if (!(PHASES as readonly string[]).includes(key)) {
      const near = PHASES.find((p) => editDistance(p.toLowerCase(), key.toLowerCase()) <= 3);
      throw new TypeError(
        `Cannot build agent "${agent}": unknown hook list "${key}"${
          near ? `; did you mean "${near}"?` : ""
        } (the lists are beforeRun, onStreamEvent and afterRun)`,
      );
    }
  }
  const list = <H>(phase: HookPhase): (readonly [H, string])[] => {
    const value = (hooks as Record<string, unknown>)[phase];
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      throw new TypeError(
        `Cannot build agent "${agent}": hooks.${phase} must be an array of hooks, got ${typeof value}`,
      );
    }
    return value.map((h, i) => {
      if (!h || typeof (h as Record<string, unknown>)[phase] !== "function") {
        throw new TypeError(
          `Cannot build agent "${agent}": hooks.${phase}[${i}] has no ${phase}() method; a ${phase} hook is an object such as { name: "x", ${phase}(...) { ... } }`,
        );
      }
      return [h as H, nameOf(h, phase, i)] as const;
    });
  };
  return {
    beforeRun: list<BeforeRunHook>("beforeRun"),
    onStreamEvent: list<StreamEventHook>("onStreamEvent"),
    afterRun: list<AfterRunHook>("afterRun"),
  };
}

function nameOf(hook: { name?: unknown; constructor?: unknown }, phase: string, i: number): string {
  if (typeof hook.name === "string" && hook.name) return hook.name;
  const ctor = hook.constructor as { name?: string } | undefined;
  if (ctor && ctor !== Object && ctor.name) return ctor.name;
  return `${phase}[${i}]`;
}

function isThenable<T>(v: unknown): v is PromiseLike<T> {
  return typeof (v as { then?: unknown })?.then === "function";
}

function fail(name: string, phase: HookPhase, error: unknown, ctx: RunContext): never {
  rethrowIfFatal(error, ctx.signal);
  throw new HookFailed(name, phase, error);
}

/**
 * Runs the `beforeRun` chain.
 *
 * @param hooks The prepared hooks.
 * @param request The request.
 * @param hc What hooks receive.
 * @returns The final request; when a hook halted, the request it saw and its reply.
 */
export async function runBeforeRun(
  hooks: PreparedHooks,
  request: RunRequest,
  hc: HookContext,
): Promise<RunRequest | (RunRequest & HaltReply)> {
  let current = request;
  for (const [hook, name] of hooks.beforeRun) {
    let out: BeforeRunOutcome;
    try {
      out = await hook.beforeRun(current, hc);
    } catch (error) {
      fail(name, "beforeRun", error, hc.ctx);
    }
    if (out === undefined) continue;
    if (typeof out === "object" && out !== null) {
      if (typeof (out as HaltReply).reply === "string") {
        return { ...current, reply: (out as HaltReply).reply };
      }
      const r = out as RunRequest;
      if (typeof r.task === "string" && (r.context === undefined || Array.isArray(r.context))) {
        current = { task: r.task, context: r.context ?? current.context };
        continue;
      }
    }
    throw new TypeError(
      `The beforeRun hook "${name}" returned ${
        JSON.stringify(out) ?? String(out)
      }; return a RunRequest ({ ...request, task }) to rewrite the run, { reply } to halt it, or nothing to go on unchanged`,
    );
  }
  return current;
}

/**
 * Runs the `onStreamEvent` chain for one event.
 *
 * @param hooks The prepared hooks.
 * @param event The event.
 * @param hc What hooks receive.
 * @returns The events to emit, and the name of the hook that replaced the
 *   event (`undefined` when none did).
 */
export async function runStreamHooks(
  hooks: PreparedHooks,
  event: StreamEvent,
  hc: HookContext,
): Promise<readonly [readonly unknown[], string | undefined]> {
  for (const [hook, name] of hooks.onStreamEvent) {
    let out: StreamEventOutcome | Promise<StreamEventOutcome>;
    try {
      out = hook.onStreamEvent(event, hc);
      if (isThenable<StreamEventOutcome>(out)) out = await out;
    } catch (error) {
      fail(name, "onStreamEvent", error, hc.ctx);
    }
    if (out === undefined) continue;
    if (!Array.isArray(out)) {
      throw new TypeError(
        `The onStreamEvent hook "${name}" returned ${
          typeof out === "object" ? "a single object" : typeof out
        }; return an array of events to replace the event (and end the chain), or nothing to pass it on`,
      );
    }
    return [out, name];
  }
  return [[event], undefined];
}

/**
 * Runs the `afterRun` chain.
 *
 * @param hooks The prepared hooks.
 * @param result The run's result.
 * @param hc What hooks receive.
 */
export async function runAfterRun(
  hooks: PreparedHooks,
  result: AgentResult,
  hc: HookContext,
): Promise<void> {
  for (const [hook, name] of hooks.afterRun) {
    try {
      await hook.afterRun(result, hc);
    } catch (error) {
      fail(name, "afterRun", error, hc.ctx);
    }
  }
}
