// How much FakeLLM.auto() generates and spends on one schema. Generation is
// synchronous, so no test timeout can stop it: every size a schema asks for
// is checked before it is built, and all the work of one generation draws on
// one budget, so a schema whose branches multiply fails fast instead of
// running for hours.
import { SchemaLimitExceeded } from "./schema_limit_exceeded.ts";

/** The limits, chosen far above what a tool's arguments or an answer need. */
export const LIMITS = {
  /** Characters in one generated string (`minLength`, a pattern's repeat). */
  stringLength: 10_000,
  /** Items in one generated array (`minItems`, `minContains`). */
  items: 1_000,
  /** Properties in one generated object (`minProperties`). */
  properties: 1_000,
  /** Levels of schema followed down from the root, `$ref`s and `allOf` included. */
  depth: 100,
  /** Levels of JSON nesting in the schema document itself. */
  nesting: 500,
  /** JSON values (objects, arrays, scalars) in the schema document. */
  schemaNodes: 50_000,
  /** Units of work in one generation: schema parts visited, values checked, `$ref`s looked up. */
  steps: 100_000,
  /** Characters in all the strings of one generated value. */
  characters: 1_000_000,
  /** Candidate values tried for one schema part the validator rejects. */
  tries: 12,
} as const;

/** Throws a {@linkcode SchemaLimitExceeded} when `value` is above `limit`. */
export function bound(
  keyword: string,
  path: string,
  value: number,
  limit: number,
  measure: string,
): void {
  if (value > limit) throw new SchemaLimitExceeded({ keyword, path, value, limit, measure });
}

/** The work of one generation, counted against {@linkcode LIMITS}. */
export class Budget {
  #steps = 0;
  #characters = 0;

  /** The steps spent so far. */
  get steps(): number {
    return this.#steps;
  }

  /** Spends `n` steps at `path`; throws when the budget is gone. */
  step(path: string, n = 1): void {
    this.#steps += n;
    // Checked before the keyword is worked out: this runs at every step.
    if (this.#steps > LIMITS.steps) {
      bound(keywordAt(path), path, this.#steps, LIMITS.steps, "steps of work");
    }
  }

  /** Spends `n` characters of output at `path`. */
  characters(path: string, n: number): void {
    this.#characters += n;
    if (this.#characters > LIMITS.characters) {
      bound(keywordAt(path), path, this.#characters, LIMITS.characters, "characters of output");
    }
  }
}

// Keywords whose value maps names to schemas: the segment after one is a
// name, not a keyword (as an all-digit segment is an index).
const NAMED = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/** The last keyword in a JSON pointer (`#/properties/anyOf/oneOf/2` → `oneOf`). */
export function keywordAt(path: string): string {
  let keyword = "schema";
  let named = false;
  for (const segment of path.split("/").slice(1)) {
    const position: boolean = named || /^\d+$/.test(segment);
    named = !position && NAMED.has(segment);
    if (!position) keyword = segment.replace(/~1/g, "/").replace(/~0/g, "~");
  }
  return keyword;
}
