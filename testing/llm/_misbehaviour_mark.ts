// Which turns `misbehave` built, and as what. A marked turn is trusted by
// `parseTurn` as it is (a nameless tool call is its point, not a typo), and
// played without the unknown-tool check (calling a tool nobody offered is
// the point too). The mark is lost on a copy: a spread turn is checked like
// any other.
import type { Turn } from "./turn.ts";

/**
 * What a `misbehave` turn is: its kind and the source text that builds it again.
 *
 * @example
 * ```ts
 * import { misbehave, type Misbehaviour, misbehaviourOf } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const m: Misbehaviour | undefined = misbehaviourOf(misbehave.refusal());
 * assertEquals(m?.source, "misbehave.refusal()");
 * ```
 */
export interface Misbehaviour {
  /** The builder's name (`"invalidToolJson"`). */
  readonly kind: string;
  /** The call that builds the turn (`misbehave.invalidToolJson("lookup")`). */
  readonly source: string;
}

const marks = new WeakMap<object, Misbehaviour>();

/** Marks a built turn, freezing it, its tool calls and their arguments. */
export function mark(turn: Turn, kind: string, args: readonly unknown[]): Turn {
  const calls = turn.toolCalls;
  if (calls) {
    for (const call of calls) Object.freeze(Object.freeze(call).args);
    Object.freeze(calls);
  }
  Object.freeze(turn);
  const shown = args.map((a) => JSON.stringify(a)).join(", ");
  marks.set(turn, { kind, source: `misbehave.${kind}(${shown})` });
  return turn;
}

/** The mark of a turn `misbehave` built, else undefined. */
export function markOf(turn: unknown): Misbehaviour | undefined {
  // A WeakMap answers undefined for a key that cannot be one (a string).
  return marks.get(turn as object);
}
