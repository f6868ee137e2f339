// Every route by which a test could once reach a real provider past the
// ModelRequestsDisallowed guard, each tried and each closed. The "real" port
// here has a fetch that only counts: nothing can leave the process, and a
// count above zero is the request that got out.
import { assert, assertEquals, assertRejects } from "@std/assert";
import { generateText } from "ai";
import {
  Agent,
  ModelRequestsDisallowed,
  OpenAIChatLLM,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  aiSdkModel,
  cassette,
  FakeLLM,
  FakeProvider,
  FakeTool,
  makeTestCtx,
} from "@agentkit/testing/testing";

const ANSWER = { choices: [{ message: { content: "from the network" }, finish_reason: "stop" }] };

function realPort(): { port: OpenAIChatLLM; sent: string[] } {
  const sent: string[] = [];
  const port = new OpenAIChatLLM({
    apiKey: "sk-test",
    baseURL: "https://api.example.invalid/v1",
    fetch: (input, init) => {
      sent.push(String(input));
      if (!JSON.parse(String(init?.body)).stream) return Promise.resolve(Response.json(ANSWER));
      const chunk = {
        choices: [{ delta: { content: "from the network" }, finish_reason: "stop" }],
      };
      return Promise.resolve(
        new Response(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`, {
          headers: { "content-type": "text/event-stream" },
        }),
      );
    },
  });
  return { port, sent };
}

const hi = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "hi" }] };

Deno.test("guard: a real port behind a FakeProvider is refused, not served", async () => {
  const { port, sent } = realPort();
  const provider = new FakeProvider({ llm: port });
  const client = new OpenAIChatLLM({ apiKey: "sk-test", fetch: provider.fetch });
  await assertRejects(() => client.chat(hi, makeTestCtx()));
  assertEquals(sent, []);
});

Deno.test("guard: aiSdkModel(realPort) without a ctx is refused, blocking and streamed", async () => {
  const { port, sent } = realPort();
  const e = await assertRejects(() =>
    generateText({ model: aiSdkModel(port), prompt: "hi", maxRetries: 0 })
  );
  assert(
    e instanceof ModelRequestsDisallowed ||
      (e as Error).cause instanceof ModelRequestsDisallowed ||
      /Cannot send a real model request/.test(String((e as Error).message)),
    String(e),
  );
  const model = aiSdkModel(port);
  await assertRejects(() =>
    model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })
  );
  assertEquals(sent, []);
  // The opt-in is a ctx that allows: then the request goes out.
  const allowed = aiSdkModel(port, { ctx: makeTestCtx({ allowModelRequests: true }) });
  const ok = await generateText({ model: allowed, prompt: "hi", maxRetries: 0 });
  assertEquals([ok.text, sent.length], ["from the network", 1]);
});

Deno.test("guard: a tool that calls a real port without its ctx fails the run under makeTestCtx", async () => {
  const { port, sent } = realPort();
  const tool = new FakeTool({
    name: "ask_other_model",
    responder: async () => (await port.chat(hi)).content,
  });
  const llm = FakeLLM.script(
    [{ toolCalls: [toolCall("c1", "ask_other_model", {})] }, "done"],
    { allowUnused: true },
  );
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  await assertRejects(() => agent.run("go", makeTestCtx({ llm })), ModelRequestsDisallowed);
  assertEquals(sent, []);
  // Opted in, the same tool reaches its port.
  const llm2 = FakeLLM.script([{ toolCalls: [toolCall("c1", "ask_other_model", {})] }, "done"]);
  await agent.run("go", makeTestCtx({ llm: llm2, allowModelRequests: true }));
  assertEquals(sent.length, 1);
});

Deno.test("guard: a fetch marked with the old global symbol is refused", async () => {
  const sent: string[] = [];
  const fetch = Object.assign((input: string | URL | Request) => {
    sent.push(String(input));
    return Promise.resolve(Response.json(ANSWER));
  }, { [Symbol.for("agentkit.inProcessFetch")]: true });
  const port = new OpenAIChatLLM({ apiKey: "sk-test", fetch });
  await assertRejects(() => port.chat(hi, makeTestCtx()), ModelRequestsDisallowed);
  assertEquals(sent, []);
});

Deno.test("guard: a FakeProvider fetch wrapped for logging is refused with a message that says why and what to do", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("hi") });
  const logged: string[] = [];
  const port = new OpenAIChatLLM({
    apiKey: "sk-test",
    fetch: (input, init) => {
      logged.push(String(input));
      return provider.fetch(input, init);
    },
  });
  const e = await assertRejects(() => port.chat(hi, makeTestCtx()), ModelRequestsDisallowed);
  assert(e.message.includes("wraps provider.fetch"), e.message);
  assert(e.message.includes("provider.requests"), e.message);
  assertEquals(logged, []);
  // Unwrapped, it is served, and provider.requests is the log.
  const direct = new OpenAIChatLLM({ apiKey: "sk-test", fetch: provider.fetch });
  assertEquals((await direct.chat(hi, makeTestCtx())).content, "hi");
  assertEquals(provider.requests.length, 1);
});

Deno.test("guard: recording a cassette is the opt-in, even through aiSdkModel with no ctx", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { port, sent } = realPort();
    await using recorder = cassette(`${dir}/x.jsonl`, { upstream: () => port, mode: "record" });
    const result = await generateText({ model: aiSdkModel(recorder), prompt: "hi", maxRetries: 0 });
    assertEquals([result.text, sent.length], ["from the network", 1]);
    const streamed = aiSdkModel(recorder);
    const { stream } = await streamed.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
    await Array.fromAsync(stream as unknown as AsyncIterable<unknown>);
    assertEquals(sent.length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
