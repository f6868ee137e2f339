import { assertEquals, assertRejects } from "@std/assert";
import { SseReader } from "../../../runtime/providers/_sse.ts";

function body(chunks: string[], fail?: Error): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(enc.encode(chunks[i++]));
      else if (fail) controller.error(fail);
      else controller.close();
    },
  });
}

Deno.test("SseReader: one batch per read, messages split across reads joined, then undefined", async () => {
  const reader = new SseReader(body([
    "event: a\ndata: 1\n\ndata: 2\n\n",
    ": a comment\n\n",
    "data: hal",
    "f\n\n",
  ]));
  assertEquals(
    (await reader.next())?.map((m) => [m.event, m.data]),
    [["a", "1"], [undefined, "2"]],
  );
  assertEquals(reader.done, false);
  // The comment-only read and the first half yield nothing; the batch comes with the rest.
  assertEquals((await reader.next())?.map((m) => m.data), ["half"]);
  assertEquals(await reader.next(), undefined);
  assertEquals(reader.done, true);
  assertEquals(await reader.next(), undefined);
});

Deno.test("SseReader: a final message without its blank line is a cut and is dropped", async () => {
  const reader = new SseReader(body(["data: whole\n\n", "data: cut"]));
  assertEquals((await reader.next())?.map((m) => m.data), ["whole"]);
  assertEquals(await reader.next(), undefined);
  // Multi-byte text split inside a character decodes whole.
  const bytes = new TextEncoder().encode("data: é\n\n");
  const split = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes.slice(0, 7));
      c.enqueue(bytes.slice(7));
      c.close();
    },
  });
  assertEquals((await new SseReader(split).next())?.map((m) => m.data), ["é"]);
});

Deno.test("SseReader.cancel() releases the body once; a read error reaches next()", async () => {
  let cancels = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(new TextEncoder().encode("data: x\n\n"));
    },
    cancel() {
      cancels++;
    },
  });
  const reader = new SseReader(stream);
  await reader.next();
  await reader.cancel();
  await reader.cancel();
  assertEquals([cancels, reader.done], [1, true]);
  assertEquals(await reader.next(), undefined);
  const broken = new SseReader(body(["data: a\n\n"], new Error("reset")));
  await broken.next();
  await assertRejects(() => broken.next(), Error, "reset");
});
