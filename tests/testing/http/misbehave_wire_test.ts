// Each misbehaviour on each wire, read by the official clients unchanged:
// openai (Chat Completions and Responses) and @anthropic-ai/sdk, blocking
// and streamed.
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { assertEquals, assertInstanceOf, assertStringIncludes } from "@std/assert";
import { z } from "zod";
import type { LLMPort } from "@agentkit/testing/ports";
import {
  Agent,
  type AgentResult,
  AnthropicLLM,
  CollectingObserver,
  GeminiLLM,
  OpenAIChatLLM,
  ReActCognition,
} from "@agentkit/testing/runtime";
import {
  FakeLLM,
  FakeProvider,
  FakeTool,
  makeTestCtx,
  misbehave,
  type Turn,
} from "@agentkit/testing/testing";

const usage = { inputTokens: 5, outputTokens: 40 };
const tools: OpenAI.ChatCompletionTool[] = [{
  type: "function",
  function: { name: "lookup", parameters: { type: "object", properties: {} } },
}];
const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "go" }];

function provider(turn: Turn): FakeProvider {
  return new FakeProvider({ llm: FakeLLM.script([{ ...turn, usage }], { repeatLast: true }) });
}

// The misbehave turns are frozen and marked; a copy with usage keeps their
// content. The two whose shape the script check refuses are served as built.
function served(turn: Turn): FakeProvider {
  return new FakeProvider({ llm: FakeLLM.script([turn], { repeatLast: true }) });
}

function openai(p: FakeProvider): OpenAI {
  return new OpenAI({ apiKey: "sk-test", fetch: p.fetch, maxRetries: 0 });
}

function anthropic(p: FakeProvider): Anthropic {
  return new Anthropic({ apiKey: "sk-ant-test", fetch: p.fetch, maxRetries: 0 });
}

async function chat(turn: Turn, fresh = provider) {
  const client = openai(fresh(turn));
  const blocking = await client.chat.completions.create({ model: "gpt-4o", messages, tools });
  const stream = client.chat.completions.stream({
    model: "gpt-4o",
    messages,
    tools,
    stream_options: { include_usage: true },
  });
  const chunks: OpenAI.ChatCompletionChunk[] = [];
  stream.on("chunk", (c) => chunks.push(c));
  const streamed = await stream.finalChatCompletion();
  return { blocking, streamed, chunks };
}

Deno.test("chat.completions: a refusal is message.refusal with no content, finishing stop", async () => {
  const { blocking, streamed, chunks } = await chat(misbehave.refusal("No."));
  for (const res of [blocking, streamed]) {
    assertEquals(res.choices[0].message.refusal, "No.");
    assertEquals(res.choices[0].finish_reason, "stop");
  }
  assertEquals(blocking.choices[0].message.content, null);
  // The stream's first chunk opens the message with content "", as for any answer.
  assertEquals(streamed.choices[0].message.content, "");
  assertEquals(chunks.flatMap((c) => c.choices[0]?.delta.refusal ?? []), ["No."]);
});

Deno.test("chat.completions: arguments that are not JSON reach the client as they are", async () => {
  const { blocking, streamed } = await chat(misbehave.invalidToolJson("lookup"));
  for (const res of [blocking, streamed]) {
    const call = res.choices[0].message
      .tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    assertEquals([call.id, call.function.name, call.function.arguments], [
      "call_invalid_json",
      "lookup",
      '{"query": "unterminated',
    ]);
    assertEquals(res.choices[0].finish_reason, "tool_calls");
  }
});

Deno.test("chat.completions: a cut call finishes length with its arguments truncated", async () => {
  const { blocking, streamed } = await chat(misbehave.lengthMidToolCall("lookup"));
  for (const res of [blocking, streamed]) {
    const call = res.choices[0].message
      .tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    assertEquals(call.function.arguments, '{"query": "the weat');
    assertEquals(res.choices[0].finish_reason, "length");
  }
});

Deno.test("chat.completions: the content filter finishes content_filter with empty content", async () => {
  const { blocking, streamed } = await chat(misbehave.contentFilter());
  for (const res of [blocking, streamed]) {
    assertEquals(res.choices[0].finish_reason, "content_filter");
    assertEquals(res.choices[0].message.refusal ?? null, null);
  }
  assertEquals(blocking.choices[0].message.content, "");
});

Deno.test("chat.completions: an empty answer is empty content, finishing stop", async () => {
  const { blocking, streamed } = await chat(misbehave.emptyAnswer());
  for (const res of [blocking, streamed]) {
    assertEquals([res.choices[0].message.content, res.choices[0].finish_reason], ["", "stop"]);
    assertEquals(res.choices[0].message.tool_calls ?? [], []);
  }
});

Deno.test("chat.completions: thinking with no answer is empty content, every output token a reasoning token", async () => {
  const { blocking, chunks } = await chat(misbehave.reasoningOnly());
  assertEquals(blocking.choices[0].message.content, "");
  assertEquals(blocking.usage?.completion_tokens_details?.reasoning_tokens, 40);
  assertEquals(chunks.at(-1)?.usage?.completion_tokens_details?.reasoning_tokens, 40);
  assertEquals(chunks.flatMap((c) => c.choices[0]?.delta.content || []), []);
});

Deno.test("chat.completions: repeated ids, an unknown tool and a nameless call reach the client as sent", async () => {
  const dup = await chat(misbehave.duplicateCallIds("lookup", 3), served);
  for (const res of [dup.blocking, dup.streamed]) {
    assertEquals(res.choices[0].message.tool_calls!.map((c) => c.id), [
      "call_dup",
      "call_dup",
      "call_dup",
    ]);
  }
  const unknown = await chat(misbehave.unknownTool("nope"), served);
  for (const res of [unknown.blocking, unknown.streamed]) {
    const call = res.choices[0].message
      .tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    assertEquals(call.function.name, "nope");
  }
  const nameless = await chat(misbehave.malformedToolCall(), served);
  const call = nameless.blocking.choices[0].message
    .tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
  assertEquals([call.id, call.function.name], ["call_malformed", ""]);
  const first = nameless.chunks.find((c) => c.choices[0]?.delta.tool_calls);
  assertEquals(first?.choices[0].delta.tool_calls?.[0].function?.name, "");
});

async function responses(turn: Turn, fresh = provider) {
  const client = openai(fresh(turn));
  const rtools: OpenAI.Responses.Tool[] = [{
    type: "function",
    name: "lookup",
    parameters: { type: "object", properties: {} },
    strict: false,
  }];
  const blocking = await client.responses.create({ model: "gpt-4o", input: "go", tools: rtools });
  const stream = client.responses.stream({ model: "gpt-4o", input: "go", tools: rtools });
  const types: string[] = [];
  stream.on("event", (e) => types.push(e.type));
  const streamed = await stream.finalResponse();
  return { blocking, streamed, types };
}

Deno.test("responses: a refusal is a completed message with a refusal part", async () => {
  const { blocking, streamed, types } = await responses(misbehave.refusal("No."));
  for (const res of [blocking, streamed]) {
    assertEquals(res.status, "completed");
    const message = res.output[0] as OpenAI.Responses.ResponseOutputMessage;
    assertEquals(message.content.map((p) => [p.type, (p as { refusal?: string }).refusal]), [
      ["refusal", "No."],
    ]);
    assertEquals(res.output_text, "");
  }
  assertEquals(types.filter((t) => t.startsWith("response.refusal")), [
    "response.refusal.delta",
    "response.refusal.done",
  ]);
});

Deno.test("responses: thinking with no answer is a reasoning item and no message", async () => {
  const { blocking, streamed, types } = await responses(misbehave.reasoningOnly("Hm."));
  for (const res of [blocking, streamed]) {
    assertEquals(res.output.map((o) => o.type), ["reasoning"]);
    assertEquals((res.output[0] as OpenAI.Responses.ResponseReasoningItem).summary, [
      { type: "summary_text", text: "Hm." },
    ]);
    assertEquals(res.usage?.output_tokens_details.reasoning_tokens, 40);
  }
  assertEquals(types.filter((t) => t.includes("reasoning")), [
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_text.delta",
    "response.reasoning_summary_text.done",
    "response.reasoning_summary_part.done",
  ]);
});

Deno.test("responses: the content filter and a cut call leave the response incomplete", async () => {
  const filtered = await responses(misbehave.contentFilter());
  for (const res of [filtered.blocking, filtered.streamed]) {
    assertEquals([res.status, res.incomplete_details?.reason], ["incomplete", "content_filter"]);
  }
  const cut = await responses(misbehave.lengthMidToolCall("lookup"));
  for (const res of [cut.blocking, cut.streamed]) {
    assertEquals([res.status, res.incomplete_details?.reason], ["incomplete", "max_output_tokens"]);
    const call = res.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    assertEquals(call.arguments, '{"query": "the weat');
  }
});

Deno.test("responses: bad arguments and a nameless call reach the client as sent", async () => {
  const bad = await responses(misbehave.invalidToolJson("lookup", "{'a': 1}"));
  for (const res of [bad.blocking, bad.streamed]) {
    const call = res.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    assertEquals([call.name, call.arguments], ["lookup", "{'a': 1}"]);
  }
  const nameless = await responses(misbehave.malformedToolCall(), served);
  for (const res of [nameless.blocking, nameless.streamed]) {
    const call = res.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    assertEquals([call.call_id, call.name], ["call_malformed", ""]);
  }
});

function message(m: Anthropic.Message | Error): Anthropic.Message {
  if (m instanceof Error) throw m;
  return m;
}

async function messagesApi(turn: Turn, fresh = provider) {
  const client = anthropic(fresh(turn));
  const atools: Anthropic.Tool[] = [{ name: "lookup", input_schema: { type: "object" } }];
  const params = {
    model: "claude-x",
    max_tokens: 100,
    messages: [{ role: "user" as const, content: "go" }],
    tools: atools,
  };
  const blocking = await client.messages.create(params);
  const streamed = await client.messages.stream(params).finalMessage().catch((e: Error) => e);
  const raw: Anthropic.RawMessageStreamEvent[] = [];
  for await (const e of await client.messages.create({ ...params, stream: true })) raw.push(e);
  return { blocking, streamed, raw };
}

Deno.test("messages: a refusal is its text, stop_reason refusal, with refusal stop_details", async () => {
  const { blocking, streamed } = await messagesApi(misbehave.refusal("No."));
  for (const res of [blocking, message(streamed)]) {
    assertEquals(res.content.map((b) => b.type), ["text"]);
    assertEquals((res.content[0] as Anthropic.TextBlock).text, "No.");
    assertEquals(res.stop_reason, "refusal");
    assertEquals(res.stop_details, { type: "refusal", category: null, explanation: null });
  }
});

Deno.test("messages: the content filter is stop_reason refusal too (the API's only filter)", async () => {
  const { blocking, streamed } = await messagesApi(misbehave.contentFilter());
  for (const res of [blocking, message(streamed)]) assertEquals(res.stop_reason, "refusal");
});

Deno.test("messages: thinking with no answer is one thinking block, signed", async () => {
  const { blocking, streamed, raw } = await messagesApi(misbehave.reasoningOnly("Hm."));
  for (const res of [blocking, message(streamed)]) {
    assertEquals(res.content.length, 1);
    const block = res.content[0] as Anthropic.ThinkingBlock;
    assertEquals([block.type, block.thinking, res.stop_reason], ["thinking", "Hm.", "end_turn"]);
    assertEquals(block.signature.length > 0, true);
  }
  const deltas = raw.flatMap((e) => e.type === "content_block_delta" ? [e.delta.type] : []);
  assertEquals(deltas, ["thinking_delta", "signature_delta"]);
});

Deno.test("messages: a cut call streams its partial input, then stop_reason max_tokens", async () => {
  const { blocking, raw } = await messagesApi(misbehave.lengthMidToolCall("lookup"));
  assertEquals(blocking.stop_reason, "max_tokens");
  assertEquals((blocking.content[0] as Anthropic.ToolUseBlock).name, "lookup");
  const partial = raw.flatMap((e) =>
    e.type === "content_block_delta" && e.delta.type === "input_json_delta"
      ? [e.delta.partial_json]
      : []
  );
  assertEquals(partial, ['{"query": "the weat']);
  const end = raw.find((e) => e.type === "message_delta") as Anthropic.RawMessageDeltaEvent;
  assertEquals(end.delta.stop_reason, "max_tokens");
});

Deno.test("messages: arguments that are not JSON stream as sent; a nameless call is a tool_use without a name", async () => {
  const bad = await messagesApi(misbehave.invalidToolJson("lookup", "{'a': 1}"), served);
  const partial = bad.raw.flatMap((e) =>
    e.type === "content_block_delta" && e.delta.type === "input_json_delta"
      ? [e.delta.partial_json]
      : []
  );
  assertEquals(partial, ["{'a': 1}"]);
  // The SDK's stream helper parses the input at the block's end, and fails on it.
  assertInstanceOf(bad.streamed, Anthropic.AnthropicError);
  assertStringIncludes((bad.streamed as Error).message, "JSON");
  const nameless = await messagesApi(misbehave.malformedToolCall(), served);
  for (const res of [nameless.blocking, message(nameless.streamed)]) {
    const block = res.content[0] as Anthropic.ToolUseBlock;
    assertEquals([block.type, block.id, block.name], ["tool_use", "call_malformed", ""]);
  }
});

// Through the wire and back: our own ports read each misbehaviour, and ReAct
// answers it as it answers the FakeLLM's.
const ports: Record<string, (fetch: FakeProvider["fetch"]) => LLMPort> = {
  OpenAIChatLLM: (fetch) => new OpenAIChatLLM({ apiKey: "sk-test", fetch }),
  AnthropicLLM: (fetch) => new AnthropicLLM({ apiKey: "sk-ant-test", fetch }),
  GeminiLLM: (fetch) => new GeminiLLM({ apiKey: "AIza-test", fetch }),
};

interface Outcome {
  readonly stopReason?: string;
  readonly observed?: string;
  readonly thought?: boolean;
  readonly toolRuns?: number;
  readonly reflected?: string;
  readonly thrown?: string;
}

async function through(
  port: string,
  streaming: boolean,
  turn: Turn,
): Promise<Outcome> {
  const p = new FakeProvider({ llm: FakeLLM.script([turn, "Done."], { allowUnused: true }) });
  const llm = ports[port](p.fetch);
  const tool = new FakeTool({
    name: "lookup",
    parameters: z.object({ host: z.string().optional() }),
    responder: "found",
  });
  const observer = new CollectingObserver();
  const agent = new Agent("a", { model: "m", cognition: new ReActCognition({ tools: [tool] }) });
  const ctx = makeTestCtx({ llm, observer, allowModelRequests: true });
  try {
    let result: AgentResult;
    if (streaming) {
      const stream = agent.stream("go", ctx);
      let step = await stream.next();
      while (!step.done) step = await stream.next();
      result = step.value;
    } else result = await agent.run("go", ctx);
    const kinds = ["model_refusal", "content_filter", "empty_answer", "duplicate_call_id"];
    const reply = result.messages.find((m) => m.role === "tool" && m.isError);
    return {
      stopReason: result.stopReason,
      observed: observer.items.find((o) => kinds.includes(o.kind))?.kind,
      thought: (observer.items.find((o) => o.kind === "empty_answer")?.payload as
        | { reasoning: boolean }
        | undefined)?.reasoning,
      toolRuns: tool.calls.length,
      reflected: reply?.content.slice(0, 40),
    };
  } catch (error) {
    return { thrown: (error as Error).name };
  }
}

Deno.test("our ports read each misbehaviour back through the wire, and ReAct answers it", async (t) => {
  const after = { stopReason: "error", observed: "empty_answer", thought: false, toolRuns: 0 };
  const cases: Array<[string, Turn, Record<string, Outcome>]> = [
    ["refusal", misbehave.refusal("No."), {
      OpenAIChatLLM: { stopReason: "error", observed: "model_refusal", toolRuns: 0 },
      // Anthropic has one signal for both: stop_reason "refusal"; Gemini, SAFETY.
      AnthropicLLM: { stopReason: "error", observed: "content_filter", toolRuns: 0 },
      GeminiLLM: { stopReason: "error", observed: "content_filter", toolRuns: 0 },
    }],
    ["contentFilter", misbehave.contentFilter(), {
      OpenAIChatLLM: { stopReason: "error", observed: "content_filter", toolRuns: 0 },
      AnthropicLLM: { stopReason: "error", observed: "content_filter", toolRuns: 0 },
      GeminiLLM: { stopReason: "error", observed: "content_filter", toolRuns: 0 },
    }],
    ["emptyAnswer", misbehave.emptyAnswer(), {
      OpenAIChatLLM: after,
      AnthropicLLM: after,
      GeminiLLM: after,
    }],
    ["reasoningOnly", misbehave.reasoningOnly(), {
      // Chat Completions shows no thinking; AnthropicLLM reads the thinking
      // block, GeminiLLM the thought parts.
      OpenAIChatLLM: after,
      AnthropicLLM: { ...after, thought: true },
      GeminiLLM: { ...after, thought: true },
    }],
    ["lengthMidToolCall", misbehave.lengthMidToolCall("lookup"), {
      OpenAIChatLLM: { stopReason: "length", toolRuns: 0 },
      AnthropicLLM: { stopReason: "length", toolRuns: 0 },
      GeminiLLM: { stopReason: "length", toolRuns: 0 },
    }],
    ["malformedToolCall", misbehave.malformedToolCall(), {
      OpenAIChatLLM: { thrown: "ProviderResponseError" },
      AnthropicLLM: { thrown: "ProviderResponseError" },
      // MALFORMED_FUNCTION_CALL: no call comes back.
      GeminiLLM: { thrown: "ProviderResponseError" },
    }],
  ];
  const reflected = (text: string) => ({ stopReason: "stop", toolRuns: 0, reflected: text });
  cases.push(
    ["invalidToolJson", misbehave.invalidToolJson("lookup"), {
      // The Anthropic API parses a blocking answer's input: no raw text reaches a client.
      OpenAIChatLLM: reflected('Error: Invalid arguments for tool "looku'),
      // Gemini's args are a JSON object: the API ends such a turn MALFORMED_FUNCTION_CALL.
      GeminiLLM: { thrown: "ProviderResponseError" },
    }],
    ["unknownTool", misbehave.unknownTool(), {
      OpenAIChatLLM: reflected('Error: Unknown tool "no_such_tool"; the '),
      AnthropicLLM: reflected('Error: Unknown tool "no_such_tool"; the '),
      GeminiLLM: reflected('Error: Unknown tool "no_such_tool"; the '),
    }],
    ["duplicateCallIds", misbehave.duplicateCallIds("lookup"), {
      OpenAIChatLLM: { stopReason: "stop", observed: "duplicate_call_id", toolRuns: 2 },
      AnthropicLLM: { stopReason: "stop", observed: "duplicate_call_id", toolRuns: 2 },
      // A gemini-2.x model sends no call ids (issue 36): the port numbers the
      // calls itself, so no duplicate reaches the agent.
      GeminiLLM: { stopReason: "stop", toolRuns: 2 },
    }],
  );
  for (const [kind, turn, want] of cases) {
    for (const port of Object.keys(want)) {
      for (const streaming of [false, true]) {
        await t.step(`${kind} through ${port}${streaming ? ", streamed" : ""}`, async () => {
          const got = await through(port, streaming, turn);
          assertEquals(JSON.parse(JSON.stringify(got)), want[port]);
        });
      }
    }
  }
});
