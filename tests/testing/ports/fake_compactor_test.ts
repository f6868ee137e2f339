import * as A from "@std/assert";
import * as K from "@agentkit/testing/testing";
import { assert, assertEquals, assertRejects, assertStrictEquals, assertThrows } from "@std/assert";
import { Agent, RequestBuilder } from "@agentkit/testing/runtime";
import type { Message } from "@agentkit/testing/ports";
import { FakeCompactor, FakeCtx, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const transcript: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "one" },
  { role: "assistant", content: "two" },
  { role: "user", content: "three" },
];

Deno.test("FakeCompactor.called is false until compact() runs, and .inputs holds copies", async () => {
  const compactor = new FakeCompactor();
  assertEquals(compactor.called, false);
  const input = transcript.map((m) => ({ ...m }));
  const out = await compactor.compact(input, new FakeCtx());
  assertEquals(out.map((m) => m.content), ["Be brief.", "one", "two", "three"]);
  (input[1] as { content: string }).content = "changed";
  assert(compactor.called);
  assertEquals(compactor.inputs, [transcript]);
});

Deno.test("FakeCompactor returns what `returns` says: a fixed transcript or a function of the input", async () => {
  const fixed = new FakeCompactor({ returns: [{ role: "user", content: "summary" }] });
  assertEquals(await fixed.compact(transcript, new FakeCtx()), [{
    role: "user",
    content: "summary",
  }]);
  const lastTwo = new FakeCompactor({ returns: (m) => m.slice(-2) });
  assertEquals((await lastTwo.compact(transcript, new FakeCtx())).map((m) => m.content), [
    "two",
    "three",
  ]);
});

Deno.test("FakeCompactor sits in RequestBuilder: the model sees the compacted transcript", async () => {
  const compactor = new FakeCompactor({ returns: (m) => m.slice(-1) });
  const llm = new FakeLLM("ok");
  const agent = new Agent("a", {
    model: "fake-model",
    system: "Be brief.",
    builder: new RequestBuilder({ compactor }),
  });
  await agent.run("now", makeTestCtx({ llm }), { context: transcript.slice(1, 3) });
  assertEquals(compactor.inputs[0].map((m) => m.content), ["Be brief.", "one", "two", "now"]);
  assertEquals(llm.requests[0].messages, [{ role: "user", content: "now" }]);
});

Deno.test("FakeCompactor.compact() rejects with the abort reason once cancelled", async () => {
  const controller = new AbortController();
  const reason = new Error("stop");
  controller.abort(reason);
  const compactor = new FakeCompactor();
  assertStrictEquals(
    await assertRejects(() =>
      compactor.compact(transcript, new FakeCtx({ signal: controller.signal }))
    ),
    reason,
  );
});

Deno.test("FakeCompactor works without a run, and names what returns must be", async () => {
  const compactor = new FakeCompactor();
  const messages: Message[] = [{ role: "user", content: "hi" }];
  assertEquals(await compactor.compact(messages, undefined as never), messages);
  assertThrows(
    () => new FakeCompactor({ returns: 5 as never }),
    TypeError,
    'new FakeCompactor(): option "returns" must be an array of messages or a function of the input',
  );
});

Deno.test("FakeCompactor refuses messages, or a returns function's answer, that are not an array of messages", async () => {
  await A.assertRejects(
    () => new K.FakeCompactor().compact(5 as never, new K.FakeCtx()),
    TypeError,
    "FakeCompactor.compact(): the messages must be an array of messages (objects), got 5",
  );
  await A.assertRejects(
    () => new K.FakeCompactor({ returns: () => 5 as never }).compact([], new K.FakeCtx()),
    TypeError,
    "FakeCompactor: what returns gave must be an array of messages (objects), got 5",
  );
});
