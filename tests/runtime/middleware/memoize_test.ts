import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  InMemoryStore,
  memoize,
  MisconfiguredMiddleware,
  requestKey,
} from "@agentkit/testing/runtime";
import { Scope, type StreamEvent } from "@agentkit/testing/ports";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const agent = new Agent("analyst", { model: "fake-model" });

Deno.test("memoize() answers a repeated request from the store: the provider is called once", async () => {
  const llm = new FakeLLM("cached?");
  const ctx = makeTestCtx({ llm, store: new InMemoryStore(), chatMiddleware: [memoize()] });
  const a = await agent.run("same question", ctx);
  const b = await agent.run("same question", ctx);
  assertEquals([a.output, b.output, llm.calls], ["cached?", "cached?", 1]);
  await agent.run("another question", ctx);
  assertEquals(llm.calls, 2);
});

Deno.test("memoize() without a store fails at the first call instead of silently not caching", async () => {
  const llm = new FakeLLM("x");
  const ctx = makeTestCtx({ llm, chatMiddleware: [memoize()] });
  const e = await assertRejects(
    () => agent.run("q", ctx),
    MisconfiguredMiddleware,
    "Cannot memoize without a store",
  );
  assertEquals([e.middleware, llm.calls], ["memoize", 0]);
});

Deno.test("memoize({ store }) uses its own store over the context's", async () => {
  const own = new InMemoryStore();
  const llm = new FakeLLM("x");
  await agent.run("q", makeTestCtx({ llm, chatMiddleware: [memoize({ store: own })] }));
  assertEquals(own.size, 1);
});

Deno.test("memoize() keys are partitioned by tenant: org8 never reads org7's cached answer", async () => {
  const store = new InMemoryStore();
  const llm = FakeLLM.script(["for org7", "for org8"]);
  const org7 = makeTestCtx({
    llm,
    store,
    scope: new Scope({ orgId: 7 }),
    chatMiddleware: [memoize()],
  });
  const org8 = makeTestCtx({
    llm,
    store,
    scope: new Scope({ orgId: 8 }),
    chatMiddleware: [memoize()],
  });
  assertEquals((await agent.run("same", org7)).output, "for org7");
  assertEquals((await agent.run("same", org8)).output, "for org8");
  assertEquals((await agent.run("same", org7)).output, "for org7");
  assertEquals(llm.calls, 2);
});

Deno.test("memoize() caches a completed stream and replays its events", async () => {
  const llm = new FakeLLM("streamed");
  const ctx = makeTestCtx({ llm, store: new InMemoryStore(), chatMiddleware: [memoize()] });
  const run = async () => {
    const out: StreamEvent[] = [];
    for await (const e of agent.stream("q", ctx)) out.push(e);
    return out;
  };
  const first = await run();
  const second = await run();
  assertEquals(second, first);
  assertEquals(llm.calls, 1);
});

Deno.test("requestKey(): the tools' names and the settings are part of the key; a request with none is keyed too", () => {
  const base = { model: "m", messages: [{ role: "user" as const, content: "q" }] };
  const tool = (name: string) => ({ name, description: "d", parameters: {} });
  const keys = [
    requestKey(base),
    requestKey({ ...base, tools: [tool("a")] }),
    requestKey({ ...base, tools: [tool("b")] }),
    requestKey({ ...base, settings: { temperature: 0 } }),
    requestKey({ ...base, settings: { temperature: 1 } }),
  ];
  assertEquals(new Set(keys).size, keys.length);
  // Only the names of the tools count, not their descriptions.
  assertEquals(
    requestKey({ ...base, tools: [tool("a")] }),
    requestKey({ ...base, tools: [{ ...tool("a"), description: "other" }] }),
  );
  assertEquals(JSON.parse(requestKey(base)), ["m", base.messages, [], null]);
});

Deno.test("memoize() does not cache a stream that ended on an error; the next call asks the model again", async () => {
  const store = new InMemoryStore();
  const llm = FakeLLM.script([{ chunks: ["a"], error: "cut" }, { chunks: ["b"] }, "unused"]);
  const ctx = makeTestCtx({ llm, store, chatMiddleware: [memoize()] });
  const first = await Array.fromAsync(agent.stream("go", ctx));
  assertEquals(first.at(-1)?.type, "error");
  await Array.fromAsync(agent.stream("go", ctx));
  await Array.fromAsync(agent.stream("go", ctx));
  assertEquals(llm.calls, 2);
  assertEquals(memoize().name, "memoize");
});

Deno.test("memoize() on streams: each request has its own entry; without a store the stream fails naming memoize", async () => {
  const llm = FakeLLM.script([{ chunks: ["one"] }, { chunks: ["two"] }]);
  const store = new InMemoryStore();
  const ctx = makeTestCtx({ llm, store, chatMiddleware: [memoize()] });
  const text = async (q: string, c = ctx) => {
    let out = "";
    for await (const e of agent.stream(q, c) as AsyncIterable<StreamEvent>) {
      if (e.type === "text_delta") out += e.content;
    }
    return out;
  };
  assertEquals([await text("first"), await text("second"), await text("first")], [
    "one",
    "two",
    "one",
  ]);
  assertEquals([llm.calls, store.size], [2, 2]);
  const bare = makeTestCtx({ llm: new FakeLLM("x"), chatMiddleware: [memoize()] });
  const e = await assertRejects(() => text("q", bare), MisconfiguredMiddleware);
  assertEquals(e.middleware, "memoize");
});

Deno.test("memoize() is named, and its option errors name it", () => {
  assertEquals(memoize().name, "memoize");
  assertThrows(
    () => memoize({ stor: new InMemoryStore() } as never),
    TypeError,
    "memoize(): unknown option",
  );
});
