/**
 * A tokenizer-free token estimate.
 *
 * @module
 */
import type { Message } from "../ports/message.ts";

/** Characters per token in the estimate. */
const CHARS_PER_TOKEN = 4;
/** Tokens of framing per message (role markers, separators). */
const PER_MESSAGE = 4;

/**
 * Estimates the tokens a message costs a model without a tokenizer: one
 * token per four characters of content (rounded up), plus the name and JSON
 * arguments of each tool call counted the same way, plus four tokens of
 * framing per message. Four characters a token is the usual rule of thumb for
 * English prose; it overcounts little and undercounts code and non-Latin
 * scripts, so give `SummaryCompactor` a real tokenizer's count through its
 * `estimate` option when the threshold must be exact.
 *
 * @param message The message.
 * @returns Its estimated token count.
 *
 * @example
 * ```ts
 * import { estimateTokens } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(estimateTokens({ role: "user", content: "12345678" }), 2 + 4);
 * assertEquals(estimateTokens({ role: "user", content: "" }), 4);
 * ```
 */
export function estimateTokens(message: Message): number {
  let chars = message.content.length;
  for (const call of message.toolCalls ?? []) {
    chars += call.name.length + (call.rawArgs ?? JSON.stringify(call.args)).length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + PER_MESSAGE;
}
