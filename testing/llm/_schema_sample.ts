// A deterministic value that satisfies a JSON Schema, for FakeLLM.auto():
// required properties, const/enum (first value), anyOf/oneOf (first branch
// that can be satisfied), allOf (merged keyword by keyword: the stricter
// bound, the common type, both patterns, both schemas of a property or an
// item), local $refs (followed through $refs), string formats and
// lengths, number bounds and multipleOf, array lengths and unique items.
// What it cannot satisfy it reports with the path into the schema.

type Schema = Readonly<Record<string, unknown>>;

/** A schema no value can satisfy (or that uses what the generator cannot); `path` points into it. */
export class SchemaUnsatisfiable extends Error {
  /** The JSON pointer of the part that failed (`#/properties/port`). */
  readonly path: string;
  /** Why, in a few words. */
  readonly reason: string;
  /**
   * @param path The JSON pointer.
   * @param reason Why.
   */
  constructor(path: string, reason: string) {
    super(`at ${path}: ${reason}`);
    this.name = "SchemaUnsatisfiable";
    this.path = path;
    this.reason = reason;
  }
}

// Candidates per string format; the first that fits the length and pattern wins.
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  email: ["user@example.com", "a@example.com"],
  "idn-email": ["user@example.com"],
  uri: ["https://example.com/", "https://example.com"],
  url: ["https://example.com/", "https://example.com"],
  "uri-reference": ["https://example.com/", "/a"],
  iri: ["https://example.com/"],
  hostname: ["example.com"],
  "idn-hostname": ["example.com"],
  date: ["2024-01-01"],
  "date-time": ["2024-01-01T00:00:00Z", "2024-01-01T00:00:00.000Z", "2024-01-01T00:00:00"],
  time: ["00:00:00", "00:00:00Z", "00:00"],
  duration: ["P1D", "PT1S"],
  uuid: ["00000000-0000-4000-8000-000000000000"],
  guid: ["00000000-0000-4000-8000-000000000000"],
  ipv4: ["192.0.2.1"],
  ipv6: ["2001:db8::1"],
  cidrv4: ["192.0.2.0/24"],
  cidrv6: ["2001:db8::/32"],
  base64: ["YQ==", ""],
  base64url: ["YQ", ""],
  "json-pointer": ["/a", ""],
  regex: ["a", ".*"],
  emoji: ["😀"],
  nanoid: ["V1StGXR8_Z5jdHi6B-myT"],
  cuid: ["cjld2cjxh0000qzrmn831i7rn"],
  cuid2: ["tz4a98xxat96iws9zmbrgj3a"],
  ulid: ["01ARZ3NDEKTSV4RRFFQ69G5FAV"],
  e164: ["+14155552671"],
  jwt: ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"],
};

/**
 * A value satisfying `schema`; `index` varies strings and numbers so that
 * the items of one array differ.
 */
export function sample(schema: unknown, root: unknown = schema): unknown {
  return new Sampler(root).value(schema, "#", 0, 0);
}

class Sampler {
  readonly #root: unknown;
  constructor(root: unknown) {
    this.#root = root;
  }

  value(schema: unknown, path: string, index: number, depth: number): unknown {
    if (depth > 32) throw new SchemaUnsatisfiable(path, "the schema recurses without an end");
    if (schema === true || schema === undefined) return "a";
    if (schema === false) {
      throw new SchemaUnsatisfiable(path, "the schema is false (nothing is valid)");
    }
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
      throw new SchemaUnsatisfiable(
        path,
        `a schema must be an object, got ${JSON.stringify(schema)}`,
      );
    }
    let s = schema as Schema;
    if (typeof s.$ref === "string") {
      const { $ref, ...rest } = s;
      const target = this.#resolve($ref, path);
      // The target is a schema of its own: a boolean one stays boolean, and
      // one with a $ref of its own is followed in turn.
      return this.value(
        isObject(target) ? { ...target, ...rest } : target === true ? rest : target,
        path,
        index,
        depth + 1,
      );
    }
    if (Array.isArray(s.allOf)) s = this.#merge(s, path, depth);
    // A const or an enum value is taken as it is, but only one of the type
    // the schema asks for (an allOf part may add the type).
    const fits = (v: unknown) => s.type === undefined || [s.type].flat().some((t) => isOf(v, t));
    if ("const" in s) {
      if (fits(s.const)) return s.const;
      throw new SchemaUnsatisfiable(
        path,
        `const ${JSON.stringify(s.const)} is not of type ${JSON.stringify(s.type)}`,
      );
    }
    if (Array.isArray(s.enum)) {
      const values = s.enum.filter(fits);
      if (values.length > 0) return values[index % values.length];
      throw new SchemaUnsatisfiable(
        path,
        s.enum.length ? `no enum value is of type ${JSON.stringify(s.type)}` : "enum is empty",
      );
    }
    for (const key of ["anyOf", "oneOf"] as const) {
      const branches = s[key];
      if (!Array.isArray(branches)) continue;
      const reasons: string[] = [];
      // A nullable branch is the last resort: a real value says more.
      const order = branches.map((b, i) => [b, i] as const).sort(([a], [b]) =>
        Number(isNull(a)) - Number(isNull(b))
      );
      for (const [branch, i] of order) {
        try {
          const { [key]: _, ...rest } = s;
          const at = `${path}/${key}/${i}`;
          // The branch holds with the schema around it (merged as allOf
          // parts are); a boolean branch is a schema of its own: `false`
          // admits nothing, `true` adds nothing.
          return this.value(
            isObject(branch) ? mergeTwo(rest, branch, at) : branch === true ? rest : branch,
            at,
            index,
            depth + 1,
          );
        } catch (error) {
          if (!(error instanceof SchemaUnsatisfiable)) throw error;
          reasons.push(error.message);
        }
      }
      throw new SchemaUnsatisfiable(
        path,
        `no branch of ${key} can be satisfied (${reasons.join("; ")})`,
      );
    }
    const type = pickType(s);
    switch (type) {
      case "object":
        return this.#object(s, path, depth);
      case "array":
        return this.#array(s, path, depth);
      case "string":
        return string(s, path, index);
      case "number":
      case "integer":
        return number(s, path, index, type === "integer");
      case "boolean":
        return index % 2 === 1;
      case "null":
        return null;
      default:
        throw new SchemaUnsatisfiable(path, `unknown type ${JSON.stringify(type)}`);
    }
  }

  #resolve(ref: string, path: string): unknown {
    if (!ref.startsWith("#")) {
      throw new SchemaUnsatisfiable(
        path,
        `only local $refs are supported, got ${JSON.stringify(ref)}`,
      );
    }
    let at: unknown = this.#root;
    for (const raw of ref.slice(1).split("/").filter(Boolean)) {
      const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      at = (at as Record<string, unknown> | undefined)?.[part];
      if (at === undefined) throw new SchemaUnsatisfiable(path, `$ref ${ref} points at nothing`);
    }
    return at;
  }

  // Every part must hold: bounds take the stricter value, types their
  // common one, and schemas both parts give (a property, `items`) become the
  // allOf of the two, merged in turn when they are sampled.
  #merge(s: Schema, path: string, depth: number): Schema {
    if (depth > 32) throw new SchemaUnsatisfiable(path, "the schema recurses without an end");
    const { allOf, ...rest } = s;
    let out: Schema = rest;
    (allOf as unknown[]).forEach((part, i) => {
      const at = `${path}/allOf/${i}`;
      let p: unknown = part;
      if (isObject(p) && typeof p.$ref === "string") {
        const { $ref, ...siblings } = p;
        const target = this.#resolve($ref, at);
        p = isObject(target) ? { ...target, ...siblings } : target;
      }
      if (p === true) return;
      if (p === false) throw new SchemaUnsatisfiable(at, "the schema is false (nothing is valid)");
      if (!isObject(p)) {
        throw new SchemaUnsatisfiable(at, `a schema must be an object, got ${JSON.stringify(p)}`);
      }
      if (Array.isArray(p.allOf)) p = this.#merge(p, at, depth + 1);
      out = mergeTwo(out, p as Schema, at);
    });
    return out;
  }

  #object(s: Schema, path: string, depth: number): Record<string, unknown> {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(s.required) ? s.required as string[] : [];
    const keys = [...new Set(required)];
    // Fill up to minProperties with the optional properties, in order.
    const min = typeof s.minProperties === "number" ? s.minProperties : 0;
    for (const k of Object.keys(properties)) {
      if (keys.length >= min) break;
      if (!keys.includes(k)) keys.push(k);
    }
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const sub = Object.hasOwn(properties, key) ? properties[key] : s.additionalProperties;
      if (sub === false || (sub === undefined && s.additionalProperties === false)) {
        throw new SchemaUnsatisfiable(
          `${path}/required`,
          `"${key}" is required but no property schema allows it`,
        );
      }
      out[key] = this.value(sub ?? true, `${path}/properties/${pointer(key)}`, 0, depth + 1);
    }
    let extra = 0;
    while (Object.keys(out).length < min) {
      const add = s.additionalProperties;
      if (add === false) {
        throw new SchemaUnsatisfiable(
          path,
          `minProperties ${min} needs more properties than it allows`,
        );
      }
      out[`key${++extra}`] = this.value(
        add ?? true,
        `${path}/additionalProperties`,
        extra,
        depth + 1,
      );
    }
    if (typeof s.maxProperties === "number" && Object.keys(out).length > s.maxProperties) {
      throw new SchemaUnsatisfiable(
        path,
        `maxProperties ${s.maxProperties} is below the ${keys.length} required properties`,
      );
    }
    return out;
  }

  #array(s: Schema, path: string, depth: number): unknown[] {
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    const min = typeof s.minItems === "number" ? s.minItems : 0;
    const max = typeof s.maxItems === "number" ? s.maxItems : Infinity;
    if (min > max) throw new SchemaUnsatisfiable(path, `minItems ${min} is above maxItems ${max}`);
    // One item says more than none, where the schema allows it.
    const length = Math.min(Math.max(min, prefix.length, 1), max);
    const out: unknown[] = [];
    for (let i = 0; i < length; i++) {
      if (i < prefix.length) {
        out.push(this.value(prefix[i], `${path}/prefixItems/${i}`, i, depth + 1));
        continue;
      }
      if (s.items === false) {
        if (i < min) throw new SchemaUnsatisfiable(path, `minItems ${min} but items is false`);
        break;
      }
      out.push(this.value(s.items ?? true, `${path}/items`, i, depth + 1));
    }
    if (s.uniqueItems === true) {
      const seen = new Set(out.map((v) => JSON.stringify(v)));
      if (seen.size < out.length) {
        throw new SchemaUnsatisfiable(`${path}/items`, `cannot make ${out.length} distinct items`);
      }
    }
    return out;
  }
}

const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];

function mergeTwo(a: Schema, b: Schema, path: string): Schema {
  const out: Record<string, unknown> = { ...a, ...b };
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
  if (a.additionalProperties !== undefined && b.additionalProperties !== undefined) {
    out.additionalProperties = both(a.additionalProperties, b.additionalProperties);
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
  if (typeof a.pattern === "string" && typeof b.pattern === "string" && a.pattern !== b.pattern) {
    // Both must match: lookaheads from the start (a `^` in either still
    // anchors there, as nothing is consumed before it).
    out.pattern = `^(?=[\\s\\S]*?(?:${a.pattern}))(?=[\\s\\S]*?(?:${b.pattern}))`;
  }
  // (a1 | a2) & (b1 | b2) is (a1 & b1) | (a1 & b2) | (a2 & b1) | (a2 & b2).
  for (const key of ["anyOf", "oneOf"]) {
    const [x, y] = [a[key], b[key]];
    if (Array.isArray(x) && Array.isArray(y)) {
      out[key] = x.flatMap((p) => y.map((q) => ({ allOf: [p, q] })));
    }
  }
  if (isObject(a.properties) || isObject(b.properties)) {
    // A key one part names and the other does not is, for the other, an
    // additional property.
    const keys = new Set([...keysOf(a.properties), ...keysOf(b.properties)]);
    out.properties = Object.fromEntries(
      [...keys].map((key) => [key, both(propertyOf(a, key), propertyOf(b, key))]),
    );
  }
  if (Array.isArray(a.required) && Array.isArray(b.required)) {
    out.required = [...a.required, ...b.required];
  }
  return out;
}

function keysOf(properties: unknown): string[] {
  return isObject(properties) ? Object.keys(properties) : [];
}

function propertyOf(s: Schema, key: string): unknown {
  const own = isObject(s.properties) && Object.hasOwn(s.properties, key);
  return (own ? (s.properties as Schema)[key] : s.additionalProperties) ?? true;
}

function lengthOf(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

// The schema of what satisfies both `a` and `b`.
function both(a: unknown, b: unknown): unknown {
  return a === false || b === false ? false : { allOf: [a, b] };
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

function isObject(s: unknown): s is Schema {
  return s !== null && typeof s === "object" && !Array.isArray(s);
}

function isNull(s: unknown): boolean {
  return (s as Schema | null)?.type === "null";
}

function pickType(s: Schema): string {
  const t = s.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) {
    if (t.length === 0) return "never";
    return (t.find((x) => x !== "null") ?? "null") as string;
  }
  // No type: infer from the keywords, else any value will do.
  if (s.properties || s.required || s.additionalProperties !== undefined) return "object";
  if (s.items || s.prefixItems || s.minItems !== undefined) return "array";
  if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) {
    return "number";
  }
  return "string";
}

function string(s: Schema, path: string, index: number): string {
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
  if (min > max) throw new SchemaUnsatisfiable(path, `minLength ${min} is above maxLength ${max}`);
  const pattern = typeof s.pattern === "string" ? safeRegExp(s.pattern, path) : undefined;
  const format = typeof s.format === "string" ? s.format : undefined;
  const letter = String.fromCharCode(97 + (index % 26));
  const plain = [letter, "a", "example", "A", "0", "a1", "aa", "a-b", "a_b", "a.b", ""];
  let candidates: string[];
  if (format && FORMATS[format]) candidates = [...FORMATS[format]];
  else candidates = plain.map((c) => fit(c, min, max, letter));
  if (pattern && !candidates.some((c) => pattern.test(c))) {
    const made = fromPattern(s.pattern as string);
    if (made !== undefined) candidates.unshift(fit(made, min, max, letter), made);
  }
  const length = (c: string) => [...c].length;
  const ok = candidates.find((c) =>
    length(c) >= min && length(c) <= max && (!pattern || pattern.test(c))
  );
  if (ok !== undefined) return ok;
  throw new SchemaUnsatisfiable(
    path,
    pattern
      ? `cannot generate a string matching pattern ${JSON.stringify(s.pattern)}${
        format ? ` with format "${format}"` : ""
      } within length ${min}..${max}; give the tool a simpler schema or script the call`
      : `no ${format ? `"${format}" ` : ""}string fits length ${min}..${max}`,
  );
}

// Pads or cuts `base` into [min, max] characters.
function fit(base: string, min: number, max: number, pad: string): string {
  let out = base;
  while (out.length < min) out += pad;
  return out.length > max ? out.slice(0, Math.max(min, max === Infinity ? out.length : max)) : out;
}

// A string for the simplest patterns: literal text with ^ and $ anchors,
// character classes and counted repeats (`^[a-z]{3}-\d+$`).
function fromPattern(pattern: string): string | undefined {
  let out = "";
  let i = pattern.startsWith("^") ? 1 : 0;
  while (i < pattern.length) {
    let atom: string;
    const c = pattern[i];
    // A last `$` met here is the end anchor: an escaped one (`\$`) was
    // taken with its backslash, and `\\$` is a backslash, then the anchor.
    if (c === "$" && i === pattern.length - 1) break;
    if (c === "\\") {
      const e = pattern[i + 1];
      atom = e === "d" ? "0" : e === "w" ? "a" : e === "s" ? " " : /[a-zA-Z]/.test(e) ? "" : e;
      if (atom === "") return undefined;
      i += 2;
    } else if (c === "[") {
      const close = pattern.indexOf("]", i + 1);
      if (close < 0) return undefined;
      const body = pattern.slice(i + 1, close);
      if (body.startsWith("^")) return undefined;
      atom = body.startsWith("\\d") ? "0" : body[0] === "\\" ? body[1] : body[0];
      i = close + 1;
    } else if ("()|.*+?{".includes(c)) {
      return undefined;
    } else {
      atom = c;
      i++;
    }
    let count = 1;
    const q = pattern[i];
    if (q === "+") i++;
    else if (q === "*" || q === "?") {
      count = 0;
      i++;
    } else if (q === "{") {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i));
      if (!m) return undefined;
      count = Number(m[1]);
      i += m[0].length;
    }
    out += atom.repeat(count);
  }
  return out;
}

function safeRegExp(pattern: string, path: string): RegExp {
  try {
    return new RegExp(pattern, "u");
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      throw new SchemaUnsatisfiable(
        `${path}/pattern`,
        `${JSON.stringify(pattern)} is not a valid regular expression`,
      );
    }
  }
}

function number(s: Schema, path: string, index: number, integer: boolean): number {
  let lo = -Infinity;
  let hi = Infinity;
  let loOpen = false;
  let hiOpen = false;
  if (typeof s.minimum === "number") lo = s.minimum;
  if (typeof s.exclusiveMinimum === "number" && s.exclusiveMinimum >= lo) {
    [lo, loOpen] = [s.exclusiveMinimum, true];
  } else if (s.exclusiveMinimum === true) loOpen = true; // draft 4
  if (typeof s.maximum === "number") hi = s.maximum;
  if (typeof s.exclusiveMaximum === "number" && s.exclusiveMaximum <= hi) {
    [hi, hiOpen] = [s.exclusiveMaximum, true];
  } else if (s.exclusiveMaximum === true) hiOpen = true;
  const step = typeof s.multipleOf === "number" && s.multipleOf > 0
    ? s.multipleOf
    : integer
    ? 1
    : 0;
  const inRange = (v: number) =>
    (loOpen ? v > lo : v >= lo) && (hiOpen ? v < hi : v <= hi) &&
    (!integer || Number.isInteger(v)) && (!step || isMultiple(v, step));
  // Near zero when allowed (0, 1, 2, ... by index), else the smallest valid value above the minimum.
  const preferred = index;
  if (inRange(preferred)) return preferred;
  if (inRange(0)) return 0;
  const candidates: number[] = [];
  if (lo !== -Infinity) {
    const from = step ? Math.ceil(lo / step) * step : integer ? Math.ceil(lo) : lo;
    candidates.push(
      from,
      from + (step || 1),
      loOpen && !step && !integer ? lo + (hi - lo) / 2 : from,
    );
  }
  if (hi !== Infinity) {
    const from = step ? Math.floor(hi / step) * step : integer ? Math.floor(hi) : hi;
    candidates.push(from, from - (step || 1));
  }
  // Closest to zero first.
  candidates.sort((a, b) => Math.abs(a) - Math.abs(b));
  for (const c of candidates) {
    const v = roundTo(c, step);
    if (Number.isFinite(v) && inRange(v)) return v;
  }
  throw new SchemaUnsatisfiable(
    path,
    `no ${integer ? "integer" : "number"} is ${loOpen ? ">" : ">="} ${lo} and ${
      hiOpen ? "<" : "<="
    } ${hi}${step && step !== 1 ? ` and a multiple of ${step}` : ""}`,
  );
}

function isMultiple(v: number, step: number): boolean {
  const q = v / step;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

// Undoes float noise (0.1 * 3 = 0.30000000000000004) in multiples of a decimal step.
function roundTo(v: number, step: number): number {
  if (!step) return v;
  const decimals = (String(step).split(".")[1] ?? "").length;
  return Number(v.toFixed(Math.min(decimals + 2, 20)));
}

function pointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
