// A tool call's arguments arrive as JSON text; text that is not a JSON object
// is kept as `rawArgs`, so the runtime reports it to the model as it would a
// scripted malformed call.
import type { ToolCall } from "../../ports/message.ts";

/** A tool call from its wire parts. */
export function parseArgs(id: string, name: string, text: string): ToolCall {
  if (text === "") return { id, name, args: {} };
  try {
    const args = JSON.parse(text);
    if (args !== null && typeof args === "object" && !Array.isArray(args)) {
      return { id, name, args };
    }
  } catch {
    // malformed: kept raw below
  }
  return { id, name, args: {}, rawArgs: text };
}
