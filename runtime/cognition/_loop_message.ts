/**
 * The messages a tool loop appends to its transcript, built so that a long
 * loop costs as much per step as a short one.
 *
 * Each is built from an empty object, one key at a time, in the order the
 * object literal would have them, and is a plain object equal to that
 * literal. A literal would be cheaper to write but not to run: V8 tracks
 * where a literal's objects are born, and once nearly all of them outlive a
 * young-generation collection, as a long transcript's messages do, it
 * allocates that literal's later objects straight in the old generation
 * (allocation-site pretenuring). On Deno (V8 15), `--trace-pretenuring-statistics`
 * showed three sites tenured in a 1,000-step ReAct loop: these two messages
 * and `FakeLLM`'s request record. The loop then cost 1.3× per step what a
 * 10-step one did, and no more than it with `--no-allocation-site-pretenuring`
 * or `--no-maglev`. Built this way, no site is tenured and the two cost the
 * same per step. Node 20, 22 and 24 were flat either way. An empty literal
 * has no allocation site, so its objects are born young like any other.
 *
 * The price is memory: `{}` has room for four keys, so a message with three
 * carries an unused slot, and bench/'s heap per ReAct step went from 527 to
 * 575 bytes (with the record, whose seven keys overflow those four).
 *
 * @module
 */
import type { Message, ProviderData, ToolCall } from "../../ports/message.ts";
import { REDACTED } from "../_redact.ts";
import { maskSecrets } from "../_secrets/registry.ts";

type Built = { -readonly [K in keyof Message]: Message[K] };

/**
 * An assistant turn: its text, and its tool calls when it made any.
 *
 * @param content The text.
 * @param toolCalls The calls, owned by the message from now on.
 * @param providerData What the provider asked to have sent back with the turn.
 * @returns The message.
 */
export function assistantMessage(
  content: string,
  toolCalls?: readonly ToolCall[],
  providerData?: ProviderData,
): Message {
  const m = {} as Built;
  m.role = "assistant";
  m.content = content;
  if (toolCalls !== undefined) m.toolCalls = toolCalls;
  if (providerData !== undefined) m.providerData = providerData;
  return m;
}

/**
 * A tool's answer to one call, or, with `isError`, the error shown to the
 * model in its place.
 *
 * @param content The answer, as text.
 * @param toolCallId The id of the call it answers.
 * @param isError True when the tool failed.
 * @returns The message.
 */
export function toolMessage(content: string, toolCallId: string, isError?: true): Message {
  const m = {} as Built;
  m.role = "tool";
  // A credential the package was handed never reaches the model through a tool.
  m.content = maskSecrets(content, REDACTED);
  m.toolCallId = toolCallId;
  if (isError) m.isError = true;
  return m;
}
