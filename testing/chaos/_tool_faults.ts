// Faults of the tools the scenario wraps with `world.tool(t)`, keyed by the
// run's tool call number (every wrapped tool counts).
import type * as FastCheck from "fast-check";
import type { FaultParams, Fc } from "./_fault_kit.ts";

/** One kind of tool fault: its parameters and how they read. */
export interface ToolFault {
  readonly params: (fc: Fc) => FastCheck.Arbitrary<FaultParams>;
  readonly args: (params: FaultParams, tool: string) => string;
}

/** The waits `slowTool` draws from (ms of virtual time). */
export const SLOW_TOOL_MS = [30_000, 5000, 120_000] as const;

/** The tool faults by kind. */
export const TOOL_FAULTS: Readonly<Record<string, ToolFault>> = {
  // The tool throws; with ranFirst, after it ran (its side effect happened,
  // its answer was lost), which is what makes a retry run it twice.
  toolError: {
    params: (fc) => fc.record({ ranFirst: fc.boolean() }),
    args: (p, tool) => `${JSON.stringify(tool)}${p.ranFirst ? ", ranFirst=true" : ""}`,
  },
  // The tool answers, late.
  slowTool: {
    params: (fc) => fc.record({ v: fc.nat({ max: SLOW_TOOL_MS.length - 1 }) }),
    args: (p, tool) => `${JSON.stringify(tool)}, delayMs=${SLOW_TOOL_MS[p.v as number]}`,
  },
};
