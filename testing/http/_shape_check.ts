// The shape checker: what an answer lacks or has wrong against one kind of
// answer of the catalogue (_shapes.ts, which holds the data). Kept apart from
// the data so the logic's tests measure it whole.
//
// A path is dotted; `[]` is every element of an array, `[type=x]` every
// element whose `type` is x. A type is JSON's (`string`, `number`,
// `integer`, `boolean`, `null`, `object`, `array`), alternatives joined by
// `|`, or `@kind`: an object of another kind of the same API.
import type { ProviderApi } from "./_wire.ts";

/** One field of one kind of answer. */
export interface ShapeField {
  /** Where: `choices[].message.content`. */
  readonly path: string;
  /** Its JSON type(s): `string|null`, or `@kind`. */
  readonly type: string;
  /** Whether every answer of the kind carries it. */
  readonly always: boolean;
  /** Where the field is written down. */
  readonly source: string;
}

/** One kind of answer of one API: a body, or one stream event. */
export interface Shape {
  readonly api: ProviderApi;
  /** `chat.completion`, `response.created`, `message_start`, ... */
  readonly kind: string;
  /** When the API sends it. */
  readonly when: string;
  readonly fields: readonly ShapeField[];
}

function typeOf(v: unknown): string[] {
  if (v === null) return ["null"];
  if (Array.isArray(v)) return ["array"];
  if (typeof v === "number") return Number.isInteger(v) ? ["integer", "number"] : ["number"];
  return [typeof v];
}

type Step = { key: string } | { each: true; filter?: [string, string] };

function steps(path: string): Step[] {
  const out: Step[] = [];
  for (const seg of path.split(".")) {
    const m = /^([^[]*)((?:\[[^\]]*\])*)$/.exec(seg)!;
    if (m[1]) out.push({ key: m[1] });
    for (const b of m[2].match(/\[[^\]]*\]/g) ?? []) {
      const inner = b.slice(1, -1);
      if (inner === "") out.push({ each: true });
      else {
        const [k, v] = inner.split("=");
        out.push({ each: true, filter: [k, v] });
      }
    }
  }
  return out;
}

// One value a path reaches: where (concrete), the value (undefined when
// missing), and, when a step before the last was missing or null, the
// pattern of that step (`usage`, `choices[].message.tool_calls`).
type Reached = [where: string, value: unknown, gap?: string];

function reach(
  value: unknown,
  path: Step[],
  i: number,
  where: string,
  pattern: string,
  out: Reached[],
): void {
  if (i === path.length) return void out.push([where, value]);
  const step = path[i];
  if ("key" in step) {
    const o = value as Record<string, unknown>;
    const next = Object.hasOwn(o, step.key) ? o[step.key] : undefined;
    const at = where ? `${where}.${step.key}` : step.key;
    const pat = pattern ? `${pattern}.${step.key}` : step.key;
    if (i === path.length - 1) return void out.push([at, next]);
    if (next === undefined || next === null || typeof next !== "object") {
      return void out.push([at, next, pat]);
    }
    return reach(next, path, i + 1, at, pat, out);
  }
  if (!Array.isArray(value)) return void out.push([where, undefined, pattern]);
  const f = step.filter;
  value.forEach((el, k) => {
    if (f && (el as Record<string, unknown> | null)?.[f[0]] !== f[1]) return;
    if (el === null || typeof el !== "object") {
      if (i === path.length - 1) out.push([`${where}[${k}]`, el]);
      else out.push([`${where}[${k}]`, el, `${pattern}[]`]);
      return;
    }
    reach(el, path, i + 1, `${where}[${k}]`, `${pattern}[]`, out);
  });
}

const unfiltered = (path: string): string => path.replace(/\[[^\]]+\]/g, "[]");

/**
 * What `value` lacks or has wrong against `shape`: each a sentence naming the
 * path (`usage.prompt_tokens_details.cached_tokens: missing`). A field not
 * `always` is checked only where present; a field below a parent the
 * catalogue lists as optional (or nullable, and null) is not missing when the
 * parent is not there. `kindOf` finds the shape an `@kind` field names.
 */
export function shapeProblems(
  value: unknown,
  shape: Shape,
  kindOf: (api: ProviderApi, kind: string) => Shape,
): string[] {
  const problems: string[] = [];
  if (value === null || typeof value !== "object") {
    return [`(the answer): ${typeOf(value)[0]}, not an object`];
  }
  const declared = new Map(shape.fields.map((f) => [unfiltered(f.path), f]));
  for (const f of shape.fields) {
    const found: Reached[] = [];
    reach(value, steps(f.path), 0, "", "", found);
    for (const [where, v, gap] of found) {
      if (gap !== undefined) {
        // A parent is missing (or null): its own row says whether that is wrong.
        const parent = declared.get(gap);
        if (!f.always || parent) continue;
        problems.push(`${where}: missing (so ${f.path} is)`);
        continue;
      }
      if (v === undefined) {
        if (f.always) problems.push(`${where}: missing`);
        continue;
      }
      if (f.type.startsWith("@")) {
        for (const p of shapeProblems(v, kindOf(shape.api, f.type.slice(1)), kindOf)) {
          problems.push(`${where}.${p}`);
        }
        continue;
      }
      const types = typeOf(v);
      if (!f.type.split("|").some((t) => types.includes(t))) {
        problems.push(`${where}: ${types[0]}, not ${f.type}`);
      }
    }
  }
  return [...new Set(problems)];
}
