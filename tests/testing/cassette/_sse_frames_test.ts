// sseFrames(): an SSE body read as the WHATWG HTML standard's "Interpreting
// an event stream" says, each event timed from the recording.
import { assertEquals } from "@std/assert";
import { sseFrames } from "../../../testing/cassette/_sse_frames.ts";

Deno.test("sseFrames(): fields, defaults, multi-line data, comments and events without data", () => {
  const text = [
    ": a comment, not an event",
    "event: message_start",
    "id: 7",
    'data: {"a":1}',
    "",
    "data: one",
    "data:two",
    "retry: 5",
    "",
    "event: ping",
    "",
    "data",
    "",
    "data: [DONE]",
    "",
    "",
  ].join("\n");
  assertEquals(sseFrames(text, 1_000_000, 500, [100, 20, 3]), [
    { type: "message_start", time: 1000.5, eventId: "7", data: '{"a":1}' },
    // Lines joined by a newline; only one leading space is dropped.
    { type: "message", time: 1000.6, eventId: "", data: "one\ntwo" },
    // "data" without a colon is a data field with an empty value.
    { type: "message", time: 1000.62, eventId: "", data: "" },
    { type: "message", time: 1000.623, eventId: "", data: "[DONE]" },
  ]);
});

Deno.test("sseFrames(): CRLF and CR line ends, a colon in the value, one space dropped", () => {
  const text = "event: a\r\ndata:  two spaces: and a colon\r\n\r\ndata: x\rid:9\r\r";
  assertEquals(sseFrames(text, 0, 0, []), [
    { type: "a", time: 0, eventId: "", data: " two spaces: and a colon" },
    // No gap recorded for it: the same time as the one before.
    { type: "message", time: 0, eventId: "9", data: "x" },
  ]);
  // A field name is the text before the first colon: ":x" is a comment, "dat a" no field.
  assertEquals(sseFrames(":data: no\n\ndat a: no\n\n", 0, 0, []), []);
  assertEquals(sseFrames("", 0, 0, []), []);
});
