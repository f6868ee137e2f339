// The guard's ambient policy before and after the process holds a port that
// could reach the network (runtime/_ambient.ts). Before, a tool call under a
// test context runs outside the AsyncLocalStorage (issue 39: entering it per
// call made the tool loop 7× slower on Deno); a port called without a context
// from such a call, or made during one, must still be refused. After, the
// call runs inside the store, and the refusal follows the call's work.
//
// Arming is for the life of the process: the tests of the unarmed state
// disarm it first (`disarm()`, for tests only), since another test file may
// share the process (the mutation runner's).
import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  ModelRequestsDisallowed,
  OpenAIChatLLM,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { type ToolCall, toolCall, type ToolResult } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
import {
  ambientPolicy,
  disarm,
  isArmed,
  REFUSING,
  underPolicy,
  underRefusal,
} from "../../../runtime/_ambient.ts";

const ANSWER = { choices: [{ message: { content: "from the network" }, finish_reason: "stop" }] };
const hi = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "hi" }] };

// A port whose fetch only counts: a count above zero is a request that got out.
function realPort(): { port: OpenAIChatLLM; sent: string[] } {
  const sent: string[] = [];
  const port = new OpenAIChatLLM({
    apiKey: "sk-test",
    baseURL: "https://api.example.invalid/v1",
    fetch: (input) => {
      sent.push(String(input));
      return Promise.resolve(Response.json(ANSWER));
    },
  });
  return { port, sent };
}

function toolAgent(responder: () => unknown): Agent {
  const tool = new FakeTool({ name: "ask_other_model", responder });
  return new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) });
}

function testCtx() {
  const llm = FakeLLM.script(
    [{ toolCalls: [toolCall("c1", "ask_other_model", {})] }, "done"],
    { allowUnused: true },
  );
  return makeTestCtx({ llm });
}

Deno.test("unarmed: a refusing call is counted while it runs, ready or pending, and not after", async () => {
  disarm(); // another test file in this process may have made a real port
  assert(!isArmed());
  assertEquals(ambientPolicy(), undefined);
  // A ready answer: refused inside, nothing left after.
  assertEquals(underRefusal(() => ambientPolicy()), REFUSING);
  assertEquals(ambientPolicy(), undefined);
  // A pending one: refused across its awaits, nothing left once it settles.
  const seen = await underRefusal(async () => {
    await Promise.resolve();
    return ambientPolicy();
  });
  assertEquals([seen, ambientPolicy()], [REFUSING, undefined]);
  // A failure, thrown or rejected, leaves nothing behind either.
  assertThrows(
    () =>
      underRefusal(() => {
        throw new Error("boom");
      }),
    Error,
    "boom",
  );
  await assertRejects(() => underRefusal(() => Promise.reject(new Error("late"))), Error, "late");
  assertEquals(ambientPolicy(), undefined);
  // A policy set around the code wins over the count (a cassette's recording).
  underRefusal(() =>
    underPolicy(
      { allowModelRequests: true },
      () => assertEquals(ambientPolicy()?.allowModelRequests, true),
    )
  );
  // A port whose fetch answers in-process cannot reach the network: it does not arm.
  const provider = new FakeProvider({ llm: new FakeLLM("hi") });
  const inProcess = new OpenAIChatLLM({ apiKey: "sk-test", fetch: provider.fetch });
  assertEquals((await inProcess.chat(hi, makeTestCtx())).content, "hi");
  assert(!isArmed());
});

Deno.test("unarmed: a port made outside while a tool call is in flight is refused from that call", async () => {
  disarm(); // another test file in this process may have made a real port
  assert(!isArmed());
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const box: { made?: ReturnType<typeof realPort> } = {};
  const agent = toolAgent(async () => {
    await gate;
    return (await box.made!.port.chat(hi)).content;
  });
  const run = agent.run("go", testCtx());
  // The tool call started before any port that could reach the network existed.
  await Promise.resolve();
  const made = box.made = realPort();
  assert(isArmed());
  release();
  await assertRejects(() => run, ModelRequestsDisallowed);
  assertEquals(made.sent, []);
  // Made while a test's tool call was in flight, the port keeps refusing a
  // call without a context; a context that allows, or none refusing, decides.
  await assertRejects(() => made.port.chat(hi), ModelRequestsDisallowed);
  await made.port.chat(hi, makeTestCtx({ allowModelRequests: true }));
  assertEquals(made.sent.length, 1);
});

Deno.test("arms: a port that could reach the network exists, and a call's work meets the refusal after the call is over", async () => {
  const { port, sent } = realPort();
  assert(isArmed());
  // A tool that leaves work behind: the port is called once the call has answered.
  let later: Promise<unknown> | undefined;
  const agent = toolAgent(() => {
    later = Promise.resolve().then(() => Promise.resolve()).then(() => port.chat(hi));
    return "started";
  });
  const result = await agent.run("go", testCtx());
  assertEquals(result.output, "done");
  await assertRejects(() => later!, ModelRequestsDisallowed);
  assertEquals(sent, []);
  // Outside any test run, a call without a context is the caller's own.
  assertEquals((await port.chat(hi)).content, "from the network");
  assertEquals(sent.length, 1);
});

Deno.test("a tool provider's call under a test context meets the refusal too", async () => {
  const { port, sent } = realPort();
  const provider = {
    listTools: () => [{ name: "ask_other_model", description: "asks", parameters: {} }],
    executeToolCalls: async (calls: readonly ToolCall[]): Promise<readonly ToolResult[]> => {
      const answer = await port.chat(hi);
      return calls.map((c) => ({ callId: c.id, isError: false, content: answer.content }));
    },
  };
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ provider }),
  });
  await assertRejects(() => agent.run("go", testCtx()), ModelRequestsDisallowed);
  assertEquals(sent, []);
});
