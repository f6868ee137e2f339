// The request-field rules at their edges (testing/http/_request_rules.ts):
// schemas nested in items and anyOf, cache marks and images inside tool
// results and at the top level, thinking's top_k and top_p, the error codes
// OpenAI's body carries, and the values each rule lets through.
import { assertEquals } from "@std/assert";
import { claude, gem, refuses, serves, user } from "./_strict_cases.ts";
const decl = (parameters: unknown) => ({
  tools: [{ googleSearch: {} }, {
    function_declarations: [{ name: "a" }, { name: "f", parameters }],
  }],
});

Deno.test("unknown-field on Gemini: a JSON Schema field deep in items or anyOf, and what passes", async () => {
  const at = "tools[1].function_declarations[1].parameters";
  const deep = await refuses(
    "generateContent",
    gem(decl({
      type: "OBJECT",
      properties: {
        ok: { type: "STRING" },
        list: { type: "ARRAY", items: { type: "OBJECT", properties: { x: { const: 1 } } } },
      },
    })),
    "unknown-field",
    `${at}.properties[list].value.items.properties[x].value.const`,
  );
  assertEquals(
    deep.message,
    `Invalid JSON payload received. Unknown name "const" at '${at}.properties[list].value.items.properties[x].value': Cannot find field.`,
  );
  await refuses(
    "generateContent",
    gem(decl({ anyOf: [{ type: "STRING" }, { type: "INTEGER", exclusiveMinimum: 0 }] })),
    "unknown-field",
    `${at}.any_of[1].exclusiveMinimum`,
  );
  await refuses(
    "generateContent",
    gem(decl({ any_of: [{ $ref: "#/x" }] })),
    "unknown-field",
    `${at}.any_of[0].$ref`,
  );
  await serves(
    "generateContent",
    gem(decl({
      type: "OBJECT",
      properties: { l: { type: "ARRAY", items: { type: "STRING", enum: ["a"] } } },
      anyOf: [{ type: "OBJECT", nullable: true }],
      required: ["l"],
    })),
  );
});

Deno.test("cache-control-limit counts the top level and tool results; media-type looks inside tool results", async () => {
  const mark = { cache_control: { type: "ephemeral" } };
  const four = [1, 2, 3, 4].map((i) => ({ type: "text", text: `p${i}`, ...mark }));
  await refuses(
    "messages",
    claude({ ...mark, messages: [{ role: "user", content: four }] }),
    "cache-control-limit",
    "cache_control",
  );
  await serves(
    "messages",
    claude({ ...mark, messages: [{ role: "user", content: four.slice(1) }] }),
  );
  // null marks and non-object blocks are not counted.
  await serves(
    "messages",
    claude({
      cache_control: null,
      messages: [{
        role: "user",
        content: [...four, { type: "text", text: "x", cache_control: null }],
      }],
    }),
  );
  const call = {
    role: "assistant",
    content: [{ type: "tool_use", id: "t1", name: "f", input: {} }],
  };
  const result = (content: unknown[]) => ({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "t1", content }],
  });
  await refuses(
    "messages",
    claude({
      tools: [{ name: "f", input_schema: { type: "object" } }],
      messages: [user, call, result([...four, { type: "text", text: "5", ...mark }])],
    }),
    "cache-control-limit",
    "cache_control",
  );
  const bmp = await refuses(
    "messages",
    claude({
      tools: [{ name: "f", input_schema: { type: "object" } }],
      messages: [
        user,
        call,
        result([
          { type: "text", text: "see" },
          { type: "image", source: { type: "base64", media_type: "image/tiff", data: "AAAA" } },
        ]),
      ],
    }),
    "media-type",
    "messages[2].content[0].content[1].source.media_type",
  );
  assertEquals(
    bmp.message,
    "messages.2.content.0.content.1.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
  );
  // A URL image has no media type of its own to check.
  await serves(
    "messages",
    claude({
      messages: [{
        role: "user",
        content: [{ type: "image", source: { type: "url", url: "https://x/a.bmp" } }, {
          type: "text",
          text: "see",
        }],
      }],
    }),
  );
});

Deno.test("thinking: top_k and top_p in the API's words; adaptive thinking is held too; disabled is not", async () => {
  const enabled = { thinking: { type: "enabled", budget_tokens: 1024 } };
  const k = await refuses(
    "messages",
    claude({ ...enabled, top_k: 5 }),
    "thinking-temperature",
    "top_k",
  );
  assertEquals(
    k.message,
    "`top_k` is not supported when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility",
  );
  const p = await refuses(
    "messages",
    claude({ thinking: { type: "adaptive" }, top_p: 0.9 }),
    "thinking-temperature",
    "top_p",
  );
  assertEquals(
    p.message,
    "`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility",
  );
  await serves("messages", claude({ ...enabled, top_k: null, top_p: 0.95 }));
  await serves(
    "messages",
    claude({
      thinking: { type: "disabled" },
      temperature: 0.2,
      top_k: 5,
      top_p: 0.1,
      tool_choice: { type: "any" },
      tools: [{ name: "f", input_schema: { type: "object" } }],
    }),
  );
  // A budget that is not a number is the API's type error, not this rule's.
  await serves(
    "messages",
    claude({ thinking: { type: "enabled", budget_tokens: 1024 }, max_tokens: 1025 }),
  );
});

Deno.test("OpenAI error codes: empty tool_calls, a missing json_schema, a missing text.format name or schema", async () => {
  const calls = await refuses(
    "chat.completions",
    {
      model: "gpt-4o",
      messages: [user, { role: "assistant", content: "x" }, {
        role: "assistant",
        content: null,
        tool_calls: [],
      }],
    },
    "tool-calls-empty",
    "messages[2].tool_calls",
  );
  assertEquals(calls.code, "empty_array");
  const schema = await refuses(
    "chat.completions",
    {
      model: "gpt-4o",
      messages: [user],
      response_format: { type: "json_schema", json_schema: { schema: {} } },
    },
    "json-schema-format",
    "response_format.json_schema.name",
  );
  assertEquals([schema.message, schema.code], [
    "Missing required parameter: 'response_format.json_schema.name'.",
    "missing_required_parameter",
  ]);
  for (const [format, missing] of [[{ name: "n" }, "schema"], [{ schema: {} }, "name"]] as const) {
    const e = await refuses(
      "responses",
      { model: "gpt-4.1", input: "hi", text: { format: { type: "json_schema", ...format } } },
      "json-schema-format",
      `text.format.${missing}`,
    );
    assertEquals([e.message, e.code], [
      `Missing required parameter: 'text.format.${missing}'.`,
      "missing_required_parameter",
    ]);
  }
  // A strict format's schema is checked; a non-strict one's is not.
  await refuses(
    "responses",
    {
      model: "gpt-4.1",
      input: "hi",
      text: {
        format: {
          type: "json_schema",
          name: "n",
          strict: true,
          schema: { type: "object", properties: {} },
        },
      },
    },
    "strict-schema",
    "text.format.schema",
  );
  await serves("responses", {
    model: "gpt-4.1",
    input: "hi",
    text: {
      format: { type: "json_schema", name: "n", schema: { type: "object", properties: {} } },
    },
    tools: [
      { type: "web_search" },
      { type: "function", name: "f", parameters: { type: "object", properties: {} } },
    ],
  });
  await refuses(
    "responses",
    {
      model: "gpt-4.1",
      input: "hi",
      tools: [
        {
          type: "function",
          name: "ok",
          strict: true,
          parameters: { type: "object", properties: {}, additionalProperties: false, required: [] },
        },
        {
          type: "function",
          name: "f",
          strict: true,
          parameters: { type: "object", properties: {} },
        },
      ],
    },
    "strict-schema",
    "tools[1].parameters",
  );
});

Deno.test("parameter-range: types, and the values at the edges that pass", async () => {
  const r = await refuses(
    "chat.completions",
    { model: "gpt-4o", messages: [user], n: 1.5 },
    "parameter-range",
    "n",
  );
  assertEquals([r.message, r.code], [
    "Invalid type for 'n': expected an integer, but got a decimal instead.",
    "invalid_type",
  ]);
  const t = await refuses(
    "chat.completions",
    { model: "gpt-4o", messages: [user], top_p: "1" },
    "parameter-range",
    "top_p",
  );
  assertEquals(t.message, "Invalid type for 'top_p': expected a number, but got a string instead.");
  const e = await refuses(
    "responses",
    { model: "gpt-4.1", input: "hi", top_logprobs: 21 },
    "parameter-range",
    "top_logprobs",
  );
  assertEquals(e.code, "integer_above_max_value");
  await refuses(
    "responses",
    { model: "gpt-4.1", input: "hi", reasoning: { effort: 3 } },
    "parameter-range",
    "reasoning.effort",
  );
  await serves("chat.completions", {
    model: "gpt-4o",
    messages: [user],
    n: null,
    top_p: 0,
    reasoning_effort: null,
    stream_options: null,
    stop: ["a", "b", "c", "d"],
  });
  await serves("responses", {
    model: "gpt-4.1",
    input: "hi",
    top_logprobs: 20,
    reasoning: { effort: "xhigh" },
  });
  // stream_options with stream: true is served; with stream: false it is not.
  await refuses(
    "chat.completions",
    { model: "gpt-4o", messages: [user], stream: false, stream_options: { include_usage: true } },
    "stream-options-without-stream",
    "stream_options",
  );
});

// False refusals are bugs too: a documented field at the end of each API's
// list is served (openai-node ChatCompletionCreateParamsBase.web_search_options,
// @anthropic-ai/sdk MessageCreateParams.inference_geo, Gemini
// GenerateContentRequest.labels / cachedContent).
Deno.test("unknown-field: the last documented fields of each API's list are served", async () => {
  await serves("chat.completions", {
    model: "gpt-4o-search-preview",
    messages: [{ role: "user", content: "hi" }],
    web_search_options: {},
  });
  await serves("messages", {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [{ role: "user", content: "hi" }],
    inference_geo: "us",
  });
  await serves("generateContent", {
    contents: [{ role: "user", parts: [{ text: "hi" }] }],
    labels: { team: "evals" },
    cached_content: "cachedContents/abc123",
  });
});
