// Random option bags for every public entry that takes one: each is a valid
// object or a clear error (never an internal TypeError from deep inside,
// never a hang). Keys are drawn from the valid ones, near misses and noise;
// values from the bad-value lists and from anything at all.
import fc from "fast-check";
import { assert } from "@std/assert";
import { ENTRIES } from "./_entries.ts";
import { fuzz, isInternalError, noHang } from "./_fuzz.ts";

const names = Object.keys(ENTRIES).filter((n) => ENTRIES[n].fuzz !== false);

function keysOf(entry: string): string[] {
  const e = ENTRIES[entry];
  return [...Object.keys(e.bad), ...Object.keys(e.base ?? {})];
}

const bag = fc.constantFrom(...names).chain((entry) => {
  const e = ENTRIES[entry];
  const keys = keysOf(entry);
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...keys) },
    { weight: 1, arbitrary: fc.constantFrom(...keys).map((k) => k.toLowerCase()) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const badValues = Object.values(e.bad).flat();
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...badValues) },
    { weight: 2, arbitrary: fc.anything() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return fc.record({
    entry: fc.constant(entry),
    options: fc.dictionary(key, value, { maxKeys: 4 }).map((o) => ({ ...e.base, ...o })),
  });
});

Deno.test("fuzz: random option bags get a valid object or a clear error", async () => {
  await fuzz("option bags", 31, 400, () =>
    fc.asyncProperty(bag, async ({ entry, options }) => {
      try {
        const made = await noHang(
          Promise.resolve().then(() => ENTRIES[entry].call(options)),
          2_000,
        );
        // Something built must have been built whole.
        assert(made === undefined || made !== null);
        await (made as { [Symbol.asyncDispose]?: () => Promise<void> })?.[Symbol.asyncDispose]?.();
      } catch (error) {
        assert(
          !isInternalError(error),
          `${entry}(${Deno.inspect(options)}) crashed inside: ${(error as Error)?.stack ?? error}`,
        );
      }
    }));
});
