// The streamed-call loop both provider ports share, driven with a tiny wire:
// each SSE message's data is a JSON list of texts, "end" ends the stream.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import { ProviderError, ProviderResponseError, type StreamEvent } from "@agentkit/testing/ports";
import { readWireStream, WireStream } from "../../../runtime/providers/_stream.ts";
import type { SseMessage } from "../../../runtime/providers/_sse.ts";
import { isCut } from "../../../runtime/stream/_stream_cut.ts";
import { MalformedAnswer } from "../../../runtime/providers/_wire_shape.ts";

class ListWire extends WireStream {
  ends = 0;
  constructor() {
    super("Wire", "[END]");
  }
  push(message: SseMessage, out: StreamEvent[]): void {
    if (message.data === "boom") throw new RangeError("not a wire problem");
    const texts = JSON.parse(message.data) as string[];
    this.start(message.id, out);
    for (const t of texts) {
      if (t === "end") {
        this.done = true;
        out.push({
          type: "message_end",
          messageId: this.messageId!,
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        });
        return;
      }
      if (t === "usage") this.usage = { inputTokens: 2, outputTokens: 3 };
      else if (t === "length") this.finishReason = "length";
      else out.push({ type: "text_delta", messageId: this.messageId!, content: t });
    }
  }
  end(out: StreamEvent[]): void {
    this.finish(out, false);
  }
  override endOfBody(out: StreamEvent[]): void {
    this.ends++;
    super.endOfBody(out);
  }
}

function sse(chunks: string[], fail?: Error, onCancel?: () => void): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(enc.encode(chunks[i++]));
      else if (fail) c.error(fail);
      else c.close();
    },
    cancel: onCancel,
  });
}

const respond = (body: ReadableStream<Uint8Array> | null) => () =>
  Promise.resolve(new Response(body));
const summary = (events: StreamEvent[]) =>
  events.map((e) => e.type === "text_delta" ? e.content : e.type);

Deno.test("readWireStream(): sends on the first next(), yields the wire's events, stops at its end", async () => {
  let opened = 0;
  let cancelled = 0;
  const wire = new ListWire();
  const events = readWireStream(
    () => {
      opened++;
      return Promise.resolve(
        new Response(
          sse(
            [
              'id: m1\ndata: ["a","b"]\n\n',
              'data: ["end","c"]\n\ndata: ["d"]\n\n',
              'data: ["e"]\n\n',
            ],
            undefined,
            () => cancelled++,
          ),
        ),
      );
    },
    wire,
    undefined,
  );
  assertEquals(opened, 0);
  const out = await Array.fromAsync(events);
  assertEquals(summary(out), ["message_start", "a", "b", "message_end"]);
  assertEquals(out[0], { type: "message_start", messageId: "m1" });
  // The rest of the body is released, not read.
  assertEquals([opened, wire.ends, cancelled], [1, 0, 1]);
});

Deno.test("readWireStream(): a body that ends without the terminator is a cut, unless the finish reason came", async () => {
  const wire = new ListWire();
  const out = await Array.fromAsync(
    readWireStream(respond(sse(['data: ["a","usage"]\n\n'])), wire, undefined),
  );
  assertEquals(summary(out), ["message_start", "a", "error"]);
  const end = out.at(-1) as Extract<StreamEvent, { type: "error" }>;
  assertEquals([end.error.constructor, isCut(end.error)], [ProviderError, true]);
  assert(end.error.message.includes("[END]"), end.error.message);
  assertEquals([end.usage, "finishReason" in end], [{ inputTokens: 2, outputTokens: 3 }, false]);
  assertEquals(wire.ends, 1);
  // A server that omits the terminator after reporting the finish reason answered in full.
  const lenient = await Array.fromAsync(
    readWireStream(respond(sse(['data: ["a","length"]\n\n'])), new ListWire(), undefined),
  );
  assertEquals(lenient.at(-1), {
    type: "message_end",
    messageId: "",
    finishReason: "length",
    usage: { inputTokens: 0, outputTokens: 0 },
  });
});

Deno.test("WireStream.finish(): the finish reason reported, else tool_calls after calls, else stop", () => {
  const reasons = [[undefined, false], [undefined, true], ["length", true]].map(
    ([reason, calls]) => {
      const wire = new ListWire();
      if (reason) wire.finishReason = reason as "length";
      wire.usage = { inputTokens: 4, outputTokens: 5 };
      const out: StreamEvent[] = [];
      wire.finish(out, calls as boolean);
      assertEquals([wire.done, out[0].type, out.length], [true, "message_start", 2]);
      const end = out[1] as Extract<StreamEvent, { type: "message_end" }>;
      assertEquals(end.usage, { inputTokens: 4, outputTokens: 5 });
      return end.finishReason;
    },
  );
  assertEquals(reasons, ["stop", "tool_calls", "length"]);
});

Deno.test("readWireStream(): a response with no body fails before any event", async () => {
  const e = await assertRejects(
    () => Array.fromAsync(readWireStream(respond(null), new ListWire(), undefined)),
    ProviderResponseError,
  );
  assert(e.message.includes("Wire"), e.message);
});

Deno.test("readWireStream(): a message that is not JSON ends the stream with an error event naming it", async () => {
  const out = await Array.fromAsync(
    readWireStream(
      respond(sse(['data: ["a"]\n\ndata: {oops\n\ndata: ["b"]\n\n'])),
      new ListWire(),
      undefined,
    ),
  );
  assertEquals(summary(out), ["message_start", "a", "error"]);
  const end = out.at(-1) as Extract<StreamEvent, { type: "error" }>;
  assertInstanceOf(end.error, ProviderResponseError);
  assertEquals([(end.error as ProviderError).phase, isCut(end.error)], ["mid_stream", false]);
  assert(end.error.message.includes("{oops"), end.error.message);
  // Any other failure of the wire is a bug, rethrown.
  await assertRejects(
    () =>
      Array.fromAsync(readWireStream(respond(sse(["data: boom\n\n"])), new ListWire(), undefined)),
    RangeError,
  );
});

Deno.test("readWireStream(): a cut before the first event is retryable pre_stream; after it, a cut error event", async () => {
  const reset = new Error("connection reset");
  const early = await assertRejects(
    () => Array.fromAsync(readWireStream(respond(sse([], reset)), new ListWire(), undefined)),
    ProviderError,
  );
  assertEquals([early.retryable, early.phase, early.cause], [true, "pre_stream", reset]);
  assert(early.message.includes("connection reset"), early.message);
  const out = await Array.fromAsync(
    readWireStream(
      respond(sse(['data: ["a","length","usage"]\n\n'], reset)),
      new ListWire(),
      undefined,
    ),
  );
  assertEquals(summary(out), ["message_start", "a", "error"]);
  const end = out.at(-1) as Extract<StreamEvent, { type: "error" }>;
  const error = end.error as ProviderError;
  assertEquals([error.phase, error.retryable, error.cause, isCut(error)], [
    "mid_stream",
    false,
    reset,
    true,
  ]);
  assertEquals([end.finishReason, end.usage, error.finishReason, error.usage], [
    "length",
    { inputTokens: 2, outputTokens: 3 },
    "length",
    { inputTokens: 2, outputTokens: 3 },
  ]);
});

Deno.test("readWireStream(): a read failing under an aborted signal rethrows the signal's reason", async () => {
  const c = new AbortController();
  const reason = new Error("user cancelled");
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (pulls++ === 0) ctl.enqueue(new TextEncoder().encode('data: ["a"]\n\n'));
      else {
        c.abort(reason);
        ctl.error(new Error("aborted read"));
      }
    },
  });
  const seen: string[] = [];
  const e = await assertRejects(async () => {
    for await (const ev of readWireStream(respond(body), new ListWire(), c.signal)) {
      seen.push(ev.type);
    }
  });
  assertStrictEquals(e, reason);
  assertEquals(seen, ["message_start", "text_delta"]);
});

Deno.test("WireStream: fail() before any content throws a pre_stream error; after content it is an error event", () => {
  const wire = new ListWire();
  const out: StreamEvent[] = [];
  wire.start(undefined, out);
  const cutEarly = assertThrows(() => wire.fail(out, "nothing came", { cut: true }), ProviderError);
  assertEquals([cutEarly.phase, cutEarly.retryable, out.length, wire.done], [
    "pre_stream",
    true,
    0,
    true,
  ]);
  const malformed = assertThrows(() => new ListWire().fail([], "not the shape"), ProviderError);
  assertEquals([malformed.phase, malformed.retryable], ["pre_stream", false]);
  const cut = new ListWire();
  const cutOut: StreamEvent[] = [];
  cut.start("m9", cutOut);
  cutOut.push({ type: "text_delta", messageId: "m9", content: "Hel" });
  cut.fail(cutOut, "cut", { cut: true });
  const ev = cutOut[2] as Extract<StreamEvent, { type: "error" }>;
  assertEquals([ev.messageId, isCut(ev.error), ev.error.constructor], ["m9", true, ProviderError]);
  assertEquals((ev.error as ProviderError).phase, "mid_stream");
  assertEquals(["usage" in ev, "finishReason" in ev], [false, false]);
  // Once content reached the caller, even an empty batch fails as an event.
  const later = new ListWire();
  later.delivered = true;
  const laterOut: StreamEvent[] = [];
  later.fail(laterOut, "cut", { cut: true });
  assertEquals(summary(laterOut), ["message_start", "error"]);
});

Deno.test("readWireStream(): a body that fails with no reason at all is still a retryable pre_stream error", async () => {
  const body = new ReadableStream<Uint8Array>({ pull: (c) => c.error(undefined) });
  const e = await assertRejects(
    () => Array.fromAsync(readWireStream(respond(body), new ListWire(), undefined)),
    ProviderError,
  );
  assertEquals([e.retryable, e.phase], [true, "pre_stream"]);
});

Deno.test("readWireStream(): message_start waits for content, so a failure right after it is thrown pre_stream", async () => {
  // [] opens the message with nothing in it; the failure then comes in its own read.
  const cutEarly = await assertRejects(
    () =>
      Array.fromAsync(
        readWireStream(
          respond(sse(["data: []\n\n"], new Error("reset"))),
          new ListWire(),
          undefined,
        ),
      ),
    ProviderError,
  );
  assertEquals([cutEarly.phase, cutEarly.retryable], ["pre_stream", true]);
  assert(
    cutEarly.message.includes("stream was cut (reset) before its first event"),
    cutEarly.message,
  );
  const malformed = await assertRejects(
    () =>
      Array.fromAsync(
        readWireStream(respond(sse(["data: []\n\n", "data: {x\n\n"])), new ListWire(), undefined),
      ),
    ProviderResponseError,
  );
  assertEquals(malformed.phase, "pre_stream");
  assert(
    malformed.message.includes("not JSON") && malformed.message.includes("{x"),
    malformed.message,
  );
  // Held, then released with the content that follows it, in order.
  const events = await Array.fromAsync(
    readWireStream(
      respond(sse(["data: []\n\n", 'data: ["a"]\n\n', 'data: ["end"]\n\n'])),
      new ListWire(),
      undefined,
    ),
  );
  assertEquals(summary(events), ["message_start", "a", "message_end"]);
  // A cut after content is an error event, not a throw.
  const late = await Array.fromAsync(
    readWireStream(
      respond(sse(['data: ["a"]\n\n'], new Error("reset"))),
      new ListWire(),
      undefined,
    ),
  );
  assertEquals(summary(late), ["message_start", "a", "error"]);
  const err = late.at(-1) as Extract<StreamEvent, { type: "error" }>;
  assert(err.error.message.includes("stream was cut (reset) after it started"), err.error.message);
  // A failure that is not an Error still says what it was.
  const odd = await assertRejects(
    () =>
      Array.fromAsync(
        readWireStream(respond(sse([], "gone" as unknown as Error)), new ListWire(), undefined),
      ),
    ProviderError,
  );
  assert(odd.message.includes("(gone)"), odd.message);
});

Deno.test("readWireStream(): a stream request answered with a JSON or HTML document", async () => {
  const doc = (body: string, type: string) => () =>
    Promise.resolve(new Response(body, { headers: { "content-type": type } }));
  const error = await assertRejects(
    () =>
      Array.fromAsync(
        readWireStream(
          doc('{"error":{"type":"overloaded_error","message":"busy"}}', "application/json"),
          new ListWire(),
          undefined,
        ),
      ),
    ProviderError,
  );
  assertEquals([error.retryable, error.phase], [true, "pre_stream"]);
  assert(error.message.includes("(overloaded_error): busy"), error.message);
  const blocking = await assertRejects(
    () =>
      Array.fromAsync(
        readWireStream(
          doc('{"choices":[]}', "application/json; charset=utf-8"),
          new ListWire(),
          undefined,
        ),
      ),
    ProviderResponseError,
  );
  assertEquals([blocking.retryable, blocking.phase], [false, "pre_stream"]);
  assert(
    blocking.message.startsWith(
      'Wire answered a stream request with application/json instead of an event stream ({"choices":[]})',
    ),
    blocking.message,
  );
  const page = await assertRejects(
    () => Array.fromAsync(readWireStream(doc("  ", "text/html"), new ListWire(), undefined)),
    ProviderResponseError,
  );
  assert(
    page.message.includes("text/html instead of an event stream (an empty body)"),
    page.message,
  );
  // An event stream with no content type at all is still read as one.
  const untyped = await Array.fromAsync(
    readWireStream(respond(sse(['data: ["a","end"]\n\n'])), new ListWire(), undefined),
  );
  assertEquals(summary(untyped), ["message_start", "a", "message_end"]);
  // Cancelled while the document is read: the signal's reason.
  const c = new AbortController();
  const reason = new Error("stop");
  const broken = new ReadableStream({
    pull: (x) => {
      c.abort(reason);
      x.error(new Error("r"));
    },
  });
  const aborted = await assertRejects(() =>
    Array.fromAsync(
      readWireStream(
        () =>
          Promise.resolve(
            new Response(broken, { headers: { "content-type": "application/json" } }),
          ),
        new ListWire(),
        c.signal,
      ),
    )
  );
  assertStrictEquals(aborted, reason);
});

Deno.test("readWireStream(): a fold that finds the wire's shape broken ends the stream with that message", async () => {
  class ShapeWire extends ListWire {
    override push(message: SseMessage, out: StreamEvent[]): void {
      if (message.data === "bad") {
        throw new MalformedAnswer("Wire", "delta.text must be a string", 5);
      }
      super.push(message, out);
    }
  }
  const events = await Array.fromAsync(
    readWireStream(respond(sse(['data: ["a"]\n\n', "data: bad\n\n"])), new ShapeWire(), undefined),
  );
  assertEquals(summary(events), ["message_start", "a", "error"]);
  const err = (events.at(-1) as Extract<StreamEvent, { type: "error" }>).error as ProviderError;
  assertEquals([err.name, err.phase], ["ProviderResponseError", "mid_stream"]);
  assert(err.message.includes("delta.text must be a string, got 5"), err.message);
  const early = await assertRejects(
    () =>
      Array.fromAsync(readWireStream(respond(sse(["data: bad\n\n"])), new ShapeWire(), undefined)),
    ProviderResponseError,
  );
  assertEquals(early.phase, "pre_stream");
});

Deno.test("readWireStream(): with a scrub, what it throws and each error event's error pass through it", async () => {
  const scrubbed: unknown[] = [];
  const scrub = (e: unknown) => {
    scrubbed.push(e);
    return e instanceof Error && e.message.includes("key-9") ? new ProviderError("[REDACTED]") : e;
  };
  const events = await Array.fromAsync(
    readWireStream(
      respond(sse(['data: ["a"]\n\n'], new Error("reset key-9"))),
      new ListWire(),
      undefined,
      scrub,
    ),
  );
  const last = events.at(-1) as Extract<StreamEvent, { type: "error" }>;
  assertEquals([last.type, last.error.message], ["error", "[REDACTED]"]);
  assertEquals(summary(events.slice(0, 2)), ["message_start", "a"]);
  const clean = await Array.fromAsync(
    readWireStream(
      respond(sse(['data: ["a"]\n\n'], new Error("reset"))),
      new ListWire(),
      undefined,
      scrub,
    ),
  );
  const kept = clean.at(-1) as Extract<StreamEvent, { type: "error" }>;
  assertStrictEquals(
    kept.error,
    scrubbed.at(-1),
    "an error with nothing to scrub is the same error",
  );
  const thrown = await assertRejects(
    () =>
      Array.fromAsync(
        readWireStream(
          () => Promise.reject(new Error("refused key-9")),
          new ListWire(),
          undefined,
          scrub,
        ),
      ),
    ProviderError,
  );
  assertEquals(thrown.message, "[REDACTED]");
});
