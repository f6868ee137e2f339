/**
 * The tool names every provider accepts, so a name a double takes is one a
 * real model can be given.
 *
 * The rule is what the three providers' references document, intersected:
 * - OpenAI (API reference, chat completions, `tools[].function.name`):
 *   "must be a-z, A-Z, 0-9, or contain underscores and dashes, with a
 *   maximum length of 64";
 * - Anthropic (Messages API, `tools[].name`): "must match the regex
 *   ^[a-zA-Z0-9_-]{1,64}$";
 * - Google Gemini (`FunctionDeclaration.name`): "must start with a letter or
 *   an underscore; a-z, A-Z, 0-9, underscores, dots, colons and dashes,
 *   with a maximum length of 64".
 * Dots and colons (Gemini only) are out; a leading digit or dash (Gemini
 * refuses it) is out too.
 *
 * @module
 */
import { describe, type Rule } from "../../runtime/internal.ts";

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const MAX = 64;
const RULE =
  "1 to 64 letters, digits, underscores or dashes, starting with a letter or an underscore (the rule OpenAI, Anthropic and Gemini share)";

/** A tool name: 1 to 64 of `A-Z a-z 0-9 _ -`, starting with a letter or `_`. */
export const toolName: Rule = {
  accepts: `a tool name: ${RULE}`,
  test(value, option) {
    if (typeof value !== "string") return { kind: "type" };
    if (NAME.test(value)) return undefined;
    return {
      kind: "range",
      message: `${option} ${describe(value)} ${why(value)}; a tool name is ${RULE}`,
    };
  },
};

function why(name: string): string {
  if (name === "") return "is empty";
  if (name.length > MAX) return `is ${name.length} characters long`;
  const bad = /[^A-Za-z0-9_-]/.exec(name);
  if (bad) return `has ${JSON.stringify(bad[0])} at ${bad.index}, which providers refuse`;
  return "starts with a digit or a dash, which Gemini refuses";
}
