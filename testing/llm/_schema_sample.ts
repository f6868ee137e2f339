// A deterministic value that satisfies a JSON Schema, for FakeLLM.auto().
// Each schema part yields candidate values lazily, the most telling first
// (required properties, the first enum value, the first branch that can be
// satisfied, a real value before null); a part whose keywords relate values
// (not, oneOf, if, contains, propertyNames, dependencies, allOf, ...) and
// the root take the first candidate that a real validator accepts, so that
// what is served is valid however it was reached. Sizes are checked before
// they are built and all work draws on one budget (see _schema_limits.ts);
// what cannot be satisfied is reported with the path into the schema.
import { Checker } from "./_schema_check.ts";
import { absoluteRef, prepare, type Prepared, ROOT_URI } from "./_schema_copy.ts";
import { bound, Budget, keywordAt, LIMITS } from "./_schema_limits.ts";
import { AND, both, isObject, mergeTwo, type Schema } from "./_schema_merge.ts";
import { number, string } from "./_schema_scalar.ts";
import { clip, pointer, SchemaUnsatisfiable } from "./_schema_unsatisfiable.ts";
import { SchemaLimitExceeded } from "./schema_limit_exceeded.ts";

export { SchemaUnsatisfiable };

/**
 * A value satisfying `schema`, checked by the validator; the same schema
 * gives the same value. The work is drawn from `budget`.
 */
export function sample(schema: unknown, budget: Budget = new Budget()): unknown {
  const { root, lookup } = prepared(schema);
  const at: At = { path: "#", depth: 0, index: 0, variant: 0, refs: [ROOT_URI], minimal: false };
  return new Sampler(lookup, budget).value(root, at, true);
}

// Where generation is: the path into the schema, how deep, which item
// (`index` varies strings and numbers so that items differ), which variant
// of the choices, the $refs followed on the way, and whether one of them
// recurs (then only what is required is built, so a recursion ends).
// A tool's schema is offered on every call of a run: its prepared copy is
// kept per schema object, and used again only while the schema's JSON text
// is the same, so a test that edits its schema between calls gets a fresh
// one. The text costs a fraction of the copy it saves.
const PREPARED = new WeakMap<object, { readonly text: string; readonly copy: Prepared }>();

function prepared(schema: unknown): Prepared {
  if (typeof schema !== "object" || schema === null) return prepare(schema);
  let text: string;
  let nodes = 0;
  try {
    // Bounded as prepare() is: a document that shares its parts can be far
    // larger written out than in memory, and prepare() refuses it by count.
    text = JSON.stringify(schema, (_key, v) => {
      if (++nodes > LIMITS.schemaNodes) throw new RangeError("too large");
      return v;
    });
  } catch {
    return prepare(schema); // too large, a cycle or a BigInt: prepare() says what is wrong
  }
  const kept = PREPARED.get(schema);
  if (kept !== undefined && kept.text === text) return kept.copy;
  const copy = prepare(schema);
  PREPARED.set(schema, { text, copy });
  return copy;
}

interface At {
  readonly path: string;
  readonly depth: number;
  readonly index: number;
  readonly variant: number;
  readonly refs: readonly string[];
  readonly minimal: boolean;
}

// Keywords whose meaning the building only approximates: the value is
// checked by the validator where one of them is.
const CHECKED = [
  "not",
  "anyOf",
  "oneOf",
  "allOf",
  "if",
  "const",
  "enum",
  "contains",
  "propertyNames",
  "patternProperties",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "uniqueItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  // A $ref's target is merged with its siblings, and may hold any of these.
  "$ref",
];
const RECURSES = "the schema recurses without an end";
// What a failed branch costs, in steps.
const FAILURE = 10;
// Keywords that say nothing of what is valid.
const NEUTRAL = new Set([
  "title",
  "description",
  "$comment",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$defs",
  "definitions",
  "$anchor",
]);

// Whether `s` asks anything of a value (beyond what `except` says).
function constrains(s: Schema, except?: string): boolean {
  // Own enumerable keys: the validator's stamps are hidden, the copy's symbols are not.
  const keys = [...Object.keys(s), ...Object.getOwnPropertySymbols(s)];
  return keys.some((k) => k !== except && !NEUTRAL.has(k as string));
}
// How often one $ref may recur on one path.
const ENDLESS = 4;
// Every type, in the order tried when a schema names none.
const ANY = ["string", "number", "boolean", "null", "object", "array"];

type Candidates = Generator<unknown, void, undefined>;

class Sampler {
  readonly #lookup: Readonly<Record<string, unknown>>;
  readonly #budget: Budget;
  readonly #checker: Checker;
  readonly #regexps = new Map<string, RegExp>();
  readonly #failures = new Map<string, string>();

  constructor(lookup: Readonly<Record<string, unknown>>, budget: Budget) {
    this.#lookup = lookup;
    this.#budget = budget;
    this.#checker = new Checker(lookup, budget);
  }

  // The first candidate for `schema`, or, where it is checked (and always
  // at the root), the first the validator accepts among a few.
  value(schema: unknown, at: At, root = false): unknown {
    this.#budget.step(at.path);
    const candidates = this.#candidates(schema, at);
    if (!root && !this.#checked(schema)) return candidates.next().value;
    const seen = new Set<string>();
    let problem: string | undefined;
    for (let tries = 0; tries < LIMITS.tries; tries++) {
      let next: IteratorResult<unknown>;
      try {
        next = candidates.next();
      } catch (error) {
        // Out of candidates after some were refused: the refusal says more.
        if (problem === undefined || !(error instanceof SchemaUnsatisfiable)) throw error;
        break;
      }
      if (next.done) break;
      const key = JSON.stringify(next.value);
      if (seen.has(key)) continue;
      seen.add(key);
      const found = this.#checker.problem(next.value, schema ?? true, at.path);
      if (found === undefined) return next.value;
      problem ??= found;
    }
    throw new SchemaUnsatisfiable(
      at.path,
      `no value FakeLLM.auto built satisfies the schema (${seen.size} tried); the validator's first error: ${problem}`,
    );
  }

  // Whether a value for `schema` must be checked: it holds a keyword the
  // building only approximates.
  #checked(schema: unknown): boolean {
    return isObject(schema) && CHECKED.some((k) => k in schema);
  }

  *#candidates(schema: unknown, at: At): Candidates {
    this.#budget.step(at.path);
    this.#deep(at);
    const [target, derefAt] = this.#deref(schema, at);
    let here = derefAt;
    // Anything will do: "a", whatever the item (another type or index is
    // only a variant).
    if (target === true || target === undefined) {
      return yield* this.#typed({}, { ...here, index: 0 });
    }
    if (target === false) {
      throw new SchemaUnsatisfiable(here.path, "the schema is false (nothing is valid)");
    }
    if (!isObject(target)) {
      throw new SchemaUnsatisfiable(
        here.path,
        `a schema must be an object, got ${JSON.stringify(target)}`,
      );
    }
    const [s, at2] = Array.isArray(target.allOf) ? this.#merge(target, here) : [target, here];
    here = at2;
    // A const or an enum value is taken as it is, but only one of the type
    // the schema asks for (an allOf part may add the type).
    const fits = (v: unknown) => s.type === undefined || [s.type].flat().some((t) => isOf(v, t));
    if ("const" in s) {
      if (fits(s.const)) return yield s.const;
      throw new SchemaUnsatisfiable(
        here.path,
        `const ${JSON.stringify(s.const)} is not of type ${JSON.stringify(s.type)}`,
      );
    }
    if (Array.isArray(s.enum)) {
      const values = s.enum.filter(fits);
      if (values.length === 0) {
        throw new SchemaUnsatisfiable(
          here.path,
          s.enum.length ? `no enum value is of type ${JSON.stringify(s.type)}` : "enum is empty",
        );
      }
      const start = here.index + here.variant;
      for (let k = 0; k < values.length; k++) yield values[(start + k) % values.length];
      return;
    }
    if ("if" in s) return yield* this.#condition(s, here);
    for (const key of ["anyOf", "oneOf"] as const) {
      if (Array.isArray(s[key])) return yield* this.#branches(s, key, here);
    }
    const later = s[AND];
    if (Array.isArray(later) && later.length) {
      // A second list of branches, folded in now that the first is chosen.
      const { [AND]: _, ...rest } = s;
      const [next, ...more] = later;
      const [merged, mergedAt] = this.#with(more.length ? { ...rest, [AND]: more } : rest, [[
        next,
        here.path,
      ]], here);
      return yield* this.#candidates(merged, mergedAt);
    }
    yield* this.#typed(s, here);
  }

  #deep(at: At): void {
    if (at.depth <= LIMITS.depth) return;
    if (at.minimal) throw new SchemaUnsatisfiable(at.path, RECURSES);
    throw new SchemaLimitExceeded({
      keyword: keywordAt(at.path),
      path: at.path,
      value: at.depth,
      limit: LIMITS.depth,
      measure: "levels of schema nesting",
    });
  }

  // `schema` with its $refs followed; siblings of a $ref hold too.
  #deref(schema: unknown, at: At): [unknown, At] {
    if (!isObject(schema) || typeof schema.$ref !== "string") return [schema, at];
    // prepare() resolved every $ref, and only its parts hold one.
    const uri = absoluteRef(schema) as string;
    const target = this.#lookup[uri];
    const here: At = {
      ...at,
      depth: at.depth + 1,
      refs: [...at.refs, uri],
      minimal: at.minimal || at.refs.includes(uri),
    };
    this.#deep(here);
    // Building only what is required, a $ref met again poses the same
    // problem again: a few times over, it is one without an end (and
    // giving up early keeps two recursive branches from doubling the work
    // at every level).
    if (here.refs.filter((r) => r === uri).length > ENDLESS) {
      throw new SchemaUnsatisfiable(at.path, RECURSES);
    }
    const [resolved, there] = this.#deref(target, here);
    const { $ref: _, ...siblings } = schema;
    if (!constrains(siblings)) return [resolved, there];
    if (resolved === true) return [siblings, there];
    return [isObject(resolved) ? { allOf: [resolved, siblings] } : resolved, there];
  }

  // Every part of allOf holds: merged into one schema to build from.
  #merge(s: Schema, at: At): [Schema, At] {
    const { allOf, ...rest } = s;
    const parts = (allOf as unknown[]).map((p, i) => [p, `${at.path}/allOf/${i}`] as const);
    return this.#with(rest, parts, at);
  }

  // `rest` with each part merged in; the $refs followed on the way are
  // on the path from then on, so a recursion through them is seen.
  #with(rest: Schema, parts: readonly (readonly [unknown, string])[], at: At): [Schema, At] {
    let out = rest;
    const refs = [...at.refs];
    let minimal = at.minimal;
    for (const [part, path] of parts) {
      const partAt = { ...at, path, depth: at.depth + 1 };
      this.#deep(partAt);
      const [p, there] = this.#deref(part, partAt);
      if (p === true) continue;
      if (p === false) {
        throw new SchemaUnsatisfiable(path, "the schema is false (nothing is valid)");
      }
      if (!isObject(p)) {
        throw new SchemaUnsatisfiable(path, `a schema must be an object, got ${JSON.stringify(p)}`);
      }
      const [merged, mergedAt] = Array.isArray(p.allOf) ? this.#merge(p, there) : [p, there];
      refs.push(...mergedAt.refs.slice(at.refs.length));
      minimal ||= mergedAt.minimal;
      out = mergeTwo(out, merged, path);
    }
    return [out, { ...at, refs, minimal }];
  }

  // if/then/else: a value that meets `if` and `then`, else one for `else`
  // (which the check then holds to failing `if`).
  #condition(s: Schema, at: At): Candidates {
    const { if: condition, then: yes, else: no, ...rest } = s;
    const options: [string, readonly (readonly [unknown, string])[]][] = [
      ["then", [[condition, `${at.path}/if`], [yes ?? true, `${at.path}/then`]]],
      ["else", [[no ?? true, `${at.path}/else`]]],
    ];
    return this.#alternatives(
      "if/then/else",
      options.map(([key, parts]) => () => {
        const [merged, mergedAt] = this.#with(rest, parts, at);
        return this.#candidates(merged, {
          ...mergedAt,
          path: `${at.path}/${key}`,
          depth: at.depth + 1,
        });
      }),
      at,
    );
  }

  #branches(s: Schema, key: "anyOf" | "oneOf", at: At): Candidates {
    const { [key]: list, ...rest } = s;
    // A nullable branch is the last resort, as a real value says more;
    // in a recursion it is the first, as it ends the recursion.
    const weight = (b: unknown) => Number(isNull(b)) * (at.minimal ? -1 : 1);
    const order = (list as unknown[]).map((b, i) => [b, i] as const).sort(([a], [b]) =>
      weight(a) - weight(b)
    );
    return this.#alternatives(
      key,
      order.map(([branch, i]) => () => {
        const path = `${at.path}/${key}/${i}`;
        return this.#remembered(this.#memo(rest, branch, at), path, () => {
          // The branch holds with the schema around it.
          const [merged, mergedAt] = this.#with(rest, [[branch, path]], at);
          return this.#candidates(merged, { ...mergedAt, path, depth: at.depth + 1 });
        });
      }),
      at,
    );
  }

  // A branch that is a bare $ref, with nothing around it, poses the same
  // problem wherever it is met: its failure is remembered, so that $refs
  // whose branches lead to the same $refs cost their number, not the
  // number of paths through them (2^n for n levels of two).
  #memo(rest: Schema, branch: unknown, at: At): string | undefined {
    if (constrains(rest) || !isObject(branch) || typeof branch.$ref !== "string") return undefined;
    if (constrains(branch, "$ref")) return undefined;
    return `${absoluteRef(branch)} ${at.index} ${at.variant} ${at.minimal}`;
  }

  *#remembered(key: string | undefined, path: string, make: () => Candidates): Candidates {
    const known = key === undefined ? undefined : this.#failures.get(key);
    if (known !== undefined) throw new SchemaUnsatisfiable(path, known);
    let yielded = false;
    try {
      for (const value of make()) {
        yielded = true;
        yield value;
      }
    } catch (error) {
      // A recursion ends by the path it took: that failure is not the $ref's.
      if (
        key !== undefined && !yielded && error instanceof SchemaUnsatisfiable &&
        !error.message.includes(RECURSES)
      ) this.#failures.set(key, error.reason);
      throw error;
    }
  }

  // Candidates from each alternative in turn, one at a time, so that the
  // second is tried before the first has given all of its variants.
  *#alternatives(key: string, options: readonly (() => Candidates)[], at: At): Candidates {
    const live: (Candidates | undefined)[] = options.map(() => undefined);
    const dead = new Set<number>();
    const reasons: string[] = [];
    while (dead.size < options.length) {
      for (let i = 0; i < options.length; i++) {
        if (dead.has(i)) continue;
        let next: IteratorResult<unknown>;
        try {
          live[i] ??= options[i]();
          next = live[i]!.next();
        } catch (error) {
          if (!(error instanceof SchemaUnsatisfiable)) throw error;
          // A failure unwinds the generators it passed through: it costs
          // more than a step, and the budget says so.
          this.#budget.step(at.path, FAILURE);
          reasons.push(clip(error.message));
          dead.add(i);
          continue;
        }
        if (next.done) {
          dead.add(i);
          continue;
        }
        yield next.value;
      }
    }
    // Out of branches. After values the check refused, what it said is
    // reported instead (see value()).
    throw new SchemaUnsatisfiable(
      at.path,
      `no branch of ${key} can be satisfied (${reasons.join("; ")})`,
    );
  }

  // Values of the schema's types in turn, then the same with other items
  // and variants: a type that cannot be built is not tried again.
  *#typed(s: Schema, at: At): Candidates {
    const types = typesOf(s, at.minimal);
    const failed = new Set<string>();
    let first: SchemaUnsatisfiable | undefined;
    for (let v = 0; v < LIMITS.tries; v++) {
      const variant = at.variant + v;
      const type = types[variant % types.length];
      if (failed.has(type)) continue;
      const shift = Math.floor(variant / types.length);
      let value: unknown;
      try {
        // The type used the variant up to `shift`: what is inside varies by the rest.
        value = this.#build(
          type,
          s,
          { ...at, index: at.index + shift, variant: shift },
          shift % 2 === 1,
        );
      } catch (error) {
        // With no type named, the one the keywords suggest failing says
        // more than a value of another type would.
        if (
          !(error instanceof SchemaUnsatisfiable) || (s.type === undefined && type === types[0])
        ) {
          throw error;
        }
        failed.add(type);
        first ??= error;
        continue;
      }
      yield value;
    }
    if (failed.size === types.length) throw first;
  }

  #build(type: string, s: Schema, at: At, half: boolean): unknown {
    switch (type) {
      case "object":
        return this.#object(s, at);
      case "array":
        return this.#array(s, at);
      case "string":
        return string(s, at.path, at.index, this.#budget);
      case "number":
      case "integer":
        return number(s, at.path, at.index, type === "integer", half);
      case "boolean":
        return at.index % 2 === 1;
      case "null":
        return null;
      default:
        throw new SchemaUnsatisfiable(at.path, `unknown type ${JSON.stringify(type)}`);
    }
  }

  #object(schema: Schema, at: At): Record<string, unknown> {
    let s = schema;
    // A present key's dependent schema holds for the whole object: merged
    // in, and the keys chosen again.
    const applied = new Set<string>();
    let keys = this.#keys(s, at);
    for (;;) {
      const deps = dependentSchemas(s);
      const key = [...keys.keys()].find((k) => Object.hasOwn(deps, k) && !applied.has(k));
      if (key === undefined) break;
      applied.add(key);
      [s] = this.#with(s, [[deps[key], `${at.path}/dependentSchemas/${pointer(key)}`]], at);
      keys = this.#keys(s, at);
    }
    const out: Record<string, unknown> = {};
    for (const [key, extra] of keys) {
      const [sub, from] = this.#propertySchema(s, key, at);
      const path = extra === 0 ? `${at.path}/properties/${pointer(key)}` : from;
      if (sub === false) {
        throw new SchemaUnsatisfiable(
          `${at.path}/required`,
          `"${key}" is required but no property schema allows it`,
        );
      }
      out[key] = this.value(sub, { ...at, path, depth: at.depth + 1, index: extra || at.index });
    }
    if (typeof s.maxProperties === "number" && keys.size > s.maxProperties) {
      throw new SchemaUnsatisfiable(
        at.path,
        `maxProperties ${s.maxProperties} is below the ${keys.size} required properties`,
      );
    }
    return out;
  }

  // The keys to build, each with 0 or, for a name made up to reach
  // minProperties, its 1-based number.
  #keys(s: Schema, at: At): Map<string, number> {
    const properties = isObject(s.properties) ? s.properties : {};
    const keys = new Map<string, number>();
    for (const k of listOf(s.required)) keys.set(k as string, 0);
    const min = typeof s.minProperties === "number" ? s.minProperties : 0;
    bound("minProperties", at.path, min, LIMITS.properties, "properties in one object");
    // Up to minProperties with the optional properties, in order.
    for (const k of Object.keys(properties)) {
      if (keys.size >= min) break;
      if (properties[k] !== false) keys.set(k, 0);
    }
    // A present key's dependentRequired names are present too.
    for (const k of keys.keys()) {
      for (const d of dependents(s, k)) if (!keys.has(d)) keys.set(d, 0);
    }
    let extra = 0;
    let misses = 0;
    while (keys.size < min) {
      this.#budget.step(at.path);
      const name = this.#extraName(s, at, ++extra);
      if (name === undefined) {
        throw new SchemaUnsatisfiable(
          at.path,
          `minProperties ${min} needs more properties than it allows`,
        );
      }
      if (!keys.has(name)) keys.set(name, extra);
      else if (++misses > LIMITS.tries) {
        const from = s.propertyNames === undefined ? "patternProperties" : "propertyNames";
        throw new SchemaUnsatisfiable(
          `${at.path}/${from}`,
          `cannot make ${min} distinct property names`,
        );
      }
    }
    return keys;
  }

  // The `n`th name for a property no schema names: one propertyNames
  // allows, else one a patternProperties matches when no other is
  // allowed, else `key<n>`.
  #extraName(s: Schema, at: At, n: number): string | undefined {
    if (s.propertyNames !== undefined && s.propertyNames !== true) {
      const name = this.value({ allOf: [{ type: "string" }, s.propertyNames] }, {
        ...at,
        path: `${at.path}/propertyNames`,
        depth: at.depth + 1,
        index: n - 1,
      });
      return name as string;
    }
    const closed = s.additionalProperties === false ||
      (s.additionalProperties === undefined && s.unevaluatedProperties === false);
    if (!closed) return `key${n}`;
    const patterns = Object.entries(isObject(s.patternProperties) ? s.patternProperties : {})
      .filter(([, sub]) => sub !== false).map(([p]) => p);
    if (patterns.length === 0) return undefined;
    const pattern = patterns[(n - 1) % patterns.length];
    return this.value({ type: "string", pattern }, {
      ...at,
      path: `${at.path}/patternProperties/${pointer(pattern)}`,
      depth: at.depth + 1,
      index: Math.floor((n - 1) / patterns.length),
    }) as string;
  }

  // The schema a key's value must satisfy: its property's and every
  // matching patternProperties', else additionalProperties; with the path
  // of the first.
  #propertySchema(s: Schema, key: string, at: At): [unknown, string] {
    const parts: unknown[] = [];
    const paths: string[] = [];
    if (isObject(s.properties) && Object.hasOwn(s.properties, key)) {
      parts.push(s.properties[key]);
      paths.push(`${at.path}/properties/${pointer(key)}`);
    }
    for (
      const [p, sub] of Object.entries(isObject(s.patternProperties) ? s.patternProperties : {})
    ) {
      if (!this.#regexp(p).test(key)) continue;
      parts.push(sub);
      paths.push(`${at.path}/patternProperties/${pointer(p)}`);
    }
    if (parts.length === 0) {
      const other = s.additionalProperties ?? s.unevaluatedProperties ?? true;
      return [other, `${at.path}/additionalProperties`];
    }
    return [parts.reduce(both), paths[0]];
  }

  #regexp(pattern: string): RegExp {
    let r = this.#regexps.get(pattern);
    if (!r) this.#regexps.set(pattern, r = new RegExp(pattern, "u"));
    return r;
  }

  #array(s: Schema, at: At): unknown[] {
    // draft 7's tuple: a list of items, then additionalItems.
    const tuple = Array.isArray(s.items);
    const prefix =
      (Array.isArray(s.prefixItems) ? s.prefixItems : tuple ? s.items : []) as unknown[];
    const rest = (tuple ? s.additionalItems : s.items) ?? s.unevaluatedItems ?? true;
    const min = typeof s.minItems === "number" ? s.minItems : 0;
    const max = typeof s.maxItems === "number" ? s.maxItems : Infinity;
    if (min > max) {
      throw new SchemaUnsatisfiable(at.path, `minItems ${min} is above maxItems ${max}`);
    }
    bound("minItems", at.path, min, LIMITS.items, "items in one array");
    const need = s.contains === undefined
      ? 0
      : typeof s.minContains === "number"
      ? s.minContains
      : 1;
    bound("minContains", at.path, need, LIMITS.items, "items in one array");
    const most = s.contains !== undefined && typeof s.maxContains === "number"
      ? s.maxContains
      : Infinity;
    if (need > most) {
      throw new SchemaUnsatisfiable(at.path, `minContains ${need} is above maxContains ${most}`);
    }
    if (need > max) {
      throw new SchemaUnsatisfiable(at.path, `contains needs ${need} items, above maxItems ${max}`);
    }
    const open = rest !== false;
    if (!open && min > prefix.length) {
      throw new SchemaUnsatisfiable(at.path, `minItems ${min} but items is false`);
    }
    // One item says more than none, where the schema allows it; in a
    // recursion, no more than it needs. An item schema nothing satisfies is
    // reported even where no item is needed: it is a mistake worth naming.
    const length = at.minimal
      ? Math.max(min, need)
      : Math.min(Math.max(min, prefix.length, 1, need), max);
    return this.#items(s, at, length, prefix, rest, need, most);
  }

  #items(
    s: Schema,
    at: At,
    length: number,
    prefix: readonly unknown[],
    rest: unknown,
    need: number,
    most: number,
  ): unknown[] {
    const { contains } = s;
    const open = rest !== false;
    const tuple = Array.isArray(s.items);
    const [prefixAt, restAt] = tuple ? ["items", "additionalItems"] : ["prefixItems", "items"];
    const size = open ? length : Math.min(length, prefix.length);
    // The items contains counts go after the prefix where items allow it,
    // else at the first places that can hold one.
    const order = contains === undefined
      ? range(0, size)
      : [...range(prefix.length, size), ...range(0, Math.min(prefix.length, size))];
    const seen = s.uniqueItems === true ? new Set<string>() : undefined;
    const out: unknown[] = new Array(size);
    let owed = need;
    let refused: SchemaUnsatisfiable | undefined;
    for (const i of order) {
      const here = i < prefix.length
        ? { ...at, path: `${at.path}/${prefixAt}/${i}`, depth: at.depth + 1, index: i }
        : { ...at, path: `${at.path}/${restAt}`, depth: at.depth + 1, index: i };
      const base = i < prefix.length ? prefix[i] : rest;
      // One item of `rest` that cannot hold contains says that none can.
      if (owed > 0 && !(refused && i >= prefix.length)) {
        try {
          out[i] = this.#item(
            both(base, contains),
            { ...here, path: `${at.path}/contains` },
            seen,
            size,
          );
          owed--;
          continue;
        } catch (error) {
          if (!(error instanceof SchemaUnsatisfiable)) throw error;
          refused ??= error;
        }
      }
      out[i] = this.#item(
        most === Infinity ? base : both(base, { not: contains }),
        here,
        seen,
        size,
      );
    }
    if (owed > 0) {
      throw refused && owed === need ? refused : new SchemaUnsatisfiable(
        `${at.path}/contains`,
        `${need} items must satisfy contains, and only ${need - owed} can`,
      );
    }
    return out;
  }

  // An item; under uniqueItems, one unlike those before it, found among
  // the values of later indexes.
  #item(schema: unknown, at: At, seen: Set<string> | undefined, length: number): unknown {
    for (let k = 0; k <= (seen ? LIMITS.tries : 0); k++) {
      const value = this.value(schema, {
        ...at,
        index: at.index + k * length,
        variant: at.variant + k,
      });
      const key = JSON.stringify(value);
      if (!seen || !seen.has(key)) {
        seen?.add(key);
        return value;
      }
    }
    const parent = at.path.replace(/\/(?:contains|items|prefixItems\/\d+)$/, "");
    throw new SchemaUnsatisfiable(`${parent}/items`, `cannot make ${length} distinct items`);
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

function listOf(list: unknown): unknown[] {
  return Array.isArray(list) ? list : [];
}

// dependentRequired, and draft 7's dependencies that list names.
function dependents(s: Schema, key: string): string[] {
  const names = [];
  for (const deps of [s.dependentRequired, s.dependencies]) {
    if (!isObject(deps) || !Object.hasOwn(deps, key)) continue;
    names.push(...listOf(deps[key]).filter((d): d is string => typeof d === "string"));
  }
  return names;
}

// dependentSchemas, and draft 7's dependencies that are schemas.
function dependentSchemas(s: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isObject(s.dependencies)) {
    for (const [k, v] of Object.entries(s.dependencies)) if (!Array.isArray(v)) out[k] = v;
  }
  return isObject(s.dependentSchemas) ? { ...out, ...s.dependentSchemas } : out;
}

// Whether `v` is of the JSON Schema type `type`.
function isOf(v: unknown, type: unknown): boolean {
  switch (type) {
    case "null":
      return v === null;
    case "integer":
      return Number.isInteger(v);
    case "array":
      return Array.isArray(v);
    case "object":
      return isObject(v);
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    default:
      return false;
  }
}

function isNull(s: unknown): boolean {
  return (s as Schema | null)?.type === "null";
}

// The types to try, in order: the one named, a real one before null (null
// first in a recursion), or, with none named, the one the keywords suggest
// and then every other.
function typesOf(s: Schema, minimal: boolean): string[] {
  const t = s.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) {
    if (t.length === 0) return ["never"];
    const real = t.filter((x) => x !== "null");
    const nulls = t.length > real.length ? ["null"] : [];
    return [...new Set((minimal ? [...nulls, ...real] : [...real, ...nulls]) as string[])];
  }
  const inferred = infer(s);
  return [inferred, ...ANY.filter((x) => x !== inferred)];
}

// No type: infer one from the keywords, else any value will do.
function infer(s: Schema): string {
  if (
    s.properties || s.required || s.additionalProperties !== undefined || s.patternProperties ||
    s.dependentSchemas || s.dependentRequired
  ) return "object";
  if (s.items || s.prefixItems || s.minItems !== undefined || s.contains !== undefined) {
    return "array";
  }
  if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) {
    return "number";
  }
  return "string";
}
