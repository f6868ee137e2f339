// Every fault kind chaos() schedules, by target: model calls (the
// provider's faults and the model's misbehaviour) and tool calls.
import { PROVIDER_FAULTS } from "./_provider_faults.ts";
import { TURN_FAULTS } from "./_turn_faults.ts";
import { TOOL_FAULTS } from "./_tool_faults.ts";
import type { ModelFault } from "./_fault_kit.ts";
import type { FaultParams } from "./_fault_kit.ts";

/** The model faults by kind: the provider's, then the model's own. */
export const MODEL_FAULTS: Readonly<Record<string, ModelFault>> = {
  ...PROVIDER_FAULTS,
  ...TURN_FAULTS,
};

/** Every kind, model faults first, in the order the default schedule weighs them. */
export const FAULT_KINDS: readonly string[] = [
  ...Object.keys(MODEL_FAULTS),
  ...Object.keys(TOOL_FAULTS),
];

/** Whether `kind` hits tool calls (else model calls). */
export function isToolFault(kind: string): boolean {
  return Object.hasOwn(TOOL_FAULTS, kind);
}

/** One fault of a schedule, as fast-check draws it. */
export interface PlannedFault {
  readonly kind: string;
  /** The 1-based model call, or tool call, it hits. */
  readonly at: number;
  readonly params: FaultParams;
}
