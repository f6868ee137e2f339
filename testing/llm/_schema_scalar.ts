// The leaves of a generated value: a string that fits a format, lengths and
// a pattern, and a number within bounds and a step. Sizes are checked
// against the limits before anything is built.
import { FORMAT, LOOSE_PATTERN } from "./_schema_copy.ts";
import { bound, type Budget, LIMITS } from "./_schema_limits.ts";
import { SchemaUnsatisfiable } from "./_schema_unsatisfiable.ts";

type Schema = Readonly<Record<string | symbol, unknown>>;

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

/** The pattern a schema holds, whichever regular-expression mode reads it. */
export function patternOf(s: Schema): string | undefined {
  const p = s.pattern ?? s[LOOSE_PATTERN];
  return typeof p === "string" ? p : undefined;
}

/** The letters that vary the strings of an array: `a`…`z`, then `aa`, `ab`, …. */
export function letter(index: number): string {
  let out = "";
  let n = index;
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}

/** A string satisfying `s`'s format, lengths and pattern; `index` varies it. */
export function string(s: Schema, path: string, index: number, budget: Budget): string {
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
  if (min > max) throw new SchemaUnsatisfiable(path, `minLength ${min} is above maxLength ${max}`);
  bound("minLength", path, min, LIMITS.stringLength, "characters in one string");
  const source = patternOf(s);
  const pattern = source === undefined ? undefined : safeRegExp(source, path);
  const format = typeof s[FORMAT] === "string" ? s[FORMAT] as string : undefined;
  const first = letter(index);
  const plain = [first, "a", "example", "A", "0", "a1", "aa", "a-b", "a_b", "a.b", ""];
  let candidates: string[];
  if (format && FORMATS[format]) candidates = [...FORMATS[format]];
  else candidates = plain.map((c) => fit(c, min, max, first));
  if (pattern && !candidates.some((c) => pattern.test(c))) {
    const made = fromPattern(source as string, path);
    // Later items try the made string with their letter, so that they differ.
    const own = index > 0 && made !== undefined ? [made + first] : [];
    if (made !== undefined) candidates.unshift(...own, fit(made, min, max, first), made);
  }
  const length = (c: string) => [...c].length;
  const ok = candidates.find((c) =>
    length(c) >= min && length(c) <= max && (!pattern || pattern.test(c))
  );
  if (ok !== undefined) {
    budget.characters(path, ok.length);
    return ok;
  }
  throw new SchemaUnsatisfiable(
    path,
    pattern
      ? `cannot generate a string matching pattern ${JSON.stringify(source)}${
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
function fromPattern(pattern: string, path: string): string | undefined {
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
    // A counted repeat comes from the schema: `\d{1000000000}` must not be built.
    bound("pattern", path, out.length + count, LIMITS.stringLength, "characters in one string");
    out += atom.repeat(count);
  }
  return out;
}

// The pattern of a merge (two patterns in lookaheads) can be one no mode reads.
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

/**
 * A number satisfying `s`'s bounds and step: `index` when it fits (`half`:
 * `index + 0.5`, a number that is no integer), else the valid value nearest
 * zero.
 */
export function number(
  s: Schema,
  path: string,
  index: number,
  integer: boolean,
  half = false,
): number {
  let lo = -Infinity;
  let hi = Infinity;
  let loOpen = false;
  let hiOpen = false;
  if (typeof s.minimum === "number") lo = s.minimum;
  if (typeof s.exclusiveMinimum === "number" && s.exclusiveMinimum >= lo) {
    [lo, loOpen] = [s.exclusiveMinimum, true];
  }
  if (typeof s.maximum === "number") hi = s.maximum;
  if (typeof s.exclusiveMaximum === "number" && s.exclusiveMaximum <= hi) {
    [hi, hiOpen] = [s.exclusiveMaximum, true];
  }
  const step = typeof s.multipleOf === "number" && s.multipleOf > 0
    ? s.multipleOf
    : integer
    ? 1
    : 0;
  const inRange = (v: number) =>
    (loOpen ? v > lo : v >= lo) && (hiOpen ? v < hi : v <= hi) &&
    (!integer || Number.isInteger(v)) && (!step || isMultiple(v, step));
  // Near zero when allowed (0, 1, 2, ... by index), else the smallest valid value above the minimum.
  const preferred = half && !integer ? index + 0.5 : index;
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

/** Whether `v` is a multiple of `step`, float noise aside. */
export function isMultiple(v: number, step: number): boolean {
  const q = v / step;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

// Undoes float noise (0.1 * 3 = 0.30000000000000004) in multiples of a decimal step.
function roundTo(v: number, step: number): number {
  if (!step) return v;
  const decimals = (String(step).split(".")[1] ?? "").length;
  return Number(v.toFixed(Math.min(decimals + 2, 20)));
}
