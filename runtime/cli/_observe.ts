// Observations common to both CLI cognitions.
import type { RunContext } from "../context.ts";
import type { JsonlItem } from "./_jsonl_reader.ts";

/**
 * Reports a line that was not valid UTF-8 or could not be used. Returns the
 * event when the line parsed, `undefined` when it was skipped.
 */
export async function screen(
  ctx: RunContext,
  item: JsonlItem,
  binary: string,
  agent: string,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  if (item.lossy) {
    await ctx.emit(
      "cli.invalid_utf8",
      `${binary} line ${item.line} was not valid UTF-8; decoded it with U+FFFD in place of the bad bytes`,
      { payload: { line: item.line }, agent },
    );
  }
  if (item.kind === "event") return item.event;
  await skipped(ctx, binary, agent, item.line, item.reason, { text: item.text });
  return undefined;
}

/** Reports a skipped line. */
export function skipped(
  ctx: RunContext,
  binary: string,
  agent: string,
  line: number,
  reason: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  return ctx.emit("cli.skipped", `skipped ${binary} line ${line}: ${reason}`, {
    payload: { line, reason, ...extra },
    agent,
  });
}
