// Resource templates and completions of a FakeMcpServer. A template is
// `{ uriTemplate, name, mimeType?, description?, read(uri, vars) }` (MCP
// ResourceTemplate, server/resources 2025-11-25); `resources/read` of a URI
// no static resource has is matched against each template in order. The
// URI templates are RFC 6570's level 1 and 2 expressions as the SDK's
// UriTemplate reads them for matching (src/shared/uriTemplate.ts): `{var}`
// one segment (no "/"), `{+var}` anything.
import { checkOptions, describe, is, type Rule } from "../../runtime/internal.ts";
import { InvalidScript } from "../errors.ts";

/** A declared template, checked. */
export interface DeclaredTemplate {
  readonly uriTemplate: string;
  readonly listing: Readonly<Record<string, unknown>>;
  read(uri: string, vars: Record<string, string>): Promise<Record<string, unknown>>;
}

const FUNCTION: Rule = is.function;
const TEMPLATE_RULES: Readonly<Record<string, Rule>> = {
  uriTemplate: is.text,
  name: is.text,
  title: is.string,
  description: is.string,
  mimeType: is.text,
  read: FUNCTION,
};

function pattern(template: string): RegExp {
  let source = "";
  let last = 0;
  for (const m of template.matchAll(/\{(\+?)([A-Za-z0-9_]+)\}/g)) {
    source += escape(template.slice(last, m.index));
    source += m[1] === "+" ? `(?<${m[2]}>.*)` : `(?<${m[2]}>[^/]+)`;
    last = m.index! + m[0].length;
  }
  source += escape(template.slice(last));
  return new RegExp(`^${source}$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const PATTERNS = new Map<string, RegExp>();

/** The variables of `uri` under `template`, or undefined when it does not match. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  let re = PATTERNS.get(template);
  if (!re) PATTERNS.set(template, re = pattern(template));
  const m = re.exec(uri);
  if (!m) return undefined;
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.groups ?? {})) {
    try {
      vars[k] = decodeURIComponent(v);
    } catch {
      vars[k] = v;
    }
  }
  return vars;
}

/** Whether a `resources` entry is a template (it has `uriTemplate`). */
export function isTemplate(value: unknown): boolean {
  return value !== null && typeof value === "object" && "uriTemplate" in value;
}

/** Checks one template entry (`at` names it: `new FakeMcpServer(): resources[2]`). */
export function declareTemplate(value: Record<string, unknown>, at: string): DeclaredTemplate {
  checkOptions(at, value, TEMPLATE_RULES, { required: ["uriTemplate", "name", "read"] });
  const uriTemplate = value.uriTemplate as string;
  if (!/\{\+?[A-Za-z0-9_]+\}/.test(uriTemplate)) {
    throw new TypeError(
      `${at}: uriTemplate "${uriTemplate}" has no {variable}; a fixed URI is a resource ({ uri, text | blob })`,
    );
  }
  const listing: Record<string, unknown> = { uriTemplate, name: value.name };
  for (const k of ["title", "description", "mimeType"]) {
    if (value[k] !== undefined) listing[k] = value[k];
  }
  const read = value.read as (uri: string, vars: Record<string, string>) => unknown;
  const mimeType = value.mimeType as string | undefined;
  return {
    uriTemplate,
    listing,
    read: async (uri, vars) => contentsOf(await read(uri, vars), uri, mimeType, uriTemplate),
  };
}

// What read() returns as a ReadResourceResult: a string (the text), one
// content ({ text | blob, mimeType?, uri? }), an array of them, or
// { contents: [...] } (the SDK's ReadResourceResult).
function contentsOf(
  value: unknown,
  uri: string,
  mimeType: string | undefined,
  template: string,
): Record<string, unknown> {
  const where = `the read function of resource template "${template}"`;
  const one = (c: unknown, i?: number): Record<string, unknown> => {
    const x = typeof c === "string" ? { text: c } : c as Record<string, unknown>;
    if (
      x === null || typeof x !== "object" || Array.isArray(x) ||
      (typeof x.text === "string") === (typeof x.blob === "string")
    ) {
      throw new InvalidScript(
        `${where} returned ${i === undefined ? "" : `contents[${i}] `}${
          describe(c)
        }; return a string, { text | blob, mimeType? } or { contents: [...] }`,
      );
    }
    const out: Record<string, unknown> = { uri, ...x };
    if (out.mimeType === undefined && mimeType !== undefined) out.mimeType = mimeType;
    return out;
  };
  const list = Array.isArray(value) ? value : value !== null && typeof value === "object" &&
      Array.isArray((value as { contents?: unknown }).contents)
    ? (value as { contents: unknown[] }).contents
    : undefined;
  return { contents: list ? list.map(one) : [one(value)] };
}

/** Checks the `completions` option: `{ [promptOrTemplate]: { [argument]: string[] | fn } }`. */
export function declareCompletions(
  value: unknown,
  where: string,
): ReadonlyMap<string, ReadonlyMap<string, readonly string[] | ((value: string) => unknown)>> {
  const shape = `{ [prompt name or uriTemplate]: { [argument]: string[] | (value) => string[] } }`;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(`${where}: option "completions" must be ${shape}, got ${describe(value)}`);
  }
  const table = new Map<string, Map<string, readonly string[] | ((value: string) => unknown)>>();
  for (const [ref, args] of Object.entries(value)) {
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      throw new TypeError(
        `${where}: completions["${ref}"] must be { [argument]: string[] | (value) => string[] }, got ${
          describe(args)
        }`,
      );
    }
    const row = new Map<string, readonly string[] | ((value: string) => unknown)>();
    for (const [arg, source] of Object.entries(args)) {
      const ok = typeof source === "function" ||
        (Array.isArray(source) && source.every((s) => typeof s === "string"));
      if (!ok) {
        throw new TypeError(
          `${where}: completions["${ref}"]["${arg}"] must be an array of strings or a function (value) => string[], got ${
            describe(source)
          }`,
        );
      }
      row.set(
        arg,
        typeof source === "function" ? source as (value: string) => unknown : [...source],
      );
    }
    table.set(ref, row);
  }
  return table;
}

/**
 * The completion values of one source for `value`: an array's entries that
 * begin with it, or what the function returns (checked: strings only).
 */
export async function completionValues(
  source: readonly string[] | ((value: string) => unknown),
  value: string,
  where: string,
): Promise<string[]> {
  if (typeof source !== "function") return source.filter((s) => s.startsWith(value));
  const out = await source(value);
  if (!Array.isArray(out) || !out.every((s) => typeof s === "string")) {
    throw new InvalidScript(
      `the function of ${where} returned ${describe(out)}, not an array of strings`,
    );
  }
  return out;
}
