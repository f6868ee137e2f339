// What every fault table shares: the parameters fast-check draws for a
// fault, what a model fault sees of the call it replaces, and the readable
// form of a fault's arguments.
import type * as FastCheck from "fast-check";
import type { ToolSpec } from "../../ports/tool_spec.ts";
import type { Turn } from "../llm/turn.ts";

/** The fast-check module, loaded by `chaos()` on first use. */
export type Fc = typeof FastCheck;

/** A fault's drawn parameters: small numbers and flags, so they shrink well. */
export type FaultParams = Readonly<Record<string, number | boolean>>;

/** What a model fault knows of the call it replaces. */
export interface FaultCall {
  /** The 1-based model call. */
  readonly n: number;
  /** The tools the request offered. */
  readonly tools: readonly ToolSpec[];
  /** Waits on the run's virtual clock, ending early when the call is cancelled. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Rejects when chaos() stops the run (a stalled call then ends). */
  readonly stopped: Promise<never>;
}

/** A model fault, made concrete for one call. */
export interface ServedFault {
  /** The turn the call plays instead of the script's. */
  readonly turn: Turn;
  /** The fault's arguments as they read in a schedule: `retryAfterMs=1500`, `"lookup"`. */
  readonly args: string;
  /** The turn as `FakeLLM.script` source, when the generic rendering of `turn` is not it. */
  readonly source?: string;
}

/** One kind of model fault: its parameters, and the turn it serves (undefined: not applicable). */
export interface ModelFault {
  readonly params: (fc: Fc) => FastCheck.Arbitrary<FaultParams>;
  readonly serve: (params: FaultParams, call: FaultCall) => ServedFault | undefined;
}

/** No parameters. */
export const NO_PARAMS = (fc: Fc): FastCheck.Arbitrary<FaultParams> => fc.constant({});

/** The tool a fault picks by its drawn index, or undefined when none is offered. */
export function pickTool(tools: readonly ToolSpec[], index: unknown): ToolSpec | undefined {
  return tools.length === 0 ? undefined : tools[Number(index) % tools.length];
}

/** A promise that is already rejected, and marked handled: it rejects wherever it is awaited. */
export function rejected(error: unknown): Promise<never> {
  const p = Promise.reject(error);
  p.catch(() => {});
  return p;
}
