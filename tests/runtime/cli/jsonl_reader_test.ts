import { assertEquals } from "@std/assert";
import { type JsonlItem, JsonlReader } from "../../../runtime/cli/_jsonl_reader.ts";

const enc = new TextEncoder();

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
}

async function readAll(chunks: Uint8Array[]): Promise<JsonlItem[]> {
  const reader = new JsonlReader(streamOf(chunks));
  const out: JsonlItem[] = [];
  for (let item = await reader.next(); item; item = await reader.next()) out.push(item);
  return out;
}

const summary = (items: JsonlItem[]) =>
  items.map((i) => i.kind === "event" ? i.event : { bad: i.line, truncated: i.truncated });

Deno.test("JsonlReader.next() yields the same lines whatever the chunk boundaries", async (t) => {
  const bytes = enc.encode('{"a":1}\r\n\n{"b":"é"}\n  \n{"c":[1,2]}\n');
  const expected = [{ a: 1 }, { b: "é" }, { c: [1, 2] }];
  await t.step("one chunk", async () => {
    assertEquals(summary(await readAll([bytes])), expected);
  });
  await t.step("one byte a chunk (splits the two-byte é too)", async () => {
    const chunks = [...bytes].map((b) => new Uint8Array([b]));
    assertEquals(summary(await readAll(chunks)), expected);
  });
  await t.step("line numbers count only non-blank lines", async () => {
    assertEquals((await readAll([bytes])).map((i) => i.line), [1, 2, 3]);
  });
});

Deno.test("JsonlReader.next() reports a cut-off last line as truncated, and keeps a whole one", async (t) => {
  await t.step("cut off", async () => {
    const items = await readAll([enc.encode('{"a":1}\n{"type":"res')]);
    assertEquals(summary(items), [{ a: 1 }, { bad: 2, truncated: true }]);
  });
  await t.step("whole, only missing its newline", async () => {
    assertEquals(summary(await readAll([enc.encode('{"a":1}\n{"b":2}')])), [{ a: 1 }, { b: 2 }]);
  });
});

Deno.test("JsonlReader.next() decodes invalid UTF-8 leniently and flags the line", async () => {
  const bad = new Uint8Array([...enc.encode('{"t":"caf'), 0xe9, ...enc.encode('"}\n')]);
  const items = await readAll([bad, enc.encode('{"t":"ok"}\n')]);
  assertEquals(items, [
    { kind: "event", line: 1, event: { t: "caf\uFFFD" }, lossy: true },
    { kind: "event", line: 2, event: { t: "ok" }, lossy: false },
  ]);
});

Deno.test("JsonlReader.next() returns bad lines instead of throwing", async () => {
  const items = await readAll([enc.encode('not json\n[1,2]\n"s"\n{"ok":true}\n')]);
  assertEquals(items.map((i) => i.kind === "bad" ? i.reason.split(" (")[0] : "event"), [
    "not valid JSON",
    "not a JSON object",
    "not a JSON object",
    "event",
  ]);
});

Deno.test("JsonlReader.cancel() resolves a pending next() with undefined", async () => {
  let cancelled: unknown;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(enc.encode('{"a":1}\n{"partial'));
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  const reader = new JsonlReader(stream);
  assertEquals((await reader.next())?.kind, "event");
  const pending = reader.next();
  reader.cancel("stop");
  assertEquals(await pending, undefined);
  assertEquals(cancelled, "stop");
  assertEquals(reader.ended, true);
});

Deno.test("JsonlReader.next() joins a line split across chunks, byte for byte", async () => {
  const items = await readAll([
    enc.encode('{"a"'),
    enc.encode(':"x'),
    enc.encode('y"}\n{"b":2}\n'),
  ]);
  assertEquals(summary(items), [{ a: "xy" }, { b: 2 }]);
});

Deno.test("JsonlReader.next() reports bad lines without their line end, cut to 200 characters", async () => {
  const long = "x".repeat(300);
  const items = await readAll([enc.encode(`oops\r\nnull\n"${long}"\n${long}\n{"cut":"${long}`)]);
  assertEquals(
    items.map((i) => i.kind === "bad" ? [i.line, i.text, i.truncated, i.reason.split(" (")[0]] : i),
    [
      [1, "oops", false, "not valid JSON"],
      [2, "null", false, "not a JSON object"],
      [3, `"${long}"`.slice(0, 200), false, "not a JSON object"],
      [4, long.slice(0, 200), false, "not valid JSON"],
      [5, `{"cut":"${long}`.slice(0, 200), true, "the stream ended in the middle of this line"],
    ],
  );
});

Deno.test("JsonlReader.next() ends a stream that errors like one that closes, keeping a cut last line", async () => {
  const failing = (chunk: string) =>
    ReadableStream.from((async function* () {
      yield enc.encode(chunk);
      throw new Error("EIO");
    })());
  const whole = new JsonlReader(failing('{"a":1}\n'));
  assertEquals((await whole.next())?.kind, "event");
  assertEquals([await whole.next(), whole.ended], [undefined, true]);
  const cut = new JsonlReader(failing('{"a":1}\n{"b"'));
  await cut.next();
  const last = await cut.next();
  assertEquals([last?.kind, last?.kind === "bad" && last.truncated], ["bad", true]);
  assertEquals(await cut.next(), undefined);
});

Deno.test("JsonlReader.cancel() ends the reader at once", () => {
  const reader = new JsonlReader(new ReadableStream<Uint8Array>());
  assertEquals(reader.ended, false);
  reader.cancel();
  assertEquals(reader.ended, true);
});
