import * as A from "@std/assert";
import * as K from "@agentkit/testing/testing";
import { assertEquals, assertThrows } from "@std/assert";
import { Agent, ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx, RecordingTracer } from "@agentkit/testing/testing";

Deno.test("RecordingTracer: a plain run opens invoke_agent (client) then compose (compose), then the model call", async () => {
  const tracer = new RecordingTracer();
  await new Agent("analyst", { model: "fake-model" }).run(
    "go",
    makeTestCtx({ llm: new FakeLLM("ok"), trace: tracer }),
  );
  assertEquals(tracer.spans.map((s) => [s.name, s.kind]), [
    ["invoke_agent", "client"],
    ["compose", "compose"],
    ["chat", "llm"],
  ]);
  assertEquals(tracer.spans.every((s) => s.ended), true);
  assertEquals(typeof tracer.spans[1].attrs["agentkit.prompt.version"], "string");
  assertEquals(tracer.spans[0].attrs["agentkit.stop_reason"], "stop");
});

Deno.test("RecordingTracer: tool calls add tool spans, failures add error events, the exporter sees closes", async () => {
  const exported: string[] = [];
  const tracer = new RecordingTracer({ exporter: (s) => exported.push(`${s.name}:${s.kind}`) });
  const ok = new FakeTool({ name: "ok", responder: 1 });
  const bad = new FakeTool({ name: "bad", failWith: "boom" });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "ok", {}), toolCall("c2", "bad", {})] },
    { content: "done" },
  ]);
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [ok, bad] }),
  });
  await agent.run("go", makeTestCtx({ llm, trace: tracer }));
  const tools = tracer.named("execute_tool");
  assertEquals(tools.map((s) => [s.attrs["gen_ai.tool.name"], s.events.map((e) => e.name)]), [[
    "ok",
    [],
  ], ["bad", ["error"]]]);
  assertEquals(exported, [
    "compose:compose",
    "chat:llm",
    "execute_tool:tool",
    "execute_tool:tool",
    "chat:llm",
    "invoke_agent:client",
  ]);
});

Deno.test("RecordingSpan.end() runs the exporter once", () => {
  let n = 0;
  const span = new RecordingTracer({ exporter: () => n++ }).span("x", "internal");
  span.end();
  span.end();
  span[Symbol.dispose]();
  assertEquals(n, 1);
});

Deno.test("RecordingTracer: a span's event keeps a copy of its attrs; disposing a span ends it once", () => {
  const exported: string[] = [];
  const tracer = new RecordingTracer({ exporter: (s) => exported.push(s.name) });
  const attrs = { k: 1 };
  {
    using span = tracer.span("work", "internal");
    span.addEvent("step", attrs);
    attrs.k = 2;
    assertEquals(span.events, [{ name: "step", attrs: { k: 1 } }]);
  }
  assertEquals([tracer.spans[0].ended, exported], [true, ["work"]]);
  tracer.spans[0].end();
  assertEquals(exported, ["work"]);
  assertThrows(
    () => new RecordingTracer({ exporter: 1 } as never),
    TypeError,
    "new RecordingTracer(): option",
  );
});

Deno.test("RecordingTracer.span() and named() refuse names, kinds and attributes of the wrong type", () => {
  const t = new K.RecordingTracer();
  A.assertThrows(
    () => t.span(5 as never, "llm"),
    TypeError,
    "RecordingTracer.span(): the name must be a string, got 5",
  );
  A.assertThrows(
    () => t.span("x", undefined as never),
    TypeError,
    "the kind must be a string, got undefined",
  );
  A.assertThrows(
    () => t.span("x", "llm", [] as never),
    TypeError,
    "the attributes must be an object",
  );
  A.assertThrows(
    () => t.named(5 as never),
    TypeError,
    "RecordingTracer.named(): the name must be a string",
  );
  A.assertEquals(t.spans, []);
  A.assertEquals(t.span("x", "custom-kind").kind, "custom-kind", "a kind is any string");
});
