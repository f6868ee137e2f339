/**
 * What one chaos run did, as invariants see it.
 *
 * @module
 */
import type { RecordedRequest } from "../llm/fake_llm.ts";
import type { Turn } from "../llm/turn.ts";

/**
 * One fault chaos() injected, as it fired.
 *
 * @example
 * ```ts
 * import type { InjectedFault } from "@agentkit/testing/testing";
 * const f: InjectedFault = {
 *   kind: "rateLimit", target: "model", at: 2, args: "retryAfterMs=1500",
 *   label: "call 2: rateLimit(retryAfterMs=1500)",
 * };
 * ```
 */
export interface InjectedFault {
  /** The fault kind (`"rateLimit"`, `"toolError"`, `"invalidToolJson"`, ...). */
  readonly kind: string;
  /** Whether it hit a model call or a tool call. */
  readonly target: "model" | "tool";
  /** The 1-based model call (or tool call) it hit. */
  readonly at: number;
  /** Its arguments as they read: `retryAfterMs=1500`, `"lookup"`. */
  readonly args: string;
  /** The whole fault as it reads in a schedule: `call 2: rateLimit(retryAfterMs=1500)`. */
  readonly label: string;
}

/**
 * One call of a tool wrapped with `world.tool(t)`.
 *
 * @example
 * ```ts
 * import type { ChaosToolCall } from "@agentkit/testing/testing";
 * const c: ChaosToolCall = { n: 1, tool: "lookup", callId: "c1", args: { q: "x" }, ran: true };
 * ```
 */
export interface ChaosToolCall {
  /** The 1-based tool call of the run (every wrapped tool counts). */
  readonly n: number;
  /** The tool's name. */
  readonly tool: string;
  /**
   * The model's call id it answers: from the runtime's tool chain under
   * `world.ctx()`, else the latest call of this tool with equal arguments.
   */
  readonly callId: string | undefined;
  /** The arguments it got. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Whether the wrapped tool itself ran (a fault may fail the call before). */
  readonly ran: boolean;
}

/**
 * How a run ended: the scenario `"returned"` or `"threw"`; chaos()
 * `"stopped"` it (too many model calls, past `maxVirtualMs`, or no progress
 * with nothing left to wait for), and then it settled; or it `"hung"`: it
 * did not settle even after being stopped, and chaos() left it.
 */
export type ChaosRunStatus = "returned" | "threw" | "stopped" | "hung";

/**
 * What one run did: the argument of every invariant.
 *
 * @example An invariant of your own
 * ```ts
 * import type { ChaosOutcome } from "@agentkit/testing/testing";
 * const answers = (o: ChaosOutcome): void => {
 *   if (o.status === "threw") throw new Error(`the agent gave up: ${o.error}`);
 * };
 * ```
 */
export interface ChaosOutcome {
  /** The 1-based run within this chaos() call (shrinking runs count on). */
  readonly run: number;
  /** How it ended. */
  readonly status: ChaosRunStatus;
  /** What the scenario returned (undefined unless `"returned"`). */
  readonly result: unknown;
  /** What it threw (undefined when it returned). */
  readonly error: unknown;
  /** The faults that fired, in order. */
  readonly faults: readonly InjectedFault[];
  /** How many model calls the run made. */
  readonly modelCalls: number;
  /** The turn each model call played (fault turns included), in call order. */
  readonly turns: readonly Turn[];
  /** What the model was sent, call by call. */
  readonly requests: readonly RecordedRequest[];
  /** The wrapped tools' calls, in order. */
  readonly toolCalls: readonly ChaosToolCall[];
  /** Virtual milliseconds the run took on `world.clock`. */
  readonly virtualMs: number;
}
