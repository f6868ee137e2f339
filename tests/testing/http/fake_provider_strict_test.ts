// FakeProvider's strict wire as a user meets it: on by default, the options
// that turn rules off, the careless requests issue 25 found accepted, and the
// official clients reading a refusal as their own BadRequestError.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { ApiError, type Content, GoogleGenAI } from "@google/genai";
import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider, type ProviderApi, WIRE_RULES } from "@agentkit/testing/testing";
import { json } from "./_wire_fetch.ts";

const PATHS: Record<ProviderApi, string> = {
  "chat.completions": "/v1/chat/completions",
  responses: "/v1/responses",
  messages: "/v1/messages",
  generateContent: "/v1beta/models/gemini-3-pro-preview:generateContent",
};
const user = { role: "user", content: "hi" };
const chat = (fields: Record<string, unknown>) => ({
  model: "gpt-4o",
  messages: [user],
  ...fields,
});
const claude = (fields: Record<string, unknown>) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 100,
  messages: [user],
  ...fields,
});
const responses = (fields: Record<string, unknown>) => ({
  model: "gpt-4o",
  input: [user],
  ...fields,
});
const chatTool = (name: string, parameters: unknown = { type: "object" }) => ({
  type: "function",
  function: { name, parameters },
});
const claudeTool = (name: string) => ({ name, input_schema: { type: "object" } });

// The careless requests of issue 25, as a client would send them: each one
// the real API rejects, each one FakeProvider answered before.
const CARELESS: ReadonlyArray<[string, ProviderApi, Record<string, unknown>, string]> = [
  ["chat: messages: []", "chat.completions", chat({ messages: [] }), "messages-empty"],
  [
    "chat: content missing",
    "chat.completions",
    chat({ messages: [{ role: "user" }] }),
    "message-content-type",
  ],
  [
    "chat: content null",
    "chat.completions",
    chat({ messages: [{ role: "user", content: null }] }),
    "message-content-type",
  ],
  [
    "chat: an empty tool name",
    "chat.completions",
    chat({ tools: [chatTool("")] }),
    "tool-name-pattern",
  ],
  [
    "chat: a spaced tool name",
    "chat.completions",
    chat({ tools: [chatTool("get weather")] }),
    "tool-name-pattern",
  ],
  [
    "chat: a tool schema that is a string",
    "chat.completions",
    chat({ tools: [chatTool("f", "{}")] }),
    "tool-schema-type",
  ],
  [
    "chat: a tool schema of type bogus",
    "chat.completions",
    chat({ tools: [chatTool("f", { type: "bogus" })] }),
    "tool-schema-type",
  ],
  ['chat: stream: "true"', "chat.completions", chat({ stream: "true" }), "stream-type"],
  ["chat: temperature: 5", "chat.completions", chat({ temperature: 5 }), "temperature-range"],
  ["chat: max_tokens: -1", "chat.completions", chat({ max_tokens: -1 }), "max-tokens-range"],
  [
    "chat: a tool result for a call never made",
    "chat.completions",
    chat({ messages: [user, { role: "tool", tool_call_id: "call_1", content: "x" }] }),
    "tool-message-without-call",
  ],
  ["messages: messages: []", "messages", claude({ messages: [] }), "messages-empty"],

  [
    "messages: an empty tool name",
    "messages",
    claude({ tools: [claudeTool("")] }),
    "tool-name-pattern",
  ],
  [
    "messages: a spaced tool name",
    "messages",
    claude({ tools: [claudeTool("get weather")] }),
    "tool-name-pattern",
  ],
  [
    "messages: a tool without input_schema",
    "messages",
    claude({ tools: [{ name: "f" }] }),
    "tool-schema-type",
  ],
  [
    "messages: a text block without text",
    "messages",
    claude({ messages: [{ role: "user", content: [{ type: "text" }] }] }),
    "content-block-shape",
  ],
  [
    "messages: a tool result for a call never made",
    "messages",
    claude({
      messages: [{
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x" }],
      }],
    }),
    "tool-result-without-use",
  ],
  ['messages: stream: "true"', "messages", claude({ stream: "true" }), "stream-type"],
  ["messages: temperature: 5", "messages", claude({ temperature: 5 }), "temperature-range"],
  ["messages: max_tokens: -1", "messages", claude({ max_tokens: -1 }), "max-tokens-range"],
  [
    "responses: a tool output for a call never made",
    "responses",
    responses({ input: [user, { type: "function_call_output", call_id: "call_1", output: "x" }] }),
    "function-output-without-call",
  ],
  [
    "responses: content null",
    "responses",
    responses({ input: [{ role: "user", content: null }] }),
    "message-content-type",
  ],
  [
    "responses: a spaced tool name",
    "responses",
    responses({ tools: [{ type: "function", name: "get weather" }] }),
    "tool-name-pattern",
  ],
  ['responses: stream: "true"', "responses", responses({ stream: "true" }), "stream-type"],
  ["responses: temperature: 5", "responses", responses({ temperature: 5 }), "temperature-range"],
];

Deno.test("FakeProvider is strict by default: every careless request of issue 25 is refused", async (t) => {
  for (const [name, api, body, rule] of CARELESS) {
    await t.step(name, async () => {
      const llm = new FakeLLM("served");
      const strict = new FakeProvider({ llm });
      const { status } = await json(strict, PATHS[api], body);
      assertEquals([status, strict.rejections.map((r) => r.rule), llm.calls], [400, [rule], 0]);
      // What a lenient fake did with it: answered it, turn consumed.
      const lenient = new FakeProvider({ llm: new FakeLLM("served"), strict: false });
      const before = await json(lenient, PATHS[api], body);
      assertEquals([before.status, lenient.rejections], [200, []]);
    });
  }
});

Deno.test("FakeProvider: a refused request leaves the script for the next request", async () => {
  const llm = FakeLLM.script(["first"]);
  const provider = new FakeProvider({ llm });
  const refused = await json(provider, PATHS["chat.completions"], chat({ temperature: 9 }));
  const served = await json(provider, PATHS["chat.completions"], chat({}));
  assertEquals(refused.status, 400);
  const choice = (served.body.choices as Array<{ message: { content: string } }>)[0];
  assertEquals([served.status, choice.message.content, llm.calls], [200, "first", 1]);
  assertEquals(provider.requests.length, 2, "a refused request is still recorded as received");
  provider.verify();
});

Deno.test("FakeProvider: strict: { except } turns the named rules off, and only those", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script(["ok", "never"]),
    strict: { except: ["tool-name-pattern", "temperature-range"] },
  });
  const path = PATHS["messages"];
  const first = await json(provider, path, claude({ tools: [claudeTool("a b")], temperature: 3 }));
  const second = await json(provider, path, claude({ stream: "yes" }));
  assertEquals([first.status, second.status], [200, 400]);
  assertEquals(provider.rejections.map((r) => r.rule), ["stream-type"]);
});

Deno.test("FakeProvider: strict: false turns every rule off", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("ok"), strict: false });
  const { status } = await json(
    provider,
    PATHS["chat.completions"],
    chat({
      messages: [user, { role: "tool", tool_call_id: "x", content: "y" }],
      tools: [chatTool("bad name", "schema")],
      temperature: 99,
      stream: "true",
    }),
  );
  assertEquals([status, provider.rejections], [200, []]);
});

Deno.test("new FakeProvider() checks strict: an unknown rule id lists the ids, a wrong type says what is accepted", async (t) => {
  const llm = new FakeLLM("x");
  await t.step("an unknown id", () => {
    const e = assertThrows(
      () => new FakeProvider({ llm, strict: { except: ["tool-name-patern"] } }),
      RangeError,
    );
    assert(
      e.message.startsWith(
        'new FakeProvider(): option "strict" names an unknown rule "tool-name-patern" in except; the rules are ',
      ),
    );
    for (const id of Object.keys(WIRE_RULES)) assert(e.message.includes(id), id);
  });
  await t.step("an id that is not a string", () => {
    assertThrows(
      () => new FakeProvider({ llm, strict: { except: [7 as unknown as string] } }),
      RangeError,
      "unknown rule 7",
    );
  });
  for (
    const [name, strict] of [
      ["a string", "true"],
      ["null", null],
      ["an array", ["tool-name-pattern"]],
      ["except that is not an array", { except: "tool-name-pattern" }],
      ["an object without except", {}],
      ["an unknown key beside except", { except: [], only: [] }],
    ] as const
  ) {
    await t.step(name, () => {
      assertThrows(
        () => new FakeProvider({ llm, strict: strict as never }),
        TypeError,
        'new FakeProvider(): option "strict" must be true, false or { except: [rule ids] }, got ',
      );
    });
  }
  await t.step("true, false, and an empty except are accepted", () => {
    for (const strict of [true, false, { except: [] }]) new FakeProvider({ llm, strict });
  });
});

Deno.test("WIRE_RULES: the catalogue names, for every rule, its APIs, what it rejects and its source", () => {
  const ids = Object.keys(WIRE_RULES);
  assertEquals(ids, [...ids].sort(), "sorted by id");
  for (
    const id of [
      "tool-message-without-call",
      "tool-call-without-result",
      "tool-name-pattern",
      "messages-empty",
      "strict-schema",
      "function-call-without-output",
      "function-output-without-call",
      "reasoning-item-orphaned",
      "max-tokens-required",
      "tool-use-without-result",
      "tool-result-without-use",
      "system-role-in-messages",
      "empty-text-block",
      "final-assistant-trailing-whitespace",
      "duplicate-tool-name",
      "contents-empty",
      "parts-empty",
      "role",
      "function-call-turn",
      "function-response-turn",
      "function-response-count",
      "thought-signature-missing",
    ]
  ) assert(ids.includes(id), id);
  for (const [id, rule] of Object.entries(WIRE_RULES)) {
    assert(rule.api.length > 0 && rule.description.length > 0 && rule.source.length > 0, id);
    assert(Object.isFrozen(rule) && Object.isFrozen(rule.api), `${id} is frozen`);
  }
  assert(Object.isFrozen(WIRE_RULES));
  assertEquals(WIRE_RULES["tool-name-pattern"].api, [
    "chat.completions",
    "responses",
    "messages",
    "generateContent",
  ]);
  assertEquals(WIRE_RULES["thought-signature-missing"].api, ["generateContent"]);
  assertEquals(WIRE_RULES["messages-empty"].api, ["chat.completions", "messages"]);
  // An id of several APIs says, API by API, what it rejects and why.
  const lines = WIRE_RULES["tool-name-pattern"].source.split("\n");
  assertEquals(lines.map((l) => l.slice(0, l.indexOf(":"))), [
    "chat.completions",
    "responses",
    "messages",
    "generateContent",
  ]);
  assert(
    !WIRE_RULES["tool-calls-empty"].description.startsWith("chat.completions:"),
    "one API: no prefix",
  );
});

function openai(provider: FakeProvider): OpenAI {
  return new OpenAI({ apiKey: "sk-test", fetch: provider.fetch, maxRetries: 0 });
}

function anthropic(provider: FakeProvider): Anthropic {
  return new Anthropic({ apiKey: "sk-ant-test", fetch: provider.fetch, maxRetries: 0 });
}

Deno.test("openai against the strict FakeProvider: a bad request is its BadRequestError, a tool loop passes", async (t) => {
  await t.step("a tool message answering no call", async () => {
    const provider = new FakeProvider({ llm: new FakeLLM("never") });
    const e = await assertRejects(() =>
      openai(provider).chat.completions.create({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "hi" }, {
          role: "tool",
          tool_call_id: "call_9",
          content: "x",
        }],
      }), OpenAI.BadRequestError);
    assertEquals(e.status, 400);
    assert(e.message.includes("messages with role 'tool' must be a response"), e.message);
    assert(
      e.message.includes("strict rule tool-message-without-call at messages[1].tool_call_id"),
    );
    assertEquals(e.param, "messages[1].tool_call_id");
  });
  await t.step("a two-step tool loop, streamed and blocking", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([
        { toolCalls: [toolCall("call_1", "get_weather", { city: "Paris" })] },
        "Sunny.",
      ]),
    });
    const client = openai(provider);
    const tools: OpenAI.ChatCompletionTool[] = [{
      type: "function",
      function: {
        name: "get_weather",
        parameters: {
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
          additionalProperties: false,
        },
        strict: true,
      },
    }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Weather?" }];
    const first = await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools });
    const asked = first.choices[0].message;
    messages.push(asked, { role: "tool", tool_call_id: asked.tool_calls![0].id, content: "sunny" });
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages,
      tools,
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    assertEquals([text, provider.rejections], ["Sunny.", []]);
  });
});

Deno.test("@anthropic-ai/sdk against the strict FakeProvider: a bad request is its BadRequestError, a tool loop passes", async (t) => {
  await t.step("a trailing-whitespace prefill", async () => {
    const provider = new FakeProvider({ llm: new FakeLLM("never") });
    const e = await assertRejects(() =>
      anthropic(provider).messages.create({
        model: "claude-sonnet-4-5",
        max_tokens: 64,
        messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "Sure, " }],
      }), Anthropic.BadRequestError);
    assertInstanceOf(e, Anthropic.APIError);
    assertEquals(e.status, 400);
    assert(e.message.includes("final assistant content cannot end with trailing whitespace"));
    assert(
      e.message.includes(
        "strict rule final-assistant-trailing-whitespace at messages[1].content",
      ),
      e.message,
    );
  });
  await t.step("a two-step tool loop", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([
        {
          content: "Checking.",
          toolCalls: [toolCall("toolu_1", "get_weather", { city: "Paris" })],
        },
        "Sunny.",
      ]),
    });
    const client = anthropic(provider);
    const tools: Anthropic.Tool[] = [{
      name: "get_weather",
      input_schema: { type: "object", properties: { city: { type: "string" } } },
    }];
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather?" }];
    const first = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      system: "Be brief.",
      messages,
      tools,
    });
    const use = first.content.find((b) => b.type === "tool_use")!;
    messages.push({ role: "assistant", content: first.content }, {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: use.id, content: "sunny" }],
    });
    const final = await client.messages.stream({
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      messages,
      tools,
    }).finalMessage();
    assertEquals([final.content, provider.rejections], [[{ type: "text", text: "Sunny." }], []]);
  });
});

function genai(provider: FakeProvider): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: "AIza-test",
    httpOptions: { baseUrl: "https://generativelanguage.googleapis.com", fetch: provider.fetch },
  });
}

Deno.test("@google/genai against the strict FakeProvider: a bad request is its ApiError 400, a gemini-3 tool loop passes, a dropped signature is refused", async (t) => {
  const model = "gemini-3-pro-preview";
  const weather = {
    name: "get_weather",
    parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } },
  };
  const config = { tools: [{ functionDeclarations: [weather] }] };
  await t.step("a temperature out of range", async () => {
    const provider = new FakeProvider({ llm: new FakeLLM("never") });
    const e = await assertRejects(
      () =>
        genai(provider).models.generateContent({
          model,
          contents: "hi",
          config: { temperature: 3 },
        }),
      ApiError,
    );
    assertEquals(e.status, 400);
    assert(e.message.includes('"status":"INVALID_ARGUMENT"'), e.message);
    assert(
      e.message.includes("strict rule temperature-range at generationConfig.temperature"),
      e.message,
    );
  });
  // Two steps of one turn: the second request carries the first call.
  const loop = async (keep: boolean) => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([
        { toolCalls: [toolCall("call_1", "get_weather", { city: "Paris" })] },
        "Sunny.",
      ]),
    });
    const ai = genai(provider);
    const history: Content[] = [{ role: "user", parts: [{ text: "Weather in Paris?" }] }];
    const first = await ai.models.generateContent({ model, contents: history, config });
    const content = first.candidates![0].content!;
    assert(typeof content.parts![0].thoughtSignature === "string");
    if (!keep) delete content.parts![0].thoughtSignature;
    history.push(content, {
      role: "user",
      parts: [{
        functionResponse: { id: "call_1", name: "get_weather", response: { output: "sunny" } },
      }],
    });
    return { provider, next: ai.models.generateContent({ model, contents: history, config }) };
  };
  await t.step("the signature sent back: served", async () => {
    const { provider, next } = await loop(true);
    assertEquals([(await next).text, provider.rejections], ["Sunny.", []]);
  });
  await t.step("the signature dropped: refused", async () => {
    const { provider, next } = await loop(false);
    const e = await assertRejects(() => next, ApiError);
    assertEquals(e.status, 400);
    assert(e.message.includes("Function call is missing a thought_signature"), e.message);
    assertEquals(provider.rejections.map((r) => [r.rule, r.api, r.path]), [[
      "thought-signature-missing",
      "generateContent",
      "contents[1].parts[0].thoughtSignature",
    ]]);
  });
});
