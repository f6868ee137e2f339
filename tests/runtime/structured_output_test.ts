import { assertEquals, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import { z } from "zod";
import { Agent, InvalidOutput, ReActCognition } from "@agentkit/testing/runtime";
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
