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

// Work for the injected slowdown: a loop of arithmetic, `iterations` long.
let sink = 0;
function busy(iterations: number): void {
  let x = sink;
  for (let i = 0; i < iterations; i++) x = (x * 31 + i) | 0;
  sink = x;
}

/**
 * The ratios of the single turn, the stream and the 2-step tool loop to the
 * floor. With `slowTool` above 1, the tool of the loop does work before it
 * answers, `slowTool - 1` times what a whole run of the loop costs unslowed
 * (sized first, in this process, as the check measures), so the loop costs about `slowTool` times as much, as if the tool path had
 * got that much slower. It is the check's own proof that it catches a
 * regression (`--slow-tool=3`).
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
    // Sized by the measure itself, not by a clock in the tool (a clock read
    // costs this VM up to several µs, and a spin timed by one, or sized by a
    // timing of the loop of arithmetic alone, came out 1.6x to 9x): the loop
    // unslowed, the loop with a trial amount of work, and so the work that
    // adds `slowTool - 1` times the loop's own cost.
    const calibrate = { rounds: 20, batchMs: options.batchMs };
    const trial = 2_000;
    const [plain] = await ratios([react2()], calibrate);
    const [tried] = await ratios([react2(() => busy(trial))], calibrate);
    const perIteration = Math.max((tried.us - plain.us) / trial, 1e-6);
    const iterations = Math.round(((slowTool - 1) * plain.us) / perIteration);
    toolWork = () => busy(iterations);
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
  /** `slower` over the median `slower` of the runtime's paths in the same run. */
  readonly relative: number | undefined;
  readonly ok: boolean;
}

/**
 * Each measured path against the baseline. A path fails when its ratio to
 * the floor is more than {@linkcode THRESHOLD} times the committed one, or
 * when it got more than {@linkcode THRESHOLD} times slower than the paths
 * measured with it did (its `slower` over their median `slower`). The second
 * test is the steady one: under load the floor's own time moves, and with it
 * every path's ratio alike (one run of 20 read all three at 0.58x their
 * committed ratios, where a 3x slower path reads 1.74x), while one path's
 * ratio to its neighbours, all of them agentkit, stays. A regression of every
 * path at once is left to the first test. A path with no committed ratio
 * fails: a check that compares with nothing cannot fail.
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
  const slowers = measured.map((m) => {
    const base = baseline[runtime]?.[m.id];
    return base === undefined ? undefined : m.ratio / base;
  });
  const known = slowers.filter((x): x is number => x !== undefined).sort((a, b) => a - b);
  const typical = known.length ? known[Math.floor(known.length / 2)] : undefined;
  return measured.map((m, i) => {
    const slower = slowers[i];
    const relative = slower === undefined || typical === undefined ? undefined : slower / typical;
    return {
      runtime,
      id: m.id,
      baseline: baseline[runtime]?.[m.id],
      ratio: m.ratio,
      slower,
      relative,
      ok: slower !== undefined && slower <= THRESHOLD && relative! <= THRESHOLD,
    };
  });
}
