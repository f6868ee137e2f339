// One way to ask a human about a tool call, shared by ReAct's manual autonomy
// and ToolPolicy's `approve` list, so the asker sees the same question and a
// refusal reads the same wherever it came from.
import type { AskerPort } from "../../ports/asker.ts";
import type { Ctx } from "../../ports/context.ts";

/** The answers that approve; anything else refuses. */
export const APPROVED: RegExp = /^\s*(y|yes|ok|approve|approved|allow)\s*[.!]?\s*$/i;

/**
 * Asks `asker` whether tool `name` may run with `args`; resolves undefined to
 * go ahead, or the refusal the model is shown (after an `approval_denied`
 * observation).
 */
export async function askApproval(
  asker: AskerPort,
  name: string,
  args: unknown,
  ctx: Ctx,
  agent?: string,
): Promise<string | undefined> {
  const answer = await asker.ask(
    `Allow tool "${name}" with ${JSON.stringify(args)}? (yes/no)`,
    ctx,
  );
  if (APPROVED.test(answer)) return undefined;
  await ctx.emit("approval_denied", `tool "${name}" was not approved`, {
    payload: { tool: name, answer },
    agent,
  });
  return `Denied: the user did not approve tool "${name}" (answered ${JSON.stringify(answer)})`;
}
