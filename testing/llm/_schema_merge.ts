// allOf for the generator: one schema that asks for what two parts ask,
// keyword by keyword (the stricter bound, the common type, both patterns,
// both schemas of a property or an item). A merge is a plan to build from,
// not a judge: where it cannot say both parts exactly, the validator does.
import { LOOSE_PATTERN } from "./_schema_copy.ts";
import { isMultiple, patternOf } from "./_schema_scalar.ts";
import { SchemaUnsatisfiable } from "./_schema_unsatisfiable.ts";

/** A schema as the generator reads it: keywords, and the symbols the copy and merges add. */
export type Schema = Readonly<Record<string | symbol, unknown>>;

/**
 * Parts a merge could not fold in (a second `anyOf`, `oneOf` or `if`),
 * merged once a branch of the first is chosen: choosing lazily keeps two
 * lists of n branches at n + n tries, where their product would be n × n.
 */
export const AND: unique symbol = Symbol("and");

const LOWER = [
  "minimum",
  "exclusiveMinimum",
  "minLength",
  "minItems",
  "minProperties",
  "minContains",
];
const UPPER = [
  "maximum",
  "exclusiveMaximum",
  "maxLength",
  "maxItems",
  "maxProperties",
  "maxContains",
];
const CONDITION = ["if", "then", "else"];

/** One schema for what satisfies both `a` and `b` (both already free of `$ref` and `allOf`). */
export function mergeTwo(a: Schema, b: Schema, path: string): Schema {
  const out: Record<string | symbol, unknown> = { ...a, ...b };
  const later: unknown[] = [...listOf(a[AND]), ...listOf(b[AND])];
  for (const key of LOWER) {
    if (typeof a[key] === "number" && typeof b[key] === "number") {
      out[key] = Math.max(a[key] as number, b[key] as number);
    }
  }
  for (const key of UPPER) {
    if (typeof a[key] === "number" && typeof b[key] === "number") {
      out[key] = Math.min(a[key] as number, b[key] as number);
    }
  }
  if (typeof a.multipleOf === "number" && typeof b.multipleOf === "number") {
    out.multipleOf = commonMultiple(a.multipleOf, b.multipleOf, path);
  }
  if (a.type !== undefined && b.type !== undefined) out.type = commonType(a.type, b.type, path);
  if ("const" in a && "const" in b && !same(a.const, b.const)) {
    throw new SchemaUnsatisfiable(
      path,
      `allOf asks for const ${JSON.stringify(a.const)} and ${JSON.stringify(b.const)}`,
    );
  }
  if (Array.isArray(a.enum) && Array.isArray(b.enum)) {
    const other = b.enum;
    out.enum = a.enum.filter((x) => other.some((y) => same(x, y)));
  }
  for (const key of ["additionalProperties", "propertyNames", "contains"]) {
    if (a[key] !== undefined && b[key] !== undefined) out[key] = both(a[key], b[key]);
  }
  if (Array.isArray(a.prefixItems) || Array.isArray(b.prefixItems)) {
    // Position by position: each part's prefix item there, else its items.
    const at = (s: Schema, i: number) =>
      (Array.isArray(s.prefixItems) ? s.prefixItems[i] : undefined) ?? s.items ?? true;
    const length = Math.max(lengthOf(a.prefixItems), lengthOf(b.prefixItems));
    out.prefixItems = Array.from({ length }, (_, i) => both(at(a, i), at(b, i)));
  }
  if (a.items !== undefined && b.items !== undefined) out.items = both(a.items, b.items);
  if (a.uniqueItems === true) out.uniqueItems = true;
  const [pa, pb] = [patternOf(a), patternOf(b)];
  if (pa !== undefined && pb !== undefined && pa !== pb) {
    // Both must match: lookaheads from the start (a `^` in either still
    // anchors there, as nothing is consumed before it).
    delete out.pattern;
    delete out[LOOSE_PATTERN];
    out[readsAsUnicode(pa) && readsAsUnicode(pb) ? "pattern" : LOOSE_PATTERN] =
      `^(?=[\\s\\S]*?(?:${pa}))(?=[\\s\\S]*?(?:${pb}))`;
  }
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(a[key]) && Array.isArray(b[key])) {
      out[key] = a[key];
      later.push({ [key]: b[key] });
    }
  }
  // then and else belong to their own if: a part's if is never paired with
  // the other part's then.
  for (const key of CONDITION) delete out[key];
  const conditions = [a, b].filter((s) => "if" in s);
  if (conditions.length) Object.assign(out, pick(conditions[0], CONDITION));
  if (conditions.length > 1) later.push(pick(conditions[1], CONDITION));
  for (const key of ["properties", "patternProperties", "dependentSchemas"]) {
    if (!isObject(a[key]) && !isObject(b[key])) continue;
    // A key one part names and the other does not is, for the other, what
    // it says of any other key (for properties, additionalProperties).
    const names = new Set([...keysOf(a[key]), ...keysOf(b[key])]);
    out[key] = Object.fromEntries(
      [...names].map((name) => [name, both(entryOf(a, key, name), entryOf(b, key, name))]),
    );
  }
  if (Array.isArray(a.required) && Array.isArray(b.required)) {
    out.required = [...a.required, ...b.required];
  }
  if (isObject(a.dependentRequired) && isObject(b.dependentRequired)) {
    const deps: Record<string, unknown[]> = {};
    for (const s of [a.dependentRequired, b.dependentRequired]) {
      for (const [key, names] of Object.entries(s)) {
        deps[key] = [...(deps[key] ?? []), ...listOf(names)];
      }
    }
    out.dependentRequired = deps;
  }
  if (later.length) out[AND] = later;
  else delete out[AND];
  return out;
}

/** The schema of what satisfies both `a` and `b`. */
export function both(a: unknown, b: unknown): unknown {
  if (a === true) return b;
  if (b === true) return a;
  return a === false || b === false ? false : { allOf: [a, b] };
}

/** Whether `s` is a schema object (not a boolean, a list or nothing). */
export function isObject(s: unknown): s is Schema {
  return s !== null && typeof s === "object" && !Array.isArray(s);
}

/** Whether two JSON values are the same value. */
export function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function keysOf(map: unknown): string[] {
  return isObject(map) ? Object.keys(map) : [];
}

function entryOf(s: Schema, key: string, name: string): unknown {
  const map = s[key];
  if (isObject(map) && Object.hasOwn(map, name)) return map[name];
  return (key === "properties" ? s.additionalProperties : undefined) ?? true;
}

function lengthOf(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

function listOf(list: unknown): unknown[] {
  return Array.isArray(list) ? list : [];
}

function pick(s: Schema, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in s).map((k) => [k, s[k]]));
}

function readsAsUnicode(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

function commonType(a: unknown, b: unknown, path: string): string[] {
  const common = new Set<string>();
  for (const x of [a].flat() as string[]) {
    for (const y of [b].flat() as string[]) {
      if (x === y) common.add(x);
      else if ([x, y].includes("integer") && [x, y].includes("number")) common.add("integer");
    }
  }
  if (common.size === 0) {
    throw new SchemaUnsatisfiable(
      path,
      `allOf asks for type ${JSON.stringify(a)} and ${JSON.stringify(b)}`,
    );
  }
  return [...common];
}

function commonMultiple(a: number, b: number, path: string): number {
  if (isMultiple(a, b)) return a;
  if (isMultiple(b, a)) return b;
  if (Number.isInteger(a) && Number.isInteger(b)) return a / gcd(a, b) * b;
  throw new SchemaUnsatisfiable(path, `cannot combine multipleOf ${a} and ${b}`);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
