import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { Agent, NullCtx, ReActCognition, ToolArgsInvalid } from "@agentkit/testing/runtime";
import {
  FakeLLM,
  FakeTool,
  InvalidScript,
  makeTestCtx,
  UnusedTurns,
} from "@agentkit/testing/testing";
import { z } from "zod";
import { CALL_NOW } from "../../../runtime/_now.ts";

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

Deno.test("FakeTool failTimes throws the scripted error n times, then answers", async (t) => {
  await t.step("the same error each time, then the responder, for good", async () => {
    const busy = new Error("busy");
    const tool = new FakeTool({ name: "f", failWith: busy, failTimes: 2, responder: "ok" });
    assertEquals(await Promise.allSettled([tool.call({}, ctx), tool.call({}, ctx)]), [
      { status: "rejected", reason: busy },
      { status: "rejected", reason: busy },
    ]);
    assertEquals([await tool.call({}, ctx), await tool.call({}, ctx)], ["ok", "ok"]);
    assertEquals([tool.turnsTaken, tool.calls.length], [4, 4]);
  });
  await t.step("without failWith, an error naming the tool", async () => {
    const tool = new FakeTool({ name: "dns", failTimes: 1, responder: "1.2.3.4" });
    await assertRejects(() => tool.call({}, ctx), Error, 'FakeTool "dns" failed, as scripted');
    assertEquals(await tool.call({}, ctx), "1.2.3.4");
  });
  await t.step("a call with invalid arguments does not use up a failure", async () => {
    const tool = new FakeTool({
      name: "v",
      parameters: z.object({ n: z.number() }),
      failWith: "busy",
      failTimes: 1,
      responder: "ok",
    });
    await assertRejects(() => tool.call({ n: "x" }, ctx), ToolArgsInvalid);
    assertEquals([tool.turnsTaken, tool.calls.length], [0, 1]);
    await assertRejects(() => tool.call({ n: 1 }, ctx), Error, "busy");
    assertEquals(await tool.call({ n: 2 }, ctx), "ok");
  });
  await t.step("failTimes: 0 never fails", async () => {
    const tool = new FakeTool({ name: "z", failWith: "busy", failTimes: 0, responder: "ok" });
    assertEquals(await tool.call({}, ctx), "ok");
    tool.verify();
  });
});

Deno.test("FakeTool verify() and disposal report scripted failures the run never reached", async (t) => {
  await t.step("verify() names the tool and how many were used", async () => {
    const tool = new FakeTool({ name: "flaky", failWith: "busy", failTimes: 3, responder: "ok" });
    await assertRejects(() => tool.call({}, ctx), Error, "busy");
    const e = assertThrows(
      () => tool.verify(),
      UnusedTurns,
      'FakeTool "flaky" has 3 scripted failure(s), but the run used only 1',
    );
    assertEquals(e.unused, 2);
  });
  await t.step("using throws at scope exit", () => {
    assertThrows(
      () => {
        using _tool = new FakeTool({ name: "f", failTimes: 1, responder: "ok" });
      },
      UnusedTurns,
      "allowUnused",
    );
  });
  await t.step(
    "passes once every failure was reached, with allowUnused, or with no claim",
    async () => {
      using tool = new FakeTool({ name: "f", failTimes: 1, responder: "ok" });
      await assertRejects(() => tool.call({}, ctx));
      using _opted = new FakeTool({ name: "g", failTimes: 1, responder: "ok", allowUnused: true });
      using _plain = new FakeTool({ name: "h", responder: "ok" });
      using _always = new FakeTool({ name: "i", failWith: "down" });
    },
  );
});

Deno.test("FakeTool rejects a setup that cannot answer or a mistyped option", () => {
  assertThrows(() => new FakeTool({ name: "x" }), InvalidScript, "needs a responder");
  assertThrows(
    () => new FakeTool({ name: "x", failWith: "busy", failTimes: 2 }),
    InvalidScript,
    "fails only its first 2 call(s) (failTimes) and has no responder for the calls after",
  );
  assertThrows(
    () => new FakeTool({ name: "x", responder: 1, failTimes: -1 }),
    RangeError,
    "failTimes",
  );
  assertThrows(
    () => new FakeTool({ name: "x", responder: 1, failTimes: 1.5 }),
    RangeError,
    "failTimes",
  );
  assertThrows(
    () => new FakeTool({ name: "x", responder: 1, failTimes: "2" } as never),
    TypeError,
    "failTimes",
  );
  assertThrows(
    () => new FakeTool({ name: "x", responder: 1, allowUnused: "yes" } as never),
    TypeError,
    "allowUnused",
  );
  assertThrows(
    () => new FakeTool({ name: "x", responder: 1, allowUnsed: true } as never),
    TypeError,
    'did you mean "allowUnused"?',
  );
  assertThrows(
    () => new FakeTool({ name: "x", responce: 1 } as never),
    TypeError,
    'unknown option "responce"; did you mean "responder"?',
  );
});

Deno.test("FakeTool fills in its description and parameters, and checks args only against given ones", async () => {
  const bare = new FakeTool({ name: "bare", responder: "ok" });
  assertEquals([bare.description, bare.parameters], ["", { type: "object" }]);
  // No parameters given: whatever the model sent reaches the script.
  assertEquals(await bare.call("not an object" as never, ctx), "ok");
  const described = new FakeTool({ name: "d", description: "Looks up a host.", responder: "ok" });
  assertEquals(described.description, "Looks up a host.");
  const typed = new FakeTool({ name: "typed", parameters: { type: "object" }, responder: "ok" });
  await assertRejects(() => typed.call("not an object" as never, ctx), ToolArgsInvalid);
});

Deno.test("FakeTool requires a name, saying so", () => {
  assertThrows(
    () => new FakeTool({ responder: "ok" } as never),
    TypeError,
    'new FakeTool(): option "name" is required',
  );
});

Deno.test("FakeTool under the runtime takes the validated arguments as given: a transforming schema works", async () => {
  const schema = z.object({ s: z.string().transform((s) => s.length) });
  const tool = new FakeTool({ name: "len", parameters: schema, responder: (a: unknown) => a });
  const llm = FakeLLM.script([
    { toolCalls: [{ id: "c1", name: "len", args: { s: "abc" } }] },
    { content: "done" },
  ]);
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const result = await agent.run("go", makeTestCtx({ llm }));
  // Parsed once, by the runtime: the responder sees the schema's output.
  assertEquals(result.messages[2], { role: "tool", content: '{"s":3}', toolCallId: "c1" });
  assertEquals(tool.calls, [{ s: 3 }]);
  // Called directly, it still validates what it is given.
  await assertRejects(() => tool.call({ s: 3 }, new NullCtx()), Error, "expected string");
  assertEquals(await tool.call({ s: "abcd" }, new NullCtx()), { s: 4 });
});

Deno.test("FakeTool's ready path validates the arguments unless told the runtime validated them", () => {
  const schema = z.object({ s: z.string().transform((s) => s.length) });
  const tool = new FakeTool({ name: "len", parameters: schema, responder: (a: unknown) => a });
  const now = (tool as unknown as {
    [CALL_NOW](args: Record<string, unknown>, ctx: NullCtx, validated?: true): unknown;
  })[CALL_NOW].bind(tool);
  // Not told: checked as a direct call is, and a ready failure is thrown.
  assertThrows(() => now({ s: 3 }, ctx), Error, "expected string");
  assertEquals(now({ s: "ab" }, ctx), { s: 2 });
  // Told: taken as given, the schema's output included.
  assertEquals(now({ s: 3 }, ctx, true), { s: 3 });
  assertEquals(tool.calls, [{ s: 3 }, { s: "ab" }, { s: 3 }]);
});

Deno.test("FakeTool refuses a name a provider would refuse, saying the rule", () => {
  for (const name of ["my tool", "a".repeat(65), "a".repeat(1 << 20), "fs.read", "9lives"]) {
    const e = assertThrows(() => new FakeTool({ name, responder: "ok" }), RangeError);
    assert(e.message.startsWith('new FakeTool(): name "'), e.message);
    assert(e.message.includes("a tool name is 1 to 64 letters, digits"), e.message);
  }
  assertEquals(new FakeTool({ name: "a".repeat(64), responder: 1 }).name.length, 64);
});

Deno.test("FakeTool refuses parameters that are not a schema, naming the part", () => {
  const bad: [unknown, string][] = [
    ["x", 'option "parameters" must be a zod schema or a JSON Schema object'],
    [[], "got an array"],
    [{ type: "bogus" }, 'new FakeTool(): parameters.type is "bogus", not a JSON-schema type'],
    [{ type: "object", properties: 5 }, "parameters.properties must be an object"],
  ];
  for (const [parameters, message] of bad) {
    assertThrows(
      () => new FakeTool({ name: "t", responder: "ok", parameters: parameters as never }),
      TypeError,
      message,
    );
  }
});

Deno.test("FakeTool refuses an answer that is not JSON: a value at build, a function's per call", async () => {
  const cyc: Record<string, unknown> = {};
  cyc.self = cyc;
  assertThrows(
    () => new FakeTool({ name: "t", responder: { n: 1n } }),
    TypeError,
    "new FakeTool(): responder.n is a BigInt (1n), which JSON cannot hold; a tool's answer reaches the model as JSON",
  );
  const sync = new FakeTool({ name: "sync", responder: (a: { big?: boolean }) => a.big ? 1n : 1 });
  assertEquals(await sync.call({}, ctx), 1);
  const e = await assertRejects(() => sync.call({ big: true }, ctx), InvalidScript);
  assertEquals(
    e.message.startsWith(
      'FakeTool "sync": the responder\'s answer to call 2 is not JSON: the answer is a BigInt (1n)',
    ),
    true,
    e.message,
  );
  const cyclic = new FakeTool({ name: "cyclic", responder: () => Promise.resolve(cyc) });
  await assertRejects(
    () => cyclic.call({}, ctx),
    InvalidScript,
    "answer to call 1 is not JSON: the answer.self refers back",
  );
  const nan = new FakeTool({ name: "nan", responder: () => ({ score: NaN }) });
  await assertRejects(() => nan.call({}, ctx), InvalidScript, "the answer.score is NaN");
  // undefined (a void responder) stays an answer.
  assertEquals(await new FakeTool({ name: "v", responder: () => {} }).call({}, ctx), undefined);
});

Deno.test("FakeTool({ idempotent }) says whether a second run repeats a side effect; unset claims nothing", () => {
  assertEquals(new FakeTool({ name: "charge", responder: 1, idempotent: false }).idempotent, false);
  assertEquals(new FakeTool({ name: "read", responder: 1, idempotent: true }).idempotent, true);
  const unset = new FakeTool({ name: "t", responder: 1 });
  assertEquals(unset.idempotent, undefined);
  assertThrows(
    // deno-lint-ignore no-explicit-any
    () => new FakeTool({ name: "t", responder: 1, idempotent: "no" as any }),
    TypeError,
    "idempotent",
  );
});
