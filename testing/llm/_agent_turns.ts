// Counts the agent's turns in a double's calls, a client's retries apart.
// A client retries a failed request as it was (the OpenAI and Anthropic SDKs
// resend the same body; LangChain's AsyncCaller and the AI SDK's retry call
// the same request again), so a call right after a failed call, with the
// same conversation, is a retry of that turn. Any other call is the agent's
// next turn: a new message or other tools, or the same conversation after
// an answer (a second run of the same prompt). Read only when a script runs
// out.
import type { Message } from "../../ports/message.ts";
import type { ToolSpec } from "../../ports/tool_spec.ts";

/** What a call is compared by. */
export interface TurnCall {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSpec[];
}

/**
 * The agent's turn of the last call (1-based) and how many of the calls
 * were retries (`turn + retries` is the number of calls), given which calls
 * (0-based) failed.
 */
export function agentTurns(
  calls: readonly TurnCall[],
  failed: ReadonlySet<number>,
): { turn: number; retries: number } {
  let turn = 0;
  let last: string | undefined;
  for (let i = 0; i < calls.length; i++) {
    const key = failed.has(i - 1) || failed.has(i)
      ? JSON.stringify([calls[i].messages, calls[i].tools])
      : undefined;
    if (!(failed.has(i - 1) && key === last)) turn++;
    last = key;
  }
  return { turn, retries: calls.length - turn };
}
