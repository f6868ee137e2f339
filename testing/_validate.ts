// Build-time validation of scripts: zod does the checking, this turns its
// issues into one sentence that names the bad key and the nearest good one.
import type { z } from "zod";
import { nearest } from "../runtime/internal.ts";
import { InvalidScript } from "./errors.ts";

// One did-you-mean for the whole package: the options checker's.
export { nearest };

function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  // deno-lint-ignore no-explicit-any
  let s: any = schema;
  for (const p of path) {
    while (s?.def?.innerType) s = s.def.innerType;
    if (s?.def?.type === "array") s = s.def.element;
    else if (s?.def?.shape) s = s.def.shape[p as string];
    else return [];
  }
  while (s?.def?.innerType) s = s.def.innerType;
  return s?.def?.shape ? Object.keys(s.def.shape) : [];
}

function pathText(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `${out ? "." : ""}${String(p)}`;
  return out;
}

/**
 * Parses `value` with `schema` or throws an {@linkcode InvalidScript} whose
 * message names where (`turn 1`), what, and the nearest valid key.
 */
export function parseOrExplain<T>(
  schema: z.ZodType<T>,
  value: unknown,
  where: string,
  hint = "",
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const parts: string[] = [];
  for (const issue of r.error.issues) {
    const at = issue.path.length ? ` ${pathText(issue.path)}` : "";
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const near = nearest(key, keysAt(schema, issue.path));
        parts.push(
          `unknown key "${key}" in ${where}${at}${near ? `; did you mean "${near}"?` : ""}`,
        );
      }
    } else {
      parts.push(`${where}${at}: ${issue.message}`);
    }
  }
  throw new InvalidScript(parts.join("; ") + hint);
}
