// A failing run as text: the conversation as the model last saw it, the
// faults that fired, and how the run ended (secrets redacted throughout).
import type { Message } from "../../ports/message.ts";
import { redactText } from "../../runtime/internal.ts";
import { transcript } from "../assert/transcript.ts";
import type { ChaosOutcome } from "./chaos_outcome.ts";
import type { World } from "./_world.ts";

/** The run's transcript. */
export function runTranscript(o: ChaosOutcome, w: World): string {
  const lines: string[] = [];
  const result = o.result as { messages?: unknown; stopReason?: unknown } | undefined;
  if (Array.isArray(result?.messages) && typeof result?.stopReason === "string") {
    lines.push(transcript(result as Parameters<typeof transcript>[0] & object) as string);
  } else {
    const last = o.requests.at(-1);
    const played = w.served.at(-1);
    const messages: Message[] = last ? [...last.messages] : [];
    const t = played?.turn;
    if (t && !played.fault && (t.content || t.toolCalls?.length)) {
      messages.push({ role: "assistant", content: t.content ?? "", toolCalls: t.toolCalls });
    }
    if (messages.length) lines.push(transcript(messages) as string);
  }
  lines.push(`faults: ${o.faults.map((f) => f.label).join("; ") || "none"}`);
  lines.push(
    `model calls: ${o.modelCalls}; tool calls: ${o.toolCalls.length}; virtual time: ${o.virtualMs} ms`,
  );
  lines.push(`ended: ${ending(o)}`);
  return lines.join("\n");
}

function ending(o: ChaosOutcome): string {
  const e = o.error as { name?: unknown; message?: unknown } | undefined;
  const error = e instanceof Error ? `${e.name}: ${e.message}` : String(o.error);
  switch (o.status) {
    case "returned":
      return "returned";
    case "threw":
      return `threw ${redactText(error)}`;
    case "stopped":
      return `stopped by chaos(), then ${
        o.error === undefined ? "returned" : `threw ${redactText(error)}`
      }`;
    case "hung":
      return "hung (did not settle even after chaos() stopped it)";
  }
}
