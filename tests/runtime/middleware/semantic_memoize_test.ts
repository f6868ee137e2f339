import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  InMemoryVector,
  MisconfiguredMiddleware,
  ReActCognition,
  semanticMemoize,
} from "@agentkit/testing/runtime";
import { type StreamEvent, toolCall } from "@agentkit/testing/ports";
import { FakeEmbedder, FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

const vector = () => new InMemoryVector({ embedder: new FakeEmbedder() });
const numbered = () => {
  let n = 0;
  return new FakeLLM(() => `answer ${++n}`);
};
const geo = new Agent("geo", { model: "fake-model" });

Deno.test("semanticMemoize() answers a near-duplicate question from the cache", async () => {
  const llm = numbered();
  const ctx = makeTestCtx({ llm, vector: vector(), chatMiddleware: [semanticMemoize()] });
  assertEquals((await geo.run("What is the capital of France?", ctx)).output, "answer 1");
  assertEquals((await geo.run("what is the capital of france", ctx)).output, "answer 1");
  assertEquals((await geo.run("Please, what is the capital of France", ctx)).output, "answer 1");
  assertEquals(llm.calls, 1);
});

Deno.test("semanticMemoize() sends a question below the threshold to the model", async (t) => {
  await t.step("a different question", async () => {
    const llm = numbered();
    const ctx = makeTestCtx({ llm, vector: vector(), chatMiddleware: [semanticMemoize()] });
    await geo.run("What is the capital of France?", ctx);
    assertEquals((await geo.run("What is the capital of Peru?", ctx)).output, "answer 2");
    assertEquals(llm.calls, 2);
  });
  await t.step("a threshold of 1 takes only the same words", async () => {
    const llm = numbered();
    const ctx = makeTestCtx({
      llm,
      vector: vector(),
      chatMiddleware: [semanticMemoize({ threshold: 1 })],
    });
    await geo.run("What is the capital of France?", ctx);
    await geo.run("Please, what is the capital of France", ctx);
    await geo.run("WHAT is the capital of France", ctx);
    assertEquals(llm.calls, 2);
  });
});

Deno.test("semanticMemoize() reuses an answer only in the same context", async (t) => {
  await t.step("another system prompt is another context", async () => {
    const llm = numbered();
    const ctx = makeTestCtx({ llm, vector: vector(), chatMiddleware: [semanticMemoize()] });
    await new Agent("a", { model: "fake-model", system: "Answer in French." }).run(
      "capital of France?",
      ctx,
    );
    await new Agent("b", { model: "fake-model", system: "Answer in Dutch." }).run(
      "capital of France?",
      ctx,
    );
    assertEquals(llm.calls, 2);
  });
  await t.step("another model is another context", async () => {
    const llm = numbered();
    const ctx = makeTestCtx({ llm, vector: vector(), chatMiddleware: [semanticMemoize()] });
    await new Agent("a", { model: "fake-model" }).run("capital of France?", ctx);
    await new Agent("a", { model: "other-model" }).run("capital of France?", ctx);
    assertEquals(llm.calls, 2);
  });
  await t.step("context: (req) => req.model matches on the question alone", async () => {
    const llm = numbered();
    const ctx = makeTestCtx({
      llm,
      vector: vector(),
      chatMiddleware: [semanticMemoize({ context: (req) => req.model })],
    });
    await new Agent("a", { model: "fake-model", system: "one" }).run("capital of France?", ctx);
    const r = await new Agent("b", { model: "fake-model", system: "two" }).run(
      "capital of France?",
      ctx,
    );
    assertEquals([r.output, llm.calls], ["answer 1", 1]);
  });
});

Deno.test("semanticMemoize() never answers the middle of a tool loop from the cache", async () => {
  const lookup = new FakeTool({ name: "lookup", responder: "Paris" });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup", {})] },
    "It is Paris.",
    "It is Paris.", // the second run's first turn is cached; its tool turn is not
  ], { allowUnused: true });
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [lookup] }),
  });
  const ctx = makeTestCtx({ llm, vector: vector(), chatMiddleware: [semanticMemoize()] });
  assertEquals((await agent.run("capital of France?", ctx)).output, "It is Paris.");
  assertEquals(llm.calls, 2);
  assertEquals((await agent.run("capital of France?", ctx)).output, "It is Paris.");
  assertEquals(llm.calls, 3); // the cached tool call ran again, and its result went to the model
  assertEquals(lookup.calls.length, 2);
});

Deno.test("semanticMemoize() caches streams as their events, but not a failed stream", async () => {
  const llm = FakeLLM.script([
    { chunks: ["Pa", "ris"] },
    { chunks: ["Pa"], failAfterChunks: 1 },
    { content: "Paris again" },
  ]);
  const ctx = makeTestCtx({ llm, vector: vector(), chatMiddleware: [semanticMemoize()] });
  const text = async (q: string) => {
    let out = "";
    for await (const e of geo.stream(q, ctx) as AsyncIterable<StreamEvent>) {
      if (e.type === "text_delta") out += e.content;
    }
    return out;
  };
  assertEquals(await text("capital of France?"), "Paris");
  assertEquals(await text("Capital of France!"), "Paris");
  assertEquals(llm.calls, 1);
  await text("capital of Peru?");
  assertEquals(await text("capital of Peru?"), "Paris again");
  assertEquals(llm.calls, 3);
});

Deno.test("semanticMemoize() without a vector store throws MisconfiguredMiddleware at the first call", async () => {
  const llm = new FakeLLM("x");
  const ctx = makeTestCtx({ llm, chatMiddleware: [semanticMemoize()] });
  const error = await assertRejects(
    () => geo.run("q", ctx),
    MisconfiguredMiddleware,
    "Cannot semanticMemoize without a vector store",
  );
  assertEquals(error.middleware, "semanticMemoize");
  assertEquals(llm.calls, 0);
});

Deno.test("semanticMemoize({ vector }) uses its own store over the context's", async () => {
  const own = vector();
  const llm = numbered();
  const ctx = makeTestCtx({ llm, chatMiddleware: [semanticMemoize({ vector: own })] });
  await geo.run("capital of France?", ctx);
  await geo.run("capital of France?", ctx);
  assertEquals([llm.calls, own.size], [1, 1]);
});

Deno.test("semanticMemoize() validates its options when built", () => {
  assertThrows(() => semanticMemoize({ threshold: 0 }), RangeError, "threshold");
  assertThrows(() => semanticMemoize({ threshold: 1.5 }), RangeError, "threshold");
  assertThrows(
    () => semanticMemoize({ treshold: 0.9 } as never),
    TypeError,
    'did you mean "threshold"?',
  );
});

Deno.test("semanticMemoize(): other tools are another context, and each question keeps its own entry", async () => {
  const llm = numbered();
  const ctx = makeTestCtx({ llm, vector: vector(), chatMiddleware: [semanticMemoize()] });
  const withTool = (name: string) =>
    new Agent("a", {
      model: "fake-model",
      cognition: new ReActCognition({ tools: [new FakeTool({ name, responder: "x" })] }),
    });
  await withTool("maps").run("capital of France?", ctx);
  await withTool("atlas").run("capital of France?", ctx);
  assertEquals(llm.calls, 2);
  // A second question is stored beside the first, not over it.
  await geo.run("capital of France?", ctx);
  await geo.run("tallest mountain on Earth?", ctx);
  assertEquals(llm.calls, 4);
  assertEquals((await geo.run("capital of France?", ctx)).output, "answer 3");
  assertEquals(llm.calls, 4);
});

Deno.test("semanticMemoize() on streams: another system prompt is another context, and a tool loop's middle goes to the model", async () => {
  const llm = FakeLLM.script([
    { chunks: ["Bonjour"] },
    { chunks: ["Hallo"] },
    { toolCalls: [toolCall("c1", "lookup", {})] },
    { chunks: ["It is Paris."] },
  ]);
  const ctx = makeTestCtx({ llm, vector: vector(), chatMiddleware: [semanticMemoize()] });
  const text = async (agent: Agent, q: string) => {
    let out = "";
    for await (const e of agent.stream(q, ctx) as AsyncIterable<StreamEvent>) {
      if (e.type === "text_delta") out += e.content;
    }
    return out;
  };
  const french = new Agent("a", { model: "fake-model", system: "Answer in French." });
  const dutch = new Agent("b", { model: "fake-model", system: "Answer in Dutch." });
  assertEquals(await text(french, "greeting?"), "Bonjour");
  assertEquals(await text(dutch, "greeting?"), "Hallo");
  assertEquals(await text(french, "greeting?"), "Bonjour");
  assertEquals(llm.calls, 2);
  const lookup = new FakeTool({ name: "lookup", responder: "Paris" });
  const tooled = new Agent("c", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [lookup] }),
  });
  assertEquals(await text(tooled, "capital of France?"), "It is Paris.");
  assertEquals([llm.calls, lookup.calls.length], [4, 1]);
});

Deno.test("semanticMemoize() is named, and its option errors name it", () => {
  assertEquals(semanticMemoize().name, "semanticMemoize");
  assertThrows(() => semanticMemoize({ vectr: 1 } as never), TypeError, "semanticMemoize():");
});
