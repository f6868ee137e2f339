import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { z } from "zod";
import {
  Agent,
  InvalidOutput,
  prepareOutput,
  ReActCognition,
  reflection,
} from "@agentkit/testing/runtime";
import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

const Verdict = z.object({
  cause: z.enum(["cert", "dns", "deploy"]),
  severity: z.number().int().min(1).max(5),
});

Deno.test("Agent output: the request asks for JSON and result.data is the checked, typed answer", async () => {
  const llm = FakeLLM.script(['{"cause":"cert","severity":4}']);
  const agent = new Agent("triage", { model: "fake-model", output: Verdict });
  const result = await agent.run("Why did the deploy fail?", makeTestCtx({ llm }));
  const data: { cause: "cert" | "dns" | "deploy"; severity: number } = result.data;
  assertEquals(data, { cause: "cert", severity: 4 });
  assertEquals(result.output, '{"cause":"cert","severity":4}');
  assertEquals(llm.requests[0].settings?.jsonSchema, z.toJSONSchema(Verdict));
  assertEquals(llm.requests[0].settings?.jsonSchemaName, "triage");
});

Deno.test("Agent output: an invalid answer is shown to the model once, with what was wrong", async () => {
  const llm = FakeLLM.script([
    '{"cause":"cert","severity":"high"}',
    '{"cause":"cert","severity":5}',
  ]);
  const agent = new Agent("triage", { model: "fake-model", output: Verdict });
  const result = await agent.run("Why?", makeTestCtx({ llm }));
  assertEquals(result.data, { cause: "cert", severity: 5 });
  assertEquals(llm.calls, 2);
  assertEquals(result.usage.inputTokens, 20);
  const reflected = llm.requests[1].messages.at(-1)!;
  assertEquals(reflected.role, "user");
  assertStringIncludes(reflected.content, "severity:");
  assertStringIncludes(reflected.content, "Answer again with only a JSON value");
  assertEquals(llm.requests[1].messages.at(-2)?.content, '{"cause":"cert","severity":"high"}');
  assertEquals(llm.requests[1].settings?.jsonSchema, z.toJSONSchema(Verdict));
});

Deno.test("Agent output: a second invalid answer fails with InvalidOutput, the issues and the raw answer", async () => {
  const llm = FakeLLM.script(["It was the cert.", '{"cause":"moon","severity":9}']);
  const agent = new Agent("triage", { model: "fake-model", output: Verdict });
  const error = await assertRejects(
    () => agent.run("Why?", makeTestCtx({ llm })),
    InvalidOutput,
    'Agent "triage" answered with output that does not match its schema after 2 attempt(s)',
  );
  assertEquals(error.raw, '{"cause":"moon","severity":9}');
  assertEquals(error.issues.map((i: { path: readonly PropertyKey[] }) => i.path), [["cause"], [
    "severity",
  ]]);
  assertEquals(error.agent, "triage");
  // The first answer was not JSON at all: that is what the model was told.
  assertStringIncludes(llm.requests[1].messages.at(-1)!.content, "(root): not JSON");
});

Deno.test("Agent output: a fenced JSON answer counts as JSON", async () => {
  const llm = FakeLLM.script(['```json\n{"cause":"dns","severity":2}\n```']);
  const agent = new Agent("triage", { model: "fake-model", output: Verdict });
  assertEquals((await agent.run("Why?", makeTestCtx({ llm }))).data, { cause: "dns", severity: 2 });
});

Deno.test("Agent output with tools: every request carries the schema; FakeLLM.auto answers valid JSON", async () => {
  const lookup = new FakeTool({
    name: "lookup_cert",
    parameters: z.object({ host: z.string() }),
    responder: { expired: true },
  });
  const llm = FakeLLM.auto();
  const agent = new Agent("triage", {
    model: "fake-model",
    output: Verdict,
    cognition: new ReActCognition({ tools: [lookup] }),
  });
  const result = await agent.run("Why?", makeTestCtx({ llm }));
  assertEquals(lookup.calls, [{ host: "a" }]);
  assertEquals(result.data, { cause: "cert", severity: 1 });
  assertEquals(llm.requests.map((r) => r.settings?.jsonSchema !== undefined), [true, true]);
});

Deno.test("Agent output: the streamed run yields both attempts' events and settles with data", async () => {
  const llm = FakeLLM.script(['{"cause":1}', { chunks: ['{"cause":"deploy",', '"severity":3}'] }]);
  const agent = new Agent("triage", { model: "fake-model", output: Verdict });
  const run = agent.start("Why?", makeTestCtx({ llm }));
  const deltas: string[] = [];
  for await (const { delta } of run.events) if (delta !== undefined) deltas.push(delta);
  assertEquals(deltas, ['{"cause":1}', '{"cause":"deploy",', '"severity":3}']);
  assertEquals(((await run.result) as { data?: unknown }).data, { cause: "deploy", severity: 3 });
});

Deno.test("Agent output must be a zod schema with a JSON Schema form", () => {
  assertThrows(
    () => new Agent("a", { model: "fake-model", output: "json" as never }),
    TypeError,
    'option "output" must be a zod schema',
  );
  assertThrows(
    () => new Agent("a", { model: "fake-model", output: z.object({ at: z.date() }) }),
    TypeError,
    "its output schema has no JSON Schema form",
  );
  assertThrows(
    () => new Agent("a", { model: "fake-model", ouptut: Verdict } as never),
    TypeError,
    'did you mean "output"?',
  );
});

Deno.test("an agent without output has no data", async () => {
  const result = await new Agent("a", { model: "fake-model" }).run(
    "hi",
    makeTestCtx({ llm: new FakeLLM("hello") }),
  );
  assertEquals([result.output, result.data], ["hello", undefined]);
});

Deno.test("prepareOutput() refuses what is not a zod schema, saying what it got", () => {
  assertThrows(
    () => prepareOutput(null as never, "a"),
    TypeError,
    'Cannot build agent "a": output must be a zod schema (z.object({...})), got null',
  );
  assertThrows(() => prepareOutput("json" as never, "a"), TypeError, "got string");
  assertThrows(() => prepareOutput({} as never, "a"), TypeError, "got object");
});

Deno.test("prepareOutput() keeps zod's reason when the schema has no JSON Schema form", () => {
  const e = assertThrows(() => prepareOutput(z.object({ at: z.date() }), "a"), TypeError);
  assertInstanceOf(e.cause, Error);
  assertStringIncludes(e.message, (e.cause as Error).message);
});

Deno.test("prepareOutput(): the schema name is the agent's name, made safe", () => {
  assertEquals(prepareOutput(Verdict, "triage").name, "triage");
  assertEquals(prepareOutput(Verdict, "my agent: v2").name, "my_agent__v2");
  assertEquals(prepareOutput(Verdict, "a-b_c").name, "a-b_c");
  assertEquals(prepareOutput(Verdict, "x".repeat(70)).name, "x".repeat(64));
  assertEquals(prepareOutput(Verdict, "").name, "output");
  assertEquals(prepareOutput(Verdict, "a").jsonSchema.type, "object");
});

Deno.test("prepareOutput().check(): JSON, fenced or not, then the schema", async (t) => {
  const { check } = prepareOutput(Verdict, "a");
  const ok = { ok: true, data: { cause: "dns", severity: 2 } };
  const json = '{"cause":"dns","severity":2}';
  const notJson = (raw: string) => {
    const r = check(raw);
    if (r.ok) throw new Error(`${raw} passed`);
    assertEquals([r.issues[0].code, r.issues[0].path], ["invalid_json", []]);
    assert(r.issues[0].message.startsWith("not JSON ("), r.issues[0].message);
  };
  await t.step("bare JSON", () => assertEquals(check(json), ok));
  await t.step("a json fence", () => assertEquals(check("```json\n" + json + "\n```"), ok));
  await t.step(
    "a fence without a language",
    () => assertEquals(check("```\n" + json + "\n```"), ok),
  );
  await t.step("a fence with spaces around it", () => {
    assertEquals(check("\n  ```json  \n" + json + "\n```  \n"), ok);
  });
  await t.step("a fence closed on the JSON's last line", () => {
    assertEquals(check("```json\n" + json + "```"), ok);
  });
  await t.step("JSON over several lines in a fence", () => {
    assertEquals(check('```json\n{\n  "cause": "dns",\n  "severity": 2\n}\n```'), ok);
  });
  await t.step("prose before or after a fence is not JSON", () => {
    notJson("Here it is:\n```json\n" + json + "\n```");
    notJson("```json\n" + json + "\n```\nHope that helps");
  });
  await t.step("valid JSON that misses the schema", () => {
    const r = check('{"cause":"moon","severity":2}');
    if (r.ok) throw new Error("an unknown cause passed");
    assertEquals(r.issues.map((i) => i.path), [["cause"]]);
  });
});

Deno.test("reflection() shows the model each issue, by path", () => {
  const text = reflection([
    { path: [], code: "invalid_json", message: "not JSON" },
    { path: ["items", 0], code: "invalid_type", message: "expected number" },
  ]);
  assertStringIncludes(text, "(root): not JSON; items.0: expected number.");
  assert(text.startsWith("Your answer does not match the required JSON schema: "), text);
});

Deno.test("InvalidOutput: named, with the agent, the raw answer and a preview of it", () => {
  const issues = [{ path: ["severity"], code: "too_big", message: "too big" }];
  const e = new InvalidOutput("triage", '{"severity":9}', issues, 2);
  assertEquals([e.name, e.agent, e.raw, e.issues], [
    "InvalidOutput",
    "triage",
    '{"severity":9}',
    issues,
  ]);
  assertStringIncludes(e.message, "after 2 attempt(s): severity: too big");
  assertStringIncludes(e.message, 'the answer was "{\\"severity\\":9}"');
  const exactly = new InvalidOutput("a", "x".repeat(200), issues, 1).message;
  assertStringIncludes(exactly, `the answer was "${"x".repeat(200)}".`);
  const longer = new InvalidOutput("a", "y".repeat(201), issues, 1).message;
  assertStringIncludes(longer, `the answer was "${"y".repeat(200)}...".`);
});

Deno.test("Agent output: a second attempt that fails on an error event fails the run, as a first one does", async () => {
  const turns =
    () => ['{"severity":"high"}', { content: "par", error: "upstream reset", failAfterChunks: 1 }];
  const agent = new Agent("triage", { model: "fake-model", output: Verdict });
  // Blocking: the call throws.
  await assertRejects(
    () => agent.run("Why?", makeTestCtx({ llm: FakeLLM.script(turns()) })),
    Error,
    "upstream reset",
  );
  // Streamed: the error event is handed on, and the run fails with it.
  const run = agent.start("Why?", makeTestCtx({ llm: FakeLLM.script(turns()) }));
  await assertRejects(() => run.result, Error, "upstream reset");
  // agent.stream() returns the folded result, its usage the two attempts'.
  const stream = agent.stream("Why?", makeTestCtx({ llm: FakeLLM.script(turns()) }));
  let step = await stream.next();
  while (!step.done) step = await stream.next();
  assertEquals([step.value.stopReason, step.value.usage.inputTokens], ["error", 20]);
});

Deno.test("Agent output: a refused or cut answer says so, not 'not JSON'", async (t) => {
  const cases = [
    ["content_filter", "refused", "the model refused to answer"],
    ["length", "truncated", "cut at the token limit"],
  ] as const;
  for (const [finishReason, code, says] of cases) {
    await t.step(finishReason, async () => {
      const agent = new Agent("triage", {
        model: "fake-model",
        output: z.object({ a: z.number() }),
      });
      const llm = FakeLLM.script([
        { content: "I can't help with that", finishReason },
        { content: '{"a":', finishReason },
      ]);
      const e = await assertRejects(
        () => agent.run("rate it", makeTestCtx({ llm })),
        InvalidOutput,
      );
      assertEquals(e.issues.map((i: { code?: string }) => i.code), [code]);
      assert(e.message.includes(says), e.message);
      assert(e.message.includes(`finishReason "${finishReason}"`), e.message);
      assert(!e.message.includes("not JSON"), e.message);
      // The model was shown what happened, not told its JSON was malformed.
      assert(llm.requests[1].messages.at(-1)!.content.includes(says));
    });
  }
  await t.step("a cut answer that still matches is taken", async () => {
    const agent = new Agent("a", { model: "fake-model", output: z.object({ a: z.number() }) });
    const llm = FakeLLM.script([{ content: '{"a":1}', finishReason: "length" }]);
    assertEquals((await agent.run("go", makeTestCtx({ llm }))).data, { a: 1 });
  });
});

Deno.test("prepareOutput().check(): the finish reason explains a failed check, and only a failed one", () => {
  const out = prepareOutput(z.object({ a: z.number() }), "a");
  const cut = out.check('{"a":', "length");
  assertEquals(cut.ok ? [] : cut.issues.map((i) => i.code), ["truncated"]);
  const wrong = out.check('{"a":"x"}', "content_filter");
  assertEquals(wrong.ok ? [] : wrong.issues.map((i) => i.code), ["refused"]);
  const plain = out.check('{"a":', "stop");
  assertEquals(plain.ok ? [] : plain.issues.map((i) => i.code), ["invalid_json"]);
  assertEquals(out.check('{"a":2}', "length"), { ok: true, data: { a: 2 } });
});
