import * as A from "@std/assert";
import * as K from "@agentkit/testing/testing";
import { assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { Agent, RequestBuilder } from "@agentkit/testing/runtime";
import { Scope } from "@agentkit/testing/ports";
import { FakeGrounder, FakeLLM, makeTestCtx, RecordingTracer } from "@agentkit/testing/testing";

Deno.test("FakeGrounder.calls records each (ctx, task) the request builder asked for", async () => {
  const grounder = new FakeGrounder(["certs rotate every 90 days"]);
  const builder = new RequestBuilder({ grounder });
  const ctx = makeTestCtx({ scope: new Scope({ orgId: 7, domainId: 2 }) });
  await builder.build({ name: "sre", model: "m" }, "why did the deploy fail?", ctx);
  await builder.build({ name: "sre", model: "m" }, "and now?", ctx);
  assertEquals(grounder.calls.map((c) => c.task), ["why did the deploy fail?", "and now?"]);
  assertStrictEquals(grounder.calls[0].ctx, ctx);
});

Deno.test("FakeGrounder's facts reach the model after the system prompt, and the compose span counts them", async () => {
  const grounder = new FakeGrounder(["fact one", "fact two"]);
  const llm = new FakeLLM("ok");
  const trace = new RecordingTracer();
  const agent = new Agent("sre", {
    model: "fake-model",
    system: "You are an SRE.",
    builder: new RequestBuilder({ grounder }),
  });
  await agent.run("why?", makeTestCtx({ llm, trace }));
  assertEquals(llm.requests[0].messages.map((m) => m.content), [
    "You are an SRE.",
    "Grounding:\n- fact one\n- fact two",
    "why?",
  ]);
  const compose = trace.named("compose")[0];
  assertEquals(compose.attrs["agentkit.grounding.count"], 2);
  assertEquals(typeof compose.attrs["agentkit.prompt.version"], "string");
});

Deno.test("FakeGrounder computes facts from the task when given a function", async (t) => {
  const grounder = new FakeGrounder((task) => task.includes("cert") ? ["rotate every 90d"] : []);
  const builder = new RequestBuilder({ grounder });
  await t.step("a task that matches is grounded", async () => {
    const messages = await builder.build({ name: "a", model: "m" }, "cert?", makeTestCtx());
    assertEquals(messages.map((m) => m.role), ["system", "user"]);
  });
  await t.step("an empty list adds nothing", async () => {
    const messages = await builder.build({ name: "a", model: "m" }, "lunch?", makeTestCtx());
    assertEquals(messages.map((m) => m.role), ["user"]);
  });
  assertEquals(grounder.calls.length, 2);
});

Deno.test("FakeGrounder rejects grounding that is not facts", () => {
  assertThrows(() => new FakeGrounder([1] as never), TypeError, "array of facts");
});

Deno.test("FakeGrounder takes a fact, facts or a function, and nothing else", async () => {
  const ctx = makeTestCtx();
  assertEquals(await new FakeGrounder().ground(ctx, "t"), []);
  assertEquals(await new FakeGrounder("one fact").ground(ctx, "t"), "one fact");
  const facts = ["a", "b"];
  const grounder = new FakeGrounder(facts);
  facts.push("c");
  assertEquals(await grounder.ground(ctx, "t"), ["a", "b"]);
  for (const bad of [5, ["a", 5], [5, "a"], null]) {
    assertThrows(() => new FakeGrounder(bad as never), TypeError, "Cannot build a FakeGrounder");
  }
});

Deno.test("FakeGrounder: a grounding function that returns no facts is named with its call", async () => {
  const g = new K.FakeGrounder(() => 5 as never);
  await A.assertRejects(
    () => g.ground(new K.FakeCtx(), "t"),
    TypeError,
    "FakeGrounder: the grounding function returned 5 for call 1; return a fact (a string) or an array of facts",
  );
  await A.assertRejects(
    () => new K.FakeGrounder(() => [1] as never).ground(new K.FakeCtx(), "t"),
    TypeError,
    "returned an array ([1])",
  );
  A.assertEquals(
    await new K.FakeGrounder(() => Promise.resolve(["a"])).ground(new K.FakeCtx(), "t"),
    ["a"],
  );
});
