// What a wire's strict rules are made of. Each wire declares its rules in a
// file of its own (`_<wire>_rules.ts`): a catalogue entry per rule id and one
// check that walks the request body once, testing every rule that is on. The
// catalogue (`WIRE_RULES`) and the provider's strict mode only see this shape,
// so a new wire brings its rules by adding a file and listing it in
// `wire_rules.ts`.
import type { ProviderApi, WireMemory } from "./_wire.ts";

/** A rule as its wire declares it: what it forbids, and where that is written down. */
export interface RuleInfo {
  /** What the rule rejects, as a sentence. */
  readonly description: string;
  /** Where the rule comes from: the provider's docs, its SDK, or its real error text (quoted). */
  readonly source: string;
}

/** A request a rule rejects: the provider's own text, and where in the body. */
export interface Violation {
  /** The rule's id. */
  readonly rule: string;
  /** The offending field, as a JS path: `messages[3].tool_call_id`. */
  readonly path: string;
  /** The provider's error text for it. */
  readonly text: string;
  /** OpenAI's `error.code`, when the provider sends one. */
  readonly code?: string;
}

/** Which rules are off (`strict: { except }`); every other rule is on. */
export type RulesOff = ReadonlySet<string>;

/** What a rule may read besides the body: the URL, and what this provider issued before. */
export interface RuleContext {
  /** The request's URL (Gemini names the model in the path). */
  readonly url: URL;
  /** What the provider gave in earlier answers (Gemini's thought signatures). */
  readonly memory: WireMemory;
}

/** One wire's rules. */
export interface RuleSet {
  /** The API the rules hold for. */
  readonly api: ProviderApi;
  /** The rules by id. */
  readonly rules: Readonly<Record<string, RuleInfo>>;
  /**
   * The first rule `body` breaks, in one pass over it, or undefined. `body` is
   * a JSON object; its other faults (no model, `messages` not an array) are
   * the wire's parse's to answer.
   */
  check(
    body: Readonly<Record<string, unknown>>,
    off: RulesOff,
    ctx?: RuleContext,
  ): Violation | undefined;
}

/**
 * A reader of which rules are on, by the names a wire's check uses: read once
 * a request rather than a `Set` lookup a message, and with nothing off (the
 * default) one frozen record shared by every request.
 */
export function ruleFlags<K extends string>(
  ids: Readonly<Record<K, string>>,
): (off: RulesOff) => Readonly<Record<K, boolean>> {
  const build = (off: RulesOff): Record<K, boolean> => {
    const on = {} as Record<K, boolean>;
    for (const k in ids) on[k] = !off.has(ids[k]);
    return on;
  };
  const allOn = Object.freeze(build(new Set()));
  return (off) => off.size === 0 ? allOn : build(off);
}

/** A plain JSON object, or undefined. */
export function obj(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/** How OpenAI names a JSON value's type in "expected X, but got Y instead". */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a decimal";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

// The characters of a tool name, by char code.
const NAME_CHAR = new Uint8Array(128);
for (const range of ["az", "AZ", "09", "__", "--"]) {
  for (let c = range.charCodeAt(0); c <= range.charCodeAt(1); c++) NAME_CHAR[c] = 1;
}

/**
 * Whether `name` matches `^[a-zA-Z0-9_-]{1,max}$`, the tool name pattern of
 * OpenAI and Anthropic: a table lookup a character, since every tool's name is
 * tested on every request and a regular expression costs several times as much.
 */
export function isToolName(name: string, max: number): boolean {
  const n = name.length;
  if (n === 0 || n > max) return false;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128 || NAME_CHAR[c] === 0) return false;
  }
  return true;
}

/** Whether `t` is a JSON Schema type name (draft 2020-12, §6.1.1 of the validation spec). */
export function isSchemaType(t: string): boolean {
  // A switch, not a Set: every tool's schema is walked on every request.
  switch (t) {
    case "object":
    case "string":
    case "integer":
    case "number":
    case "array":
    case "boolean":
    case "null":
      return true;
    default:
      return false;
  }
}

// The bad `type` value badType() found (one walk at a time: no await inside).
let found: unknown;

// The first bad `type` in a list of subschemas, its path below the list.
function badTypeIn(list: unknown, key: string): string | undefined {
  if (!Array.isArray(list)) return undefined;
  for (let i = 0; i < list.length; i++) {
    const sub = obj(list[i]);
    const bad = sub && badType(sub);
    if (bad) return `.${key}[${i}]${bad}`;
  }
  return undefined;
}

// The path below a schema to its first bad `type` (its value left in
// `found`), or undefined: a schema that passes builds no string.
function badType(schema: Record<string, unknown>): string | undefined {
  const t = schema.type;
  if (t !== undefined) {
    if (typeof t === "string") {
      if (!isSchemaType(t)) return found = t, ".type";
    } else if (Array.isArray(t)) {
      for (const n of t) {
        if (typeof n !== "string" || !isSchemaType(n)) return found = n, ".type";
      }
    } else return found = t, ".type";
  }
  const props = schema.properties;
  if (props !== null && typeof props === "object") {
    for (const k in props) {
      const sub = obj((props as Record<string, unknown>)[k]);
      const bad = sub && badType(sub);
      if (bad) return `.properties.${k}${bad}`;
    }
  }
  const items = schema.items;
  if (items !== undefined) {
    const sub = obj(items);
    const bad = sub && badType(sub);
    if (bad) return `.items${bad}`;
  }
  return badTypeIn(schema.anyOf, "anyOf") ?? badTypeIn(schema.oneOf, "oneOf") ??
    badTypeIn(schema.allOf, "allOf");
}

/**
 * The first `type` in a JSON Schema (at `schema` or below it) that is not a
 * JSON Schema type name, as `[path, value]`, or undefined. Walks the keywords
 * that hold subschemas; a tool's schema is small, and is walked once.
 */
export function badSchemaType(
  schema: Record<string, unknown>,
  path: string,
): [string, unknown] | undefined {
  const bad = badType(schema);
  return bad ? [path + bad, found] : undefined;
}
