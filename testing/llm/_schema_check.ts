// The judge of what FakeLLM.auto() generates: a real JSON Schema validator
// (@cfworker/json-schema, draft 2020-12), so that a value is served only if
// a validator accepts it, however the generator reached it. Its work is
// paid from the generation's budget: each check costs the size of the
// value, and each $ref it follows a step, so a schema of $refs that branch
// cannot make a check run for long.
import { validate } from "@cfworker/json-schema";
import type { Budget } from "./_schema_limits.ts";
import { ROOT_URI } from "./_schema_copy.ts";

/** Checks values against parts of one prepared schema. */
export class Checker {
  readonly #lookup: Readonly<Record<string, unknown>>;
  readonly #budget: Budget;

  /**
   * @param lookup The prepared schema's index of parts by URI.
   * @param budget The generation's budget.
   */
  constructor(lookup: Readonly<Record<string, unknown>>, budget: Budget) {
    this.#lookup = lookup;
    this.#budget = budget;
  }

  /**
   * The validator's first error for `value` against `schema` (the part at
   * `path`), worded with the path into the whole schema; `undefined` when
   * the value is valid.
   */
  problem(value: unknown, schema: unknown, path: string): string | undefined {
    this.#budget.step(path, size(value));
    const budget = this.#budget;
    const lookup = this.#lookup;
    // A merge the generator made keeps its $ref unstamped: it is read
    // against the root, as the generator read it.
    const counted = new Proxy(lookup, {
      get(target, uri: string) {
        budget.step(`${path}/$ref`);
        return target[uri] ?? target[`${ROOT_URI}${uri}`];
      },
    });
    let result: ReturnType<typeof validate>;
    try {
      result = validate(value, schema as never, "2020-12", counted as never, true);
    } catch (error) {
      // A cycle of $refs that never steps into the value (`not` → $ref →
      // `else` → $ref back) recurses until the stack runs out: the value
      // cannot be judged, which is the schema's fault, and says so.
      if (!(error instanceof RangeError)) throw error;
      return `the validator cannot finish (${error.message}): a cycle of $refs returns to the same value without a keyword that steps into it; break the cycle`;
    }
    if (result.valid) return undefined;
    // The innermost error of the first failure says what is wrong, not only where.
    const error = result.errors[result.errors.length - 1];
    const where = `${path}${error.keywordLocation.slice(1)}`;
    const at = error.instanceLocation === "#"
      ? "the value"
      : `the value at ${error.instanceLocation}`;
    return `${at} fails ${where}: ${error.error}`;
  }
}

// The number of JSON values in `value` (what a check walks), counted without recursion.
function size(value: unknown): number {
  let n = 0;
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    n++;
    if (v !== null && typeof v === "object") stack.push(...Object.values(v));
  }
  return n;
}
