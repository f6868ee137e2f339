/**
 * The hot paths the regression check watches, their ratios to the floor,
 * and the verdict against the committed baseline (bench/check/baseline.json).
 *
 * @module
 */
import { react2, singleTurn, streamed } from "../deno/_cases.ts";
import { type PathRatio, type RatioOptions, ratios } from "./_ratio.ts";

/** A path fails when its ratio to the floor is more than this many times the baseline's. */
export const THRESHOLD = 2;

/** The check's default knobs: a few seconds a runtime. */
export const DEFAULTS: RatioOptions = { rounds: 60, batchMs: 2 };

// Keeps the CPU busy for `us` µs.
function spin(us: number): void {
  const end = performance.now() + us / 1000;
  while (performance.now() < end) { /* busy */ }
}

/**
 * The ratios of the single turn, the stream and the 2-step tool loop to the
 * floor. With `slowTool` above 1, the tool of the loop keeps the CPU busy
 * before it answers, `slowTool - 1` times what a whole run of the loop costs
 * (timed first, in this process): the loop then costs about `slowTool` times as much,
 * as if the tool path had got that much slower. It is the check's own proof
 * that it catches a regression (`--slow-tool=3`).
 *
 * @param slowTool How many times slower the tool loop is made (1: not at all).
 * @param options Rounds and batch size.
 * @returns One result a path.
 */
export async function hotPaths(
  slowTool = 1,
  options: RatioOptions = DEFAULTS,
): Promise<PathRatio[]> {
  let toolWork: (() => void) | undefined;
  if (slowTool > 1) {
    const [loop] = await ratios([react2()], { rounds: 20, batchMs: options.batchMs });
    const extra = (slowTool - 1) * loop.us;
    toolWork = () => spin(extra);
  }
  return await ratios([singleTurn(), streamed(), react2(toolWork)], options);
}

/** The committed ratios, a runtime's by path id. */
export type Baseline = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** One path's verdict. */
export interface Verdict {
  readonly runtime: string;
  readonly id: string;
  readonly baseline: number | undefined;
  readonly ratio: number;
  /** The ratio over the baseline's. */
  readonly slower: number | undefined;
  readonly ok: boolean;
}

/**
 * Each measured path against the baseline: it fails when its ratio is more
 * than {@linkcode THRESHOLD} times the committed one. A path with no
 * committed ratio fails too: a check that compares with nothing cannot fail.
 *
 * @param runtime "deno" or "node".
 * @param measured The ratios just measured.
 * @param baseline The committed ratios.
 * @returns One verdict a path.
 */
export function compare(
  runtime: string,
  measured: readonly PathRatio[],
  baseline: Baseline,
): Verdict[] {
  return measured.map((m) => {
    const base = baseline[runtime]?.[m.id];
    const slower = base === undefined ? undefined : m.ratio / base;
    return {
      runtime,
      id: m.id,
      baseline: base,
      ratio: m.ratio,
      slower,
      ok: slower !== undefined && slower <= THRESHOLD,
    };
  });
}
