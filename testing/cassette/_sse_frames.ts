// The events of a server-sent-events body, as HAR's `_eventSourceMessages`
// (Chrome devtools' export) lists them.
import type { HarEventSourceMessage } from "./to_har.ts";

/**
 * The SSE events of `text` (WHATWG HTML, "Interpreting an event stream"):
 * lines end in CRLF, LF or CR; a blank line ends an event; a line starting
 * with a colon is a comment; a field's value follows its first colon, less
 * one leading space; `event:` names the type (`"message"` when none),
 * `data:` lines are joined by newlines, `id:` is the event id; an event
 * without data is not dispatched. Each is timed at the recorded first chunk
 * plus the gaps so far, in seconds since the epoch.
 */
export function sseFrames(
  text: string,
  startedMs: number,
  firstChunkMs: number,
  gapsMs: readonly number[],
): HarEventSourceMessage[] {
  const out: HarEventSourceMessage[] = [];
  let at = startedMs + firstChunkMs;
  for (const block of text.replace(/\r\n?/g, "\n").split("\n\n")) {
    let type = "message";
    let eventId = "";
    const data: string[] = [];
    for (const raw of block.split("\n")) {
      if (raw === "" || raw.startsWith(":")) continue;
      const colon = raw.indexOf(":");
      const field = colon < 0 ? raw : raw.slice(0, colon);
      let value = colon < 0 ? "" : raw.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") type = value;
      else if (field === "data") data.push(value);
      else if (field === "id") eventId = value;
    }
    if (data.length === 0) continue;
    // The first event is at the first chunk; gapsMs[i - 1] separates event i from the one before.
    if (out.length > 0) at += gapsMs[out.length - 1] ?? 0;
    out.push({ type, time: at / 1000, eventId, data: data.join("\n") });
  }
  return out;
}
