// chaos() on agents of other stacks: a hand-written loop on the official
// `openai` client through world.fetch (the FakeProvider wire), and the AI
// SDK's generateText through world.aiSdkModel(). Both are test-only imports.
import OpenAI from "openai";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { chaos, ChaosFailure, type ChaosWorld, FakeTool } from "@agentkit/testing/testing";

const lookup = new FakeTool({
  name: "lookup",
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  responder: ({ q }: { q: string }) => `found ${q}`,
});
const SCRIPT = [{ toolCalls: [toolCall("c1", "lookup", { q: "x" })] }, "It is 42."];

// A loop on the openai client; `careful` adds a timeout and parses
// arguments defensively, answering the model with the problem.
function openaiAgent(careful: boolean) {
  return async (world: ChaosWorld): Promise<string | null> => {
    const client = new OpenAI({
      apiKey: "sk-test",
      fetch: world.fetch.fetch,
      ...(careful ? { timeout: 20_000, maxRetries: 4 } : {}),
    });
    const t = world.tool(lookup);
    const messages: OpenAI.ChatCompletionMessageParam[] = [{
      role: "user",
      content: "What is it?",
    }];
    for (let step = 0; step < 8; step++) {
      const res = await client.chat.completions.create({
        model: "gpt-4o-mini",
        messages,
        tools: [{
          type: "function",
          function: { name: "lookup", parameters: lookup.parameters as never },
        }],
      });
      const msg = res.choices[0].message;
      messages.push(msg);
      if (!msg.tool_calls?.length) return msg.content;
      for (const c of msg.tool_calls) {
        if (c.type !== "function") continue;
        let content: string;
        try {
          const args = careful ? safeParse(c.function.arguments) : JSON.parse(c.function.arguments);
          content = String(await t.call(args, world.ctx()));
        } catch (error) {
          if (!careful) throw error;
          content = `Error: ${(error as Error).message}`;
        }
        messages.push({ role: "tool", tool_call_id: c.id, content });
      }
    }
    throw new RangeError("the loop did not finish in 8 steps");
  };
}

function safeParse(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`the arguments are not JSON: ${text}`);
  }
}

Deno.test("chaos() finds the openai-client loop's bugs through world.fetch, shrunk to one fault each", async () => {
  const json = await assertRejects(
    () => chaos(openaiAgent(false), { script: SCRIPT, faults: ["invalidToolJson"], seed: 1 }),
    ChaosFailure,
  );
  assertEquals([json.invariant, json.faults], [
    "typedFailure",
    'call 1: invalidToolJson("lookup")',
  ]);
  assertStringIncludes(json.message, "a SyntaxError from inside");
  const stall = await assertRejects(
    () => chaos(openaiAgent(false), { script: SCRIPT, faults: ["stall"], seed: 1 }),
    ChaosFailure,
  );
  assertEquals([stall.invariant, stall.faults], ["terminates", "call 1: stall()"]);
  // The client's own 10-minute default timeout is what finally fired.
  assertStringIncludes(stall.message, "ran past maxVirtualMs (300000 ms of virtual time");
});

Deno.test("chaos() finds the careful openai-client loop green under every fault", async () => {
  const summary = await chaos(openaiAgent(true), { script: SCRIPT, seed: 1, runs: 60 });
  assertEquals(summary.runs, 60);
});

function aiSdkAgent(careful: boolean) {
  return async (world: ChaosWorld): Promise<string> => {
    const t = world.tool(lookup);
    const result = await generateText({
      model: world.aiSdkModel(),
      prompt: "What is it?",
      stopWhen: stepCountIs(5),
      ...(careful ? { timeout: { stepMs: 10_000 }, maxRetries: 4 } : {}),
      tools: {
        lookup: tool({
          inputSchema: jsonSchema<{ q: string }>(lookup.parameters as never),
          execute: (args) => t.call(args, world.ctx()),
        }),
      },
    });
    return result.text;
  };
}

Deno.test("chaos() finds an AI SDK agent's missing timeout through world.aiSdkModel()", async () => {
  const failure = await assertRejects(
    () => chaos(aiSdkAgent(false), { script: SCRIPT, faults: ["stall"], seed: 1, hangMs: 20 }),
    ChaosFailure,
  );
  assertEquals([failure.invariant, failure.faults], ["terminates", "call 1: stall()"]);
  assertStringIncludes(failure.message, "made no progress for 20 ms of real time");
});

Deno.test("chaos() finds the AI SDK agent with a step timeout green (its timers run on the world's clock)", async () => {
  const summary = await chaos(aiSdkAgent(true), {
    script: SCRIPT,
    faults: ["stall", "rateLimit", "serverError", "timeout", "toolError", "slowTool"],
    seed: 1,
    runs: 40,
  });
  assertEquals(summary.runs, 40);
});
