import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { NullCtx, ToolArgsInvalid } from "@agentkit/testing/runtime";
import { FakeTool, InvalidScript } from "@agentkit/testing/testing";
import { z } from "zod";

const ctx = new NullCtx();

Deno.test("FakeTool answers a value or a function of the args, recording a copy of each args object", async () => {
  const fixed = new FakeTool({ name: "fixed", responder: { ok: true } });
  assertEquals(await fixed.call({ a: 1 }, ctx), { ok: true });
  const fn = new FakeTool({ name: "fn", responder: (args: { n: number }) => args.n * 2 });
  const args = { n: 21 };
  assertEquals(await fn.call(args, ctx), 42);
  args.n = 0;
  assertEquals(fn.calls, [{ n: 21 }], "the record is a copy, not the caller's object");
});

Deno.test("FakeTool validates args against parameters (zod or JSON Schema) and records the bad call", async (t) => {
  await t.step("zod", async () => {
    const tool = new FakeTool({
      name: "z",
      parameters: z.object({ host: z.string() }),
      responder: "ok",
    });
    const e = await assertRejects(() => tool.call({ host: 7 }, ctx), ToolArgsInvalid);
    assertEquals(
      e.message,
      'Invalid arguments for tool "z": host: Invalid input: expected string, received number',
    );
    assertEquals(tool.calls, [{ host: 7 }]);
  });
  await t.step("JSON Schema", async () => {
    const tool = new FakeTool({
      name: "j",
      parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      responder: "ok",
    });
    assertEquals(await tool.call({ n: 1 }, ctx), "ok");
    await assertRejects(() => tool.call({}, ctx), ToolArgsInvalid, "n:");
  });
});

Deno.test("FakeTool failWith fails every call, or the first failTimes", async () => {
  const always = new FakeTool({ name: "a", failWith: "disk full" });
  await assertRejects(() => always.call({}, ctx), Error, "disk full");
  await assertRejects(() => always.call({}, ctx), Error, "disk full");
  const flaky = new FakeTool({
    name: "f",
    failWith: new Error("flaky"),
    failTimes: 1,
    responder: "ok",
  });
  await assertRejects(() => flaky.call({}, ctx), Error, "flaky");
  assertEquals(await flaky.call({}, ctx), "ok");
  assertEquals(flaky.calls.length, 2);
});

Deno.test("FakeTool rejects a setup that cannot answer or a mistyped option", () => {
  assertThrows(() => new FakeTool({ name: "x" }), InvalidScript, "needs a responder");
  assertThrows(
    () => new FakeTool({ name: "x", responce: 1 } as never),
    TypeError,
    'unknown option "responce"; did you mean "responder"?',
  );
});
