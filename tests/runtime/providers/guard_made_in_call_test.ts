// A port made inside a tool call of a test run, in a process that held no
// port that could reach the network until then (runtime/_ambient.ts: the call
// runs outside the AsyncLocalStorage): refused in the call and after it. A
// file of its own: guard_unarmed_test.ts arms the process in its own tests.
import { assert, assertEquals, assertRejects } from "@std/assert";
import {
  Agent,
  ModelRequestsDisallowed,
  OpenAIChatLLM,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
import { disarm, isArmed } from "../../../runtime/_ambient.ts";

const ANSWER = { choices: [{ message: { content: "from the network" }, finish_reason: "stop" }] };
const hi = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "hi" }] };

Deno.test("unarmed: a port made inside a tool call of a test run is refused in the call and after it", async () => {
  disarm(); // another test file in this process may have made a real port
  assert(!isArmed());
  const sent: string[] = [];
  let port: OpenAIChatLLM | undefined;
  const tool = new FakeTool({
    name: "ask_other_model",
    responder: async () => {
      port = new OpenAIChatLLM({
        apiKey: "sk-test",
        baseURL: "https://api.example.invalid/v1",
        fetch: (input) => {
          sent.push(String(input));
          return Promise.resolve(Response.json(ANSWER));
        },
      });
      return (await port.chat(hi)).content;
    },
  });
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const llm = FakeLLM.script(
    [{ toolCalls: [toolCall("c1", "ask_other_model", {})] }, "done"],
    { allowUnused: true },
  );
  await assertRejects(() => agent.run("go", makeTestCtx({ llm })), ModelRequestsDisallowed);
  // The port outlives the call, and belongs to the test all the same.
  await assertRejects(() => port!.chat(hi), ModelRequestsDisallowed);
  assertEquals(sent, []);
  // A context that allows is the opt-in.
  await port!.chat(hi, makeTestCtx({ allowModelRequests: true }));
  assertEquals(sent.length, 1);
});
