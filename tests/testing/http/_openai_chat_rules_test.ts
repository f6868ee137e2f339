// The OpenAI Chat Completions rules of the strict wire, one test per rule,
// with the requests just inside each limit served.
import { assertEquals } from "@std/assert";
import { refuses, serves } from "./_strict_cases.ts";

const API = "chat.completions";
const user = { role: "user", content: "hi" };
const call = (id: string, name = "f", args: unknown = "{}") => ({
  id,
  type: "function",
  function: { name, arguments: args },
});
const asked = (...ids: string[]) => ({
  role: "assistant",
  content: null,
  tool_calls: ids.map((id) => call(id)),
});
const answer = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });
const fn = (name: unknown, parameters?: unknown, extra: Record<string, unknown> = {}) => ({
  type: "function",
  function: { name, ...(parameters === undefined ? {} : { parameters }), ...extra },
});
const req = (fields: Record<string, unknown>) => ({ model: "gpt-4o", messages: [user], ...fields });

Deno.test("chat rules: messages-empty refuses messages: []", async () => {
  const e = await refuses(API, req({ messages: [] }), "messages-empty", "messages");
  assertEquals(
    [e.message, e.code],
    [
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      "empty_array",
    ],
  );
});

Deno.test("chat rules: tool-message-without-call refuses a tool message that answers no call", async (t) => {
  await t.step("a tool message with no assistant call before it", async () => {
    const e = await refuses(
      API,
      req({ messages: [user, answer("c1")] }),
      "tool-message-without-call",
      "messages[1].tool_call_id",
    );
    assertEquals(
      [e.message, e.code],
      [
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        null,
      ],
    );
  });
  await t.step("an id the assistant before it did not call", async () => {
    await refuses(
      API,
      req({ messages: [user, asked("c1"), answer("c1"), answer("c9")] }),
      "tool-message-without-call",
      "messages[3].tool_call_id",
    );
  });
  await t.step("a call of an earlier turn, after a user message", async () => {
    await refuses(
      API,
      req({ messages: [user, asked("c1"), answer("c1"), user, answer("c1")] }),
      "tool-message-without-call",
      "messages[4].tool_call_id",
    );
  });
  await t.step("parallel calls answered in any order are served", async () => {
    await serves(API, req({ messages: [user, asked("a", "b"), answer("b"), answer("a")] }));
  });
});

Deno.test("chat rules: tool-call-without-result refuses a call left unanswered", async (t) => {
  await t.step("a user message comes before its answer", async () => {
    const e = await refuses(
      API,
      req({ messages: [user, asked("a", "b"), answer("a"), user] }),
      "tool-call-without-result",
      "messages[1].tool_calls[1].id",
    );
    assertEquals(
      e.message,
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: b",
    );
  });
  await t.step("the request ends on the call", async () => {
    await refuses(
      API,
      req({ messages: [user, asked("a", "b")] }),
      "tool-call-without-result",
      "messages[1].tool_calls[0].id",
    );
  });
  await t.step("an assistant answer follows the call", async () => {
    await refuses(
      API,
      req({ messages: [user, asked("a"), { role: "assistant", content: "done" }] }),
      "tool-call-without-result",
      "messages[1].tool_calls[0].id",
    );
  });
  await t.step("a whole tool loop is served", async () => {
    await serves(
      API,
      req({
        messages: [
          { role: "system", content: "Be brief." },
          user,
          asked("a"),
          answer("a"),
          { role: "assistant", content: "x" },
          user,
        ],
      }),
    );
  });
});

Deno.test("chat rules: tool-name-pattern refuses an empty, spaced or long function name", async (t) => {
  for (
    const [name, tools, path] of [
      ["empty", [fn("")], "tools[0].function.name"],
      ["spaced", [fn("ok"), fn("get weather")], "tools[1].function.name"],
      ["dotted", [fn("a.b")], "tools[0].function.name"],
    ] as const
  ) {
    await t.step(name, async () => {
      const e = await refuses(API, req({ tools }), "tool-name-pattern", path);
      assertEquals(
        [e.message, e.code],
        [
          `Invalid '${path}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
          "invalid_value",
        ],
      );
    });
  }
  await t.step("65 characters", async () => {
    const e = await refuses(
      API,
      req({ tools: [fn("a".repeat(65))] }),
      "tool-name-pattern",
      "tools[0].function.name",
    );
    assertEquals(
      [e.message, e.code],
      [
        "Invalid 'tools[0].function.name': string too long. Expected a string with maximum length 64, but got a string with length 65 instead.",
        "string_above_max_length",
      ],
    );
  });
  await t.step("a call's name in the history", async () => {
    await refuses(
      API,
      req({
        messages: [user, { role: "assistant", tool_calls: [call("a", "x y")] }, answer("a")],
      }),
      "tool-name-pattern",
      "messages[1].tool_calls[0].function.name",
    );
  });
  await t.step("64 characters of every allowed kind are served", async () => {
    await serves(API, req({ tools: [fn(`aZ09_-${"x".repeat(58)}`)] }));
  });
});

Deno.test("chat rules: strict-schema refuses a strict function outside the Structured Outputs subset", async (t) => {
  const closed = {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  };
  await t.step("no additionalProperties: false", async () => {
    const e = await refuses(
      API,
      req({ tools: [fn("f", { ...closed, additionalProperties: undefined }, { strict: true })] }),
      "strict-schema",
      "tools[0].function.parameters",
    );
    assertEquals(
      [e.message, e.code],
      [
        "Invalid schema for function 'f': In context=(), 'additionalProperties' is required to be supplied and to be false.",
        "invalid_function_parameters",
      ],
    );
  });
  await t.step("a property left out of required", async () => {
    const e = await refuses(
      API,
      req({
        tools: [fn("f", {
          ...closed,
          properties: { city: { type: "string" }, unit: { type: "string" } },
        }, { strict: true })],
      }),
      "strict-schema",
      "tools[0].function.parameters",
    );
    assertEquals(
      e.message,
      "Invalid schema for function 'f': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'unit'.",
    );
  });
  await t.step("a nested object, in items, anyOf and $defs", async () => {
    for (
      const [schema, context] of [
        [
          { ...closed, properties: { a: { type: "object", properties: {} } }, required: ["a"] },
          "('properties', 'a')",
        ],
        [{
          ...closed,
          properties: { a: { type: "array", items: { type: "object" } } },
          required: ["a"],
        }, "('properties', 'a', 'items')"],
        [
          { ...closed, properties: {}, required: [], anyOf: [{ type: "object" }] },
          "('anyOf', '0')",
        ],
        [
          { ...closed, properties: {}, required: [], $defs: { d: { type: ["object", "null"] } } },
          "('$defs', 'd')",
        ],
        [
          { ...closed, properties: {}, required: [], definitions: { e: { properties: {} } } },
          "('definitions', 'e')",
        ],
      ] as const
    ) {
      const e = await refuses(
        API,
        req({ tools: [fn("f", schema, { strict: true })] }),
        "strict-schema",
        "tools[0].function.parameters",
      );
      assertEquals(
        e.message,
        `Invalid schema for function 'f': In context=${context}, 'additionalProperties' is required to be supplied and to be false.`,
      );
    }
  });
  await t.step("a strict response_format", async () => {
    const e = await refuses(
      API,
      req({
        response_format: {
          type: "json_schema",
          json_schema: { name: "out", strict: true, schema: { type: "object", properties: {} } },
        },
      }),
      "strict-schema",
      "response_format.json_schema.schema",
    );
    assertEquals(
      e.message,
      "Invalid schema for response_format 'out': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    );
  });
  await t.step(
    "the same schemas without strict: true, and closed strict ones, are served",
    async () => {
      await serves(API, req({ tools: [fn("f", { type: "object", properties: { a: {} } })] }));
      await serves(API, req({ tools: [fn("f", closed, { strict: true })] }));
      await serves(
        API,
        req({
          response_format: {
            type: "json_schema",
            json_schema: { name: "out", strict: true, schema: closed },
          },
        }),
      );
      await serves(
        API,
        req({
          response_format: {
            type: "json_schema",
            json_schema: { name: "out", schema: { type: "object" } },
          },
        }),
      );
    },
  );
});

Deno.test("chat rules: message-content-type refuses content that is missing, null or of the wrong type", async (t) => {
  for (
    const [name, message, path, text, code] of [
      [
        "missing",
        { role: "user" },
        "messages[0].content",
        "Missing required parameter: 'messages[0].content'.",
        "missing_required_parameter",
      ],
      [
        "null",
        { role: "user", content: null },
        "messages[0].content",
        "Invalid type for 'messages[0].content': expected one of a string or array of objects, but got null instead.",
        "invalid_type",
      ],
      [
        "a number",
        { role: "system", content: 7 },
        "messages[0].content",
        "Invalid type for 'messages[0].content': expected one of a string or array of objects, but got an integer instead.",
        "invalid_type",
      ],
      [
        "an object",
        { role: "user", content: { text: "x" } },
        "messages[0].content",
        "Invalid type for 'messages[0].content': expected one of a string or array of objects, but got an object instead.",
        "invalid_type",
      ],
      [
        "a part that is a string",
        { role: "user", content: ["x"] },
        "messages[0].content[0]",
        "Invalid type for 'messages[0].content[0]': expected an object, but got a string instead.",
        "invalid_type",
      ],
      [
        "a text part without text",
        { role: "user", content: [{ type: "text" }] },
        "messages[0].content[0].text",
        "Missing required parameter: 'messages[0].content[0].text'.",
        "missing_required_parameter",
      ],
      [
        "a text part with null text",
        { role: "user", content: [{ type: "text", text: null }] },
        "messages[0].content[0].text",
        "Invalid type for 'messages[0].content[0].text': expected a string, but got null instead.",
        "invalid_type",
      ],
      [
        "an assistant message without tool calls",
        { role: "assistant", content: null },
        "messages[0].content",
        "Invalid type for 'messages[0].content': expected one of a string or array of objects, but got null instead.",
        "invalid_type",
      ],
    ] as const
  ) {
    await t.step(name, async () => {
      const e = await refuses(API, req({ messages: [message] }), "message-content-type", path);
      assertEquals([e.message, e.code], [text, code]);
    });
  }
  await t.step("a tool message without content", async () => {
    await refuses(
      API,
      req({ messages: [user, asked("a"), { role: "tool", tool_call_id: "a" }] }),
      "message-content-type",
      "messages[2].content",
    );
  });
  await t.step(
    "text parts, an image part, and a calling assistant without content are served",
    async () => {
      await serves(
        API,
        req({
          messages: [
            {
              role: "user",
              content: [{ type: "text", text: "a" }, { type: "image_url", image_url: {} }],
            },
            { role: "assistant", tool_calls: [call("a")] },
            answer("a"),
          ],
        }),
      );
    },
  );
});

Deno.test("chat rules: tool-call-shape refuses a call whose arguments are not a string", async () => {
  const missing = await refuses(
    API,
    req({
      messages: [user, { role: "assistant", tool_calls: [{ id: "a", function: { name: "f" } }] }],
    }),
    "tool-call-shape",
    "messages[1].tool_calls[0].function.arguments",
  );
  assertEquals(
    [missing.message, missing.code],
    [
      "Missing required parameter: 'messages[1].tool_calls[0].function.arguments'.",
      "missing_required_parameter",
    ],
  );
  const object = await refuses(
    API,
    req({ messages: [user, { role: "assistant", tool_calls: [call("a", "f", {})] }, answer("a")] }),
    "tool-call-shape",
    "messages[1].tool_calls[0].function.arguments",
  );
  assertEquals(
    [object.message, object.code],
    [
      "Invalid type for 'messages[1].tool_calls[0].function.arguments': expected a string, but got an object instead.",
      "invalid_type",
    ],
  );
});

Deno.test('chat rules: tool-schema-type refuses a schema that is a string, or of type "bogus"', async (t) => {
  await t.step("a string", async () => {
    const e = await refuses(
      API,
      req({ tools: [fn("f", '{"type":"object"}')] }),
      "tool-schema-type",
      "tools[0].function.parameters",
    );
    assertEquals(
      [e.message, e.code],
      [
        `Invalid schema for function 'f': "{\\"type\\":\\"object\\"}" is not of type 'object', 'boolean'.`,
        "invalid_function_parameters",
      ],
    );
  });
  await t.step("an array", async () => {
    await refuses(
      API,
      req({ tools: [fn("f", [])] }),
      "tool-schema-type",
      "tools[0].function.parameters",
    );
  });
  await t.step("type bogus, at the top and deep inside", async () => {
    for (
      const [schema, path] of [
        [{ type: "bogus" }, "tools[0].function.parameters.type"],
        [{ type: ["object", "bogus"] }, "tools[0].function.parameters.type"],
        [{ type: 7 }, "tools[0].function.parameters.type"],
        [
          { type: "object", properties: { a: { type: "str" } } },
          "tools[0].function.parameters.properties.a.type",
        ],
        [
          { type: "object", properties: { a: { type: "array", items: { type: "list" } } } },
          "tools[0].function.parameters.properties.a.items.type",
        ],
        [
          { anyOf: [{ type: "string" }, { type: "text" }] },
          "tools[0].function.parameters.anyOf[1].type",
        ],
        [{ oneOf: [{ type: "nope" }] }, "tools[0].function.parameters.oneOf[0].type"],
        [{ allOf: [{ type: "nope" }] }, "tools[0].function.parameters.allOf[0].type"],
      ] as const
    ) {
      const e = await refuses(API, req({ tools: [fn("f", schema)] }), "tool-schema-type", path);
      assertEquals(e.code, "invalid_function_parameters");
    }
  });
  await t.step("every JSON Schema type, and no parameters at all, are served", async () => {
    await serves(
      API,
      req({
        tools: [
          fn("f", {
            type: "object",
            properties: {
              a: { type: ["string", "null"] },
              b: { type: "integer" },
              c: { type: "number" },
              d: { type: "boolean" },
              e: { type: "array", items: { type: "object" } },
              f: { anyOf: [{ type: "string" }] },
            },
          }),
          fn("g"),
          fn("h", null),
        ],
      }),
    );
  });
});

Deno.test("chat rules: stream-type, temperature-range and max-tokens-range refuse settings the API rejects", async (t) => {
  await t.step('stream: "true"', async () => {
    const e = await refuses(API, req({ stream: "true" }), "stream-type", "stream");
    assertEquals(
      [e.message, e.code],
      ["Invalid type for 'stream': expected a boolean, but got a string instead.", "invalid_type"],
    );
  });
  await t.step('temperature: 5, -0.5, "hot"', async () => {
    const high = await refuses(API, req({ temperature: 5 }), "temperature-range", "temperature");
    assertEquals(
      [high.message, high.code],
      [
        "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 5 instead.",
        "decimal_above_max_value",
      ],
    );
    const low = await refuses(API, req({ temperature: -0.5 }), "temperature-range", "temperature");
    assertEquals(
      [low.message, low.code],
      [
        "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -0.5 instead.",
        "decimal_below_min_value",
      ],
    );
    const text = await refuses(
      API,
      req({ temperature: "hot" }),
      "temperature-range",
      "temperature",
    );
    assertEquals(text.code, "invalid_type");
  });
  await t.step('max_tokens: -1, 0, 1.5; max_completion_tokens: "10"', async () => {
    const e = await refuses(API, req({ max_tokens: -1 }), "max-tokens-range", "max_tokens");
    assertEquals(
      [e.message, e.code],
      [
        "Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got -1 instead.",
        "integer_below_min_value",
      ],
    );
    await refuses(API, req({ max_tokens: 0 }), "max-tokens-range", "max_tokens");
    const decimal = await refuses(API, req({ max_tokens: 1.5 }), "max-tokens-range", "max_tokens");
    assertEquals(
      decimal.message,
      "Invalid type for 'max_tokens': expected an integer, but got a decimal instead.",
    );
    await refuses(
      API,
      req({ max_completion_tokens: "10" }),
      "max-tokens-range",
      "max_completion_tokens",
    );
  });
  await t.step("the limits themselves, and nulls, are served", async () => {
    for (
      const fields of [
        { stream: false, temperature: 0, max_tokens: 1 },
        { temperature: 2, max_completion_tokens: 0 },
        { stream: null, temperature: null, max_tokens: null, max_completion_tokens: null },
      ]
    ) await serves(API, req(fields));
  });
});
