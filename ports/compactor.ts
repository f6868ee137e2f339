/**
 * The compaction seam: keeping a long transcript inside the model's window.
 *
 * @module
 */
import type { Ctx } from "./context.ts";
import type { Message } from "./message.ts";

/**
 * Shrinks a transcript that grew too long, returning one the model can still
 * take. A compactor returns its input unchanged when there is nothing to do.
 * The runtime's `SummaryCompactor` is the real one; `FakeCompactor` is its
 * double.
 *
 * @example A compactor that keeps the system prompt and the last two messages
 * ```ts
 * import type { Compactor, Message } from "@agentkit/testing/ports";
 * import { NullCtx } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const lastTwo: Compactor = {
 *   compact: (messages) =>
 *     Promise.resolve([...messages.filter((m) => m.role === "system"), ...messages.slice(-2)]),
 * };
 * const transcript: Message[] = [
 *   { role: "system", content: "Be brief." },
 *   { role: "user", content: "a" },
 *   { role: "assistant", content: "b" },
 *   { role: "user", content: "c" },
 * ];
 * const out = await lastTwo.compact(transcript, new NullCtx());
 * assertEquals(out.map((m) => m.content), ["Be brief.", "b", "c"]);
 * ```
 */
export interface Compactor {
  /** The transcript, shrunk if it is past the compactor's threshold. */
  compact(messages: readonly Message[], ctx: Ctx): Promise<Message[]>;
}
