/**
 * Messages and tool calls: the transcript values that cross the model port.
 *
 * @module
 */

/** Who said a message. */
export type Role = "system" | "user" | "assistant" | "tool";

/**
 * A tool call the model asked for.
 *
 * `rawArgs` is for scripting what real providers sometimes send: arguments that
 * are not valid JSON (truncated, malformed). When it is present the runtime
 * parses it instead of reading `args`, and a parse failure becomes an error tool
 * result the model sees.
 *
 * @example Build one by hand
 * ```ts
 * import type { ToolCall } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const call: ToolCall = { id: "c1", name: "lookup", args: { host: "a" } };
 * assertEquals(call.name, "lookup");
 * ```
 */
export interface ToolCall {
  /** The provider's id for the call; a tool message answers it by this id. */
  readonly id: string;
  /** The tool's name, as advertised in the request's tool specs. */
  readonly name: string;
  /** The parsed arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The arguments as raw text, when the test scripts malformed JSON. */
  readonly rawArgs?: string;
}

/**
 * Builds a {@linkcode ToolCall}.
 *
 * @param id The call id (`"c1"`).
 * @param name The tool name.
 * @param args The arguments object.
 * @returns A tool call value.
 *
 * @example A scripted tool call
 * ```ts
 * import { toolCall } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(toolCall("c1", "lookup", { host: "a" }), {
 *   id: "c1",
 *   name: "lookup",
 *   args: { host: "a" },
 * });
 * ```
 */
export function toolCall(
  id: string,
  name: string,
  args: Record<string, unknown> = {},
): ToolCall {
  return { id, name, args };
}

/**
 * One message of a transcript.
 *
 * @example A user message
 * ```ts
 * import type { Message } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const m: Message = { role: "user", content: "hi" };
 * assertEquals(m.role, "user");
 * ```
 */
export interface Message {
  /** Who said it. */
  readonly role: Role;
  /** The text. Empty for an assistant turn that only calls tools. */
  readonly content: string;
  /** The tool calls of an assistant turn. */
  readonly toolCalls?: readonly ToolCall[];
  /** On a `tool` message: the id of the call it answers. */
  readonly toolCallId?: string;
  /** On a `tool` message: true when the tool failed. */
  readonly isError?: boolean;
  /**
   * On an `assistant` message: what the provider gave with the turn that the
   * next request must send back (Gemini thought signatures, Anthropic
   * thinking blocks), keyed by provider. The port that answered sets it; the
   * runtime keeps it on the transcript; ports of other providers ignore it.
   */
  readonly providerData?: ProviderData;
}

/**
 * What a provider port keeps on an assistant message for the next request to
 * echo, under the provider's key (`gemini`, `anthropic`). Opaque to the
 * runtime: copied as given, never read.
 *
 * @example A Gemini turn's thought signature, as `GeminiLLM` keeps it
 * ```ts
 * import type { Message, ProviderData } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const providerData: ProviderData = { gemini: { thoughtSignatures: { c1: "c2lnLTE=" } } };
 * const m: Message = { role: "assistant", content: "", providerData };
 * assertEquals(Object.keys(m.providerData!), ["gemini"]);
 * ```
 */
export type ProviderData = Readonly<Record<string, unknown>>;
