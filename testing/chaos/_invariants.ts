// The built-in invariants: each reads a run's outcome and its world, and
// says what broke, or nothing.
import type { Message, ToolCall } from "../../ports/message.ts";
import { isHarnessError } from "../../runtime/harness_error.ts";
import { describe } from "../../runtime/internal.ts";
import { ScriptExhausted } from "../errors.ts";
import type { ChaosOutcome } from "./chaos_outcome.ts";
import { ChaosStopped } from "./_stopped.ts";
import type { World } from "./_world.ts";

/** The built-in invariants, in the order they are checked. */
export const INVARIANTS = [
  "terminates",
  "noHarnessError",
  "typedFailure",
  "budgetHeld",
  "toolCallsAnswered",
  "noDuplicateSideEffects",
] as const;

/** The name of a built-in invariant. */
export type BuiltInInvariant = typeof INVARIANTS[number];

/** The limits the run was held to. */
export interface Limits {
  readonly maxSteps: number;
  readonly maxVirtualMs: number;
  readonly hangMs: number;
}

type Check = (o: ChaosOutcome, w: World, limits: Limits) => string | undefined;

// Errors that are the agent's own bug when a run fails with one.
const BUG_CLASSES = new Set(["TypeError", "ReferenceError", "RangeError", "SyntaxError"]);

const CHECKS: Readonly<Record<BuiltInInvariant, Check>> = {
  terminates(o, w, limits) {
    if (w.stoppedBy !== undefined) {
      const hung = o.status === "hung"
        ? `; it did not settle within hangMs (${limits.hangMs} ms of real time) after that either: a hang, left behind`
        : "";
      return `the run did not settle by itself: chaos() stopped it because it ${w.stoppedBy}${hung}`;
    }
    if (o.virtualMs > limits.maxVirtualMs) {
      return `the run took ${o.virtualMs} ms of virtual time, more than maxVirtualMs (${limits.maxVirtualMs})`;
    }
    return undefined;
  },
  noHarnessError(o, w) {
    const own = (e: unknown) => isHarnessError(e) && !(e instanceof ChaosStopped);
    const found = own(o.error) ? o.error : [...w.harnessErrors, ...w.inner.harnessErrors].find(own);
    if (found === undefined) return undefined;
    const e = found as Error;
    const hint = e instanceof ScriptExhausted
      ? " (a fault takes no turn of the script: the fault answers its call and the script's next turn answers the next one, so this agent made more model calls than the script and its faults account for)"
      : "";
    const swallowed = found === o.error ? "" : ", and the run swallowed it";
    return `the test's setup broke: ${e.name}: ${e.message}${swallowed}${hint}`;
  },
  typedFailure(o) {
    if (o.status !== "threw") return undefined;
    const error = o.error;
    if (isHarnessError(error)) return undefined;
    if (!(error instanceof Error)) {
      return `the run failed with ${
        describe(error)
      }, which is not an Error: throw a named error class`;
    }
    const name = error.name !== "Error"
      ? error.name
      : (error.constructor as { name?: string } | undefined)?.name ?? "Error";
    if (BUG_CLASSES.has(name)) {
      return `the run failed with a ${name} from inside: ${error.message}`;
    }
    if (name === "Error") {
      return `the run failed with a plain Error, not a named error class: ${error.message}`;
    }
    return undefined;
  },
  budgetHeld(_o, w) {
    if (w.budgetProblems.length) return w.budgetProblems[0];
    for (const b of w.budgets) {
      if (b.calls > w.billedCalls) {
        return `the budget was charged for ${b.calls} model call(s), but the provider billed only ${w.billedCalls}: a call was charged twice (is meter() in the chain twice?)`;
      }
      if (b.tokens > w.billedTokens) {
        return `the budget was charged ${b.tokens} tokens, but the provider billed only ${w.billedTokens}: a call was charged twice`;
      }
    }
    return undefined;
  },
  toolCallsAnswered(o, w) {
    const result = (o.result as { messages?: unknown } | undefined)?.messages;
    for (const s of w.served) {
      if (s === undefined) continue;
      const t = s.turn;
      const calls = t.toolCalls ?? [];
      const completed = t.error === undefined && t.failAfterChunks === undefined &&
        t.gate === undefined && !t.stall &&
        (t.finishReason === undefined || t.finishReason === "tool_calls" ||
          t.finishReason === "stop");
      if (calls.length === 0 || !completed) continue;
      const next = o.requests[s.n]?.messages ?? (Array.isArray(result) ? result : undefined);
      if (next === undefined) continue;
      const problem = unanswered(next as readonly Message[], calls);
      if (problem) return `model call ${s.n} made tool calls, and ${problem}`;
    }
    return undefined;
  },
  noDuplicateSideEffects(_o, w) {
    for (const r of w.toolRecords) {
      if (r.idempotent !== false || r.callId === undefined) continue;
      const runs = w.runs.get(`${r.tool}\u0000${r.callId}`) ?? 0;
      if (runs > 1) {
        return `tool "${r.tool}" is marked idempotent: false, but it ran ${runs} times for the model's call ${r.callId}`;
      }
    }
    return undefined;
  },
};

// What is wrong with how `messages` answer `calls`: missing, or not exactly
// one result per call. The calls are found by their names, and counted by
// the ids the agent carried back: an agent may give a repeated id a fresh
// one (ReAct does), and two calls that still share an id are owed two.
function unanswered(messages: readonly Message[], calls: readonly ToolCall[]): string | undefined {
  const names = calls.map((c) => c.name).join("\u0000");
  let at = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "assistant" && (m.toolCalls ?? []).map((c) => c.name).join("\u0000") === names) {
      at = i;
      break;
    }
  }
  if (at < 0) return "the agent's next request to the model did not carry them back";
  const carried = messages[at].toolCalls!;
  const got = new Map<string, number>();
  for (let i = at + 1; i < messages.length && messages[i].role === "tool"; i++) {
    const id = messages[i].toolCallId ?? "";
    got.set(id, (got.get(id) ?? 0) + 1);
  }
  const owed = new Map<string, number>();
  for (const c of carried) owed.set(c.id, (owed.get(c.id) ?? 0) + 1);
  for (const c of carried) {
    const n = got.get(c.id) ?? 0;
    if (n !== owed.get(c.id)) {
      return `call ${c.id} (${c.name}) got ${n} result(s) where it needed ${owed.get(c.id)}`;
    }
  }
  return undefined;
}

/** The first of `names` the run broke, with what broke. */
export function brokenBuiltIn(
  names: ReadonlySet<string>,
  o: ChaosOutcome,
  w: World,
  limits: Limits,
): { readonly invariant: string; readonly message: string } | undefined {
  for (const name of INVARIANTS) {
    if (!names.has(name)) continue;
    const message = CHECKS[name](o, w, limits);
    if (message !== undefined) return { invariant: name, message };
  }
  return undefined;
}
