// Shared settings for the fuzzers: each property runs under a fixed seed (the
// same cases every time, so CI is stable) and under a fresh random seed that
// is logged (so a failure found once can be replayed with FUZZ_SEED=<seed>).
// `deno task test` keeps each run to a few seconds; `deno task fuzz` sets
// FUZZ_RUNS and FUZZ_TIME_MS for a longer search.
import fc from "fast-check";

function envNumber(name: string, fallback: number): number {
  let raw: string | undefined;
  try {
    raw = Deno.env.get(name);
  } catch {
    return fallback; // no --allow-env
  }
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) ? n : fallback;
}

/** The seeds a property runs under: the fixed one, then a random (or given) one. */
export function seeds(fixed: number): number[] {
  const given = envNumber("FUZZ_SEED", NaN);
  const random = Number.isFinite(given) ? given : Math.floor(Math.random() * 2 ** 31);
  return [fixed, random];
}

/** fast-check parameters for one seed, bounded by runs and by time. */
export function params<T>(seed: number, runs: number): fc.Parameters<T> {
  return {
    seed,
    numRuns: envNumber("FUZZ_RUNS", runs),
    // Stop early rather than overrun the suite's time budget.
    interruptAfterTimeLimit: envNumber("FUZZ_TIME_MS", 3_000),
    markInterruptAsFailure: false,
  };
}

/**
 * Runs `property` under the fixed seed and a logged random one. The seed is
 * in the failure message too, to replay it.
 */
export async function fuzz<T>(
  name: string,
  fixed: number,
  runs: number,
  property: (seed: number) => fc.IAsyncPropertyWithHooks<T> | fc.IAsyncProperty<T>,
): Promise<void> {
  for (const seed of seeds(fixed)) {
    if (seed !== fixed) console.log(`${name}: random seed ${seed} (replay with FUZZ_SEED=${seed})`);
    try {
      await fc.assert(property(seed), params<T>(seed, runs));
    } catch (error) {
      throw new Error(`${name} failed under seed ${seed}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/** Races `promise` against a real-time guard, so a hang is a failure, not a stuck suite. */
export async function noHang<T>(promise: Promise<T>, ms = 5_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung: no result within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error the package should never let out: a crash from deep inside, not a message. */
export function isInternalError(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  return /Cannot read propert|is not a function|is not iterable|Cannot convert|undefined is not|null is not|Maximum call stack|is not defined|hung: no result/
    .test(error.message);
}
