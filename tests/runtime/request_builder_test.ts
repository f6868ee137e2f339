import { assertEquals, assertInstanceOf, assertStrictEquals, assertThrows } from "@std/assert";
import { buildNow, RequestBuilder } from "@agentkit/testing/runtime";
import type { Compactor, GrounderPort, Message } from "@agentkit/testing/ports";
import { FakeCtx } from "@agentkit/testing/testing";

const agent = { name: "sre", model: "m", system: "Be brief." };
const earlier: Message[] = [
  { role: "user", content: "before" },
  { role: "assistant", content: "noted" },
];
const grounder = (facts: string | readonly string[]): GrounderPort => ({
  ground: () => Promise.resolve(facts),
});

Deno.test("RequestBuilder.build(): system prompt, earlier turns, then the task", async () => {
  const ctx = new FakeCtx();
  const messages = await new RequestBuilder().build(agent, "why?", ctx, earlier);
  assertEquals(messages, [
    { role: "system", content: "Be brief." },
    ...earlier,
    { role: "user", content: "why?" },
  ]);
  assertEquals(await new RequestBuilder().build(agent, "why?", ctx), [
    { role: "system", content: "Be brief." },
    { role: "user", content: "why?" },
  ]);
});

Deno.test("RequestBuilder.build() adds no system message without a system prompt", async () => {
  const ctx = new FakeCtx();
  for (const a of [{ name: "a", model: "m" }, { name: "a", model: "m", system: "" }]) {
    assertEquals(await new RequestBuilder().build(a, "hi", ctx), [{ role: "user", content: "hi" }]);
    assertEquals(await new RequestBuilder({ grounder: grounder([]) }).build(a, "hi", ctx), [
      { role: "user", content: "hi" },
    ]);
  }
});

Deno.test("RequestBuilder.build() opens one compose span, stamped and ended", async (t) => {
  await t.step("plain", async () => {
    const ctx = new FakeCtx();
    await new RequestBuilder().build(agent, "why?", ctx);
    assertEquals(ctx.spans.map((s) => [s.name, s.kind, s.ended]), [["compose", "compose", true]]);
    assertEquals(ctx.spans[0].attrs, {
      "agentkit.agent.name": "sre",
      "agentkit.prompt.version": "f3dc1fd2",
    });
  });
  await t.step("grounded", async () => {
    const ctx = new FakeCtx();
    await new RequestBuilder({ grounder: grounder(["a", "b"]), version: "v2" }).build(
      agent,
      "why?",
      ctx,
    );
    assertEquals(ctx.spans.map((s) => [s.name, s.ended]), [["compose", true]]);
    assertEquals(ctx.spans[0].attrs, {
      "agentkit.agent.name": "sre",
      "agentkit.prompt.version": "v2",
      "agentkit.grounding.count": 2,
    });
  });
});

Deno.test("RequestBuilder.versionOf(): the given version, else the prompt's FNV-1a hash", () => {
  assertEquals(new RequestBuilder({ version: "v7" }).versionOf("anything"), "v7");
  const builder = new RequestBuilder();
  assertEquals(builder.versionOf(""), "811c9dc5");
  assertEquals(builder.versionOf("a"), "e40c292c");
  assertEquals(builder.versionOf("akd"), "0d368b73", "padded to 8 hex digits");
  assertEquals(builder.versionOf("a"), "e40c292c", "a prompt seen before");
  assertEquals(builder.versionOf("Be brief."), "f3dc1fd2");
  assertEquals(builder.versionOf("Be kind."), "5d8595c4");
});

Deno.test("RequestBuilder grounding: facts after the system prompt, a list or one string", async (t) => {
  const ctx = new FakeCtx();
  const build = (facts: string | readonly string[]) =>
    new RequestBuilder({ grounder: grounder(facts) }).build(agent, "why?", ctx, earlier);
  await t.step("a list", async () => {
    assertEquals(await build(["rotate every 90d", "page on-call"]), [
      { role: "system", content: "Be brief." },
      { role: "system", content: "Grounding:\n- rotate every 90d\n- page on-call" },
      ...earlier,
      { role: "user", content: "why?" },
    ]);
  });
  await t.step("one string is one fact", async () => {
    assertEquals((await build("rotate every 90d"))[1], {
      role: "system",
      content: "Grounding:\n- rotate every 90d",
    });
  });
  await t.step("nothing found adds nothing", async () => {
    for (const none of ["", []]) {
      assertEquals((await build(none)).map((m) => m.content), [
        "Be brief.",
        "before",
        "noted",
        "why?",
      ]);
    }
  });
  await t.step("the grounder sees the run and the task", async () => {
    const seen: unknown[] = [];
    const spy: GrounderPort = {
      ground: (c, task) => {
        seen.push(c, task);
        return Promise.resolve([]);
      },
    };
    await new RequestBuilder({ grounder: spy }).build(agent, "why?", ctx);
    assertEquals(seen, [ctx, "why?"]);
  });
});

Deno.test("RequestBuilder compactor: shrinks the composed transcript, grounding included", async () => {
  const ctx = new FakeCtx();
  const seen: (readonly Message[])[] = [];
  const lastTwo: Compactor = {
    compact: (messages, c) => {
      assertStrictEquals(c, ctx);
      seen.push([...messages]);
      return Promise.resolve(messages.slice(-2));
    },
  };
  const messages = await new RequestBuilder({ compactor: lastTwo, grounder: grounder(["f"]) })
    .build(agent, "why?", ctx, earlier);
  assertEquals(messages.map((m) => m.content), ["noted", "why?"]);
  assertEquals(seen[0].map((m) => m.content), [
    "Be brief.",
    "Grounding:\n- f",
    "before",
    "noted",
    "why?",
  ]);
  const only = await new RequestBuilder({ compactor: lastTwo }).build(agent, "why?", ctx);
  assertEquals(only.map((m) => m.content), ["Be brief.", "why?"]);
});

Deno.test("new RequestBuilder() checks its options", () => {
  assertThrows(() => new RequestBuilder({ grounder: {} as never }), TypeError, "GrounderPort");
  assertThrows(() => new RequestBuilder({ compactor: {} as never }), TypeError, "Compactor");
  assertThrows(() => new RequestBuilder({ version: 3 as never }), TypeError, "version");
  assertThrows(
    () => new RequestBuilder({ grouder: grounder([]) } as never),
    TypeError,
    "new RequestBuilder()",
  );
});

Deno.test("buildNow(): a plain builder's transcript without a promise, else build()", async () => {
  const ctx = new FakeCtx();
  const plain = buildNow(new RequestBuilder(), agent, "why?", ctx, earlier);
  if (plain instanceof Promise) throw new Error("a plain builder has nothing to await");
  assertEquals(plain.map((m) => m.content), ["Be brief.", "before", "noted", "why?"]);
  assertEquals(ctx.spans.map((s) => [s.name, s.ended]), [["compose", true]]);

  const grounded = buildNow(new RequestBuilder({ grounder: grounder(["f"]) }), agent, "q", ctx, []);
  assertInstanceOf(grounded, Promise);
  assertEquals((await grounded).map((m) => m.content), ["Be brief.", "Grounding:\n- f", "q"]);

  class Tagged extends RequestBuilder {
    override async build(...args: Parameters<RequestBuilder["build"]>): Promise<Message[]> {
      return [...await super.build(...args), { role: "user", content: "tagged" }];
    }
  }
  const tagged = await buildNow(new Tagged(), agent, "q", ctx, []);
  assertEquals(tagged.map((m) => m.content), ["Be brief.", "q", "tagged"]);
});
