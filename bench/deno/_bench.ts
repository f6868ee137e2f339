/**
 * Registers a {@linkcode BenchCase} with `Deno.bench`.
 *
 * @module
 */
import type { BenchCase } from "./_cases.ts";

/**
 * Registers `c` as a Deno benchmark named by its id. A single-use case builds
 * its state outside the timed region (`b.start()`/`b.end()`); a reusable one
 * is rebuilt inline every `uses` runs, a cost spread over those runs.
 *
 * @param c The case.
 * @param group The `deno bench` group it is compared within.
 */
export function bench(c: BenchCase, group: string): void {
  if (c.uses === 1) {
    Deno.bench({
      name: c.id,
      group,
      async fn(b) {
        const run = c.prepare();
        b.start();
        await run();
        b.end();
      },
    });
    return;
  }
  let run = c.prepare();
  let left = c.uses;
  Deno.bench({
    name: c.id,
    group,
    async fn() {
      if (left-- <= 0) {
        run = c.prepare();
        left = c.uses - 1;
      }
      await run();
    },
  });
}
