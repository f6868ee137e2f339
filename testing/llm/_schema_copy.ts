// A private copy of a schema that the generator and the validator
// (@cfworker/json-schema) read alike. The validator stamps the schema it
// indexes and crashes or misjudges on keywords of the wrong type, which the
// generator ignores; so the copy drops those, refuses what no validator
// reads (an object cycle, a dangling $ref, a bad regular expression) with
// the path, and is bounded in size before any work is done on it.
import { dereference } from "@cfworker/json-schema";
import { bound, keywordAt, LIMITS } from "./_schema_limits.ts";
import { pointer, SchemaUnsatisfiable } from "./_schema_unsatisfiable.ts";

/**
 * Where `format` goes in the copy. Under JSON Schema 2020-12 a format is an
 * annotation, and validators disagree on the strict ones (`time` with or
 * without an offset), so only the generator reads it.
 */
export const FORMAT: unique symbol = Symbol("format");
/** Where a `pattern` valid only outside unicode mode goes: the validator reads patterns as `u`. */
export const LOOSE_PATTERN: unique symbol = Symbol("pattern");

/** The copy, and the index of every part by absolute URI that resolves its `$ref`s. */
export interface Prepared {
  readonly root: unknown;
  readonly lookup: Readonly<Record<string, unknown>>;
}

/** The absolute URI a part's `$ref` resolves to, as the validator stamped it. */
export function absoluteRef(part: object): string | undefined {
  return (part as { __absolute_ref__?: string }).__absolute_ref__;
}

/** Marks `part` (a merge the generator made) as resolving its `$ref` to `uri`. */
export function stampRef(part: object, uri: string | undefined): void {
  if (uri !== undefined) Object.defineProperty(part, "__absolute_ref__", { value: uri });
}

/** The root's absolute URI: the base the validator gives a schema without `$id`. */
export const ROOT_URI = "https://github.com/cfworker";

// Keywords whose value is a schema, a list of schemas, or a map of them.
const ONE = new Set([
  "additionalItems",
  "unevaluatedItems",
  "items",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
]);
const LIST = new Set(["prefixItems", "items", "allOf", "anyOf", "oneOf"]);
const MAP = new Set([
  "$defs",
  "definitions",
  "properties",
  "patternProperties",
  "dependentSchemas",
]);
// Bounds that mean something only as numbers.
const NUMBERS = [
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
];

/** Copies `schema` for generation and validation; throws what makes it unreadable. */
export function prepare(schema: unknown): Prepared {
  const copier = new Copier();
  const root = copier.schema(schema === undefined ? true : schema, "#", 0);
  let lookup: Record<string, unknown>;
  try {
    lookup = dereference(root as never);
  } catch (error) {
    throw new SchemaUnsatisfiable("#", `the validator cannot index the schema: ${message(error)}`);
  }
  for (const [part, path] of copier.refs) {
    const ref = part.$ref as string;
    const uri = absoluteRef(part) ?? "";
    if (lookup[uri] !== undefined) continue;
    // A pointer to what is no schema (`5`) is indexed for the generator to
    // refuse with what it found.
    const found = ref.startsWith("#/") ? at(root, ref.slice(2)) : undefined;
    if (found !== undefined) {
      lookup[uri] = found;
      continue;
    }
    throw new SchemaUnsatisfiable(
      path,
      ref.startsWith("#")
        ? `$ref ${ref} points at nothing`
        : `only local $refs are supported (a JSON pointer, an $anchor or an $id in the same schema), got ${
          JSON.stringify(ref)
        }`,
    );
  }
  return { root, lookup };
}

class Copier {
  readonly refs: [Record<string, unknown>, string][] = [];
  #nodes = 0;
  readonly #open = new Set<object>();

  schema(node: unknown, path: string, nesting: number): unknown {
    if (node === null || typeof node !== "object" || Array.isArray(node)) {
      return this.data(node, path, nesting);
    }
    return this.#enter(node, path, nesting, () => {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(node)) {
        const value = (node as Record<string, unknown>)[key];
        if (value === undefined) continue;
        const at = `${path}/${pointer(key)}`;
        out[key] = this.#keyword(key, value, at, nesting + 1);
      }
      normalize(out, path);
      if (typeof out.$ref === "string") this.refs.push([out, path]);
      return out;
    });
  }

  #keyword(key: string, value: unknown, at: string, nesting: number): unknown {
    if (LIST.has(key) && Array.isArray(value)) {
      return this.#enter(
        value,
        at,
        nesting,
        () => value.map((s, i) => this.schema(s, `${at}/${i}`, nesting + 1)),
      );
    }
    if ((MAP.has(key) || key === "dependencies") && isPlain(value)) {
      return this.#enter(value, at, nesting, () => {
        const out: Record<string, unknown> = {};
        for (const name of Object.keys(value)) {
          const s = value[name];
          const here = `${at}/${pointer(name)}`;
          // draft 7's dependencies: a list of names, or a schema.
          out[name] = Array.isArray(s)
            ? this.data(s, here, nesting + 1)
            : this.schema(s, here, nesting + 1);
        }
        return out;
      });
    }
    if (ONE.has(key)) return this.schema(value, at, nesting);
    return this.data(value, at, nesting);
  }

  data(node: unknown, path: string, nesting: number): unknown {
    if (node === null || typeof node !== "object") {
      this.#count(path);
      return typeof node === "function" || typeof node === "symbol" ? undefined : node;
    }
    return this.#enter(node, path, nesting, () => {
      if (Array.isArray(node)) {
        return node.map((v, i) => this.data(v, `${path}/${i}`, nesting + 1) ?? null);
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(node)) {
        const v = this.data(
          (node as Record<string, unknown>)[key],
          `${path}/${pointer(key)}`,
          nesting + 1,
        );
        if (v !== undefined) out[key] = v;
      }
      return out;
    });
  }

  #enter<T>(node: object, path: string, nesting: number, copy: () => T): T {
    if (this.#open.has(node)) {
      throw new SchemaUnsatisfiable(
        path,
        "the schema contains itself (an object cycle); write the recursion as a $ref",
      );
    }
    this.#count(path);
    if (nesting > LIMITS.nesting) {
      bound(keywordAt(path), path, nesting, LIMITS.nesting, "levels of nesting in the schema");
    }
    this.#open.add(node);
    try {
      return copy();
    } finally {
      this.#open.delete(node);
    }
  }

  #count(path: string): void {
    // The keyword is worked out only for the error: this runs for every value.
    if (++this.#nodes > LIMITS.schemaNodes) {
      bound(keywordAt(path), path, this.#nodes, LIMITS.schemaNodes, "values in the schema");
    }
  }
}

// Keywords of the wrong type are dropped: the generator ignores them, and
// the validator would crash or misjudge on them.
function normalize(s: Record<string, unknown>, path: string): void {
  // draft 4's boolean exclusive bounds, as the numbers 2020-12 has.
  for (
    const [exclusive, inclusive] of [["exclusiveMinimum", "minimum"], [
      "exclusiveMaximum",
      "maximum",
    ]]
  ) {
    if (s[exclusive] === true && typeof s[inclusive] === "number") {
      s[exclusive] = s[inclusive];
      delete s[inclusive];
    } else if (typeof s[exclusive] !== "number") delete s[exclusive];
  }
  for (const key of NUMBERS) if (key in s && typeof s[key] !== "number") delete s[key];
  if (!(typeof s.multipleOf === "number" && s.multipleOf > 0 && Number.isFinite(s.multipleOf))) {
    delete s.multipleOf;
  }
  if (typeof s.format === "string") (s as Record<symbol, unknown>)[FORMAT] = s.format;
  delete s.format;
  if (typeof s.pattern === "string") {
    if (!regExp(s.pattern, "u")) {
      if (!regExp(s.pattern, "")) {
        throw new SchemaUnsatisfiable(
          `${path}/pattern`,
          `${JSON.stringify(s.pattern)} is not a valid regular expression`,
        );
      }
      (s as Record<symbol, unknown>)[LOOSE_PATTERN] = s.pattern;
      delete s.pattern;
    }
  } else delete s.pattern;
  if (isPlain(s.patternProperties)) {
    for (const p of Object.keys(s.patternProperties)) {
      if (regExp(p, "u")) continue;
      throw new SchemaUnsatisfiable(
        `${path}/patternProperties/${pointer(p)}`,
        `${
          JSON.stringify(p)
        } is not a valid regular expression in unicode mode, as JSON Schema reads patterns`,
      );
    }
  }
  for (const key of ["enum", "allOf", "anyOf", "oneOf", "prefixItems", "required"]) {
    if (key in s && !Array.isArray(s[key])) delete s[key];
  }
  if (Array.isArray(s.required)) s.required = s.required.filter((k) => typeof k === "string");
  for (const key of [...MAP, "dependentRequired", "dependencies"]) {
    if (key in s && !isPlain(s[key])) delete s[key];
  }
  if (isPlain(s.dependentRequired)) {
    const deps = s.dependentRequired;
    for (const k of Object.keys(deps)) if (!Array.isArray(deps[k])) delete deps[k];
  }
  if (s.uniqueItems !== true) delete s.uniqueItems;
  if ("$ref" in s && typeof s.$ref !== "string") delete s.$ref;
}

// The value a JSON pointer (without its `#/`) names in `root`.
function at(root: unknown, pointer: string): unknown {
  let here = root;
  for (const raw of pointer.split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (here === null || typeof here !== "object" || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

function regExp(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
