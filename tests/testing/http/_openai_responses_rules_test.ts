// The OpenAI Responses rules of the strict wire, one test per rule, with the
// requests just inside each limit served.
import { assertEquals } from "@std/assert";
import { refuses, serves } from "./_strict_cases.ts";

const API = "responses";
const user = { role: "user", content: "hi" };
const call = (id: string, args: unknown = "{}") => ({
  type: "function_call",
  call_id: id,
  name: "f",
  arguments: args,
});
const output = (id: string, out: unknown = "ok") => ({
  type: "function_call_output",
  call_id: id,
  output: out,
});
const reasoning = { type: "reasoning", id: "rs_1", summary: [] };
const req = (fields: Record<string, unknown>) => ({ model: "gpt-4o", input: [user], ...fields });

Deno.test("responses rules: function-call-without-output refuses a call with no output after it", async (t) => {
  await t.step("the input ends on the call", async () => {
    const e = await refuses(
      API,
      req({ input: [user, call("c1"), call("c2"), output("c1")] }),
      "function-call-without-output",
      "input[2].call_id",
    );
    assertEquals(e.message, "No tool output found for function call c2.");
  });
  await t.step("a call and its output, and parallel calls, are served", async () => {
    await serves(API, req({ input: [user, call("a"), call("b"), output("b"), output("a")] }));
  });
});

Deno.test("responses rules: function-output-without-call refuses an output for a call never made", async (t) => {
  await t.step("no call before it", async () => {
    const e = await refuses(
      API,
      req({ input: [user, output("c9")] }),
      "function-output-without-call",
      "input[1].call_id",
    );
    assertEquals(e.message, "No tool call found for function call output with call_id c9.");
  });
  await t.step("the call comes after it", async () => {
    await refuses(
      API,
      req({ input: [user, output("c1"), call("c1")] }),
      "function-output-without-call",
      "input[1].call_id",
    );
  });
  await t.step("a request continuing a stored response sends outputs alone", async () => {
    await serves(API, req({ previous_response_id: "resp_1", input: [output("c1")] }));
  });
});

Deno.test("responses rules: reasoning-item-orphaned refuses a reasoning item without its following item", async (t) => {
  for (
    const [name, input, path] of [
      ["the input ends on it", [user, reasoning], "input[1]"],
      ["a user message follows it", [reasoning, user], "input[0]"],
      [
        "a user message with an explicit type follows it",
        [reasoning, { type: "message", ...user }],
        "input[0]",
      ],
      ["a function output follows it", [user, call("a"), reasoning, output("a")], "input[2]"],
    ] as const
  ) {
    await t.step(name, async () => {
      const e = await refuses(API, req({ input }), "reasoning-item-orphaned", path);
      assertEquals(
        e.message,
        "Item 'rs_1' of type 'reasoning' was provided without its required following item.",
      );
    });
  }
  await t.step("an item without an id is named as ''", async () => {
    const e = await refuses(
      API,
      req({ input: [user, { type: "reasoning" }] }),
      "reasoning-item-orphaned",
      "input[1]",
    );
    assertEquals(
      e.message,
      "Item '' of type 'reasoning' was provided without its required following item.",
    );
  });
  await t.step("reasoning before its call or its assistant message is served", async () => {
    await serves(API, req({ input: [user, reasoning, call("a"), output("a")] }));
    await serves(
      API,
      req({ input: [user, reasoning, { role: "assistant", content: "x" }, user] }),
    );
  });
});

Deno.test("responses rules: tool-name-pattern and tool-schema-type refuse a bad function tool", async (t) => {
  const tool = (name: unknown, parameters?: unknown) => ({
    type: "function",
    name,
    ...(parameters === undefined ? {} : { parameters }),
  });
  await t.step("an empty, spaced or 129-character name", async () => {
    for (const name of ["", "get weather"]) {
      const e = await refuses(
        API,
        req({ tools: [tool(name)] }),
        "tool-name-pattern",
        "tools[0].name",
      );
      assertEquals(e.code, "invalid_value");
    }
    const long = await refuses(
      API,
      req({ tools: [{ type: "web_search" }, tool("a".repeat(129))] }),
      "tool-name-pattern",
      "tools[1].name",
    );
    assertEquals(long.code, "string_above_max_length");
  });
  await t.step("a string schema, or a bogus type", async () => {
    await refuses(
      API,
      req({ tools: [tool("f", "{}")] }),
      "tool-schema-type",
      "tools[0].parameters",
    );
    await refuses(
      API,
      req({ tools: [tool("f", { type: "bogus" })] }),
      "tool-schema-type",
      "tools[0].parameters.type",
    );
  });
  await t.step("a 128-character name, null parameters and hosted tools are served", async () => {
    await serves(
      API,
      req({
        tools: [tool("a".repeat(128), null), tool("g", { type: "object" }), { type: "web_search" }],
      }),
    );
  });
});

Deno.test("responses rules: message-content-type and tool-call-shape refuse items of the wrong shape", async (t) => {
  for (
    const [name, item, path, code] of [
      [
        "a message without content",
        { role: "user" },
        "input[0].content",
        "missing_required_parameter",
      ],
      [
        "a message with null content",
        { type: "message", role: "user", content: null },
        "input[0].content",
        "invalid_type",
      ],
      [
        "an output that is missing",
        { type: "function_call_output", call_id: "a" },
        "input[0].output",
        "missing_required_parameter",
      ],
    ] as const
  ) {
    await t.step(name, async () => {
      const e = await refuses(API, req({ input: [item] }), "message-content-type", path);
      assertEquals(e.code, code);
    });
  }
  await t.step("an output that is a number", async () => {
    const e = await refuses(
      API,
      req({ input: [user, call("a"), output("a", 7)] }),
      "message-content-type",
      "input[2].output",
    );
    assertEquals(
      e.message,
      "Invalid type for 'input[2].output': expected one of a string or array of objects, but got an integer instead.",
    );
  });
  await t.step("a call whose arguments are an object, or missing", async () => {
    const object = await refuses(
      API,
      req({ input: [user, call("a", { x: 1 }), output("a")] }),
      "tool-call-shape",
      "input[1].arguments",
    );
    assertEquals(
      [object.message, object.code],
      [
        "Invalid type for 'input[1].arguments': expected a string, but got an object instead.",
        "invalid_type",
      ],
    );
    const missing = await refuses(
      API,
      req({ input: [user, { type: "function_call", call_id: "a", name: "f" }, output("a")] }),
      "tool-call-shape",
      "input[1].arguments",
    );
    assertEquals(missing.code, "missing_required_parameter");
  });
  await t.step("array content and array outputs are served", async () => {
    await serves(
      API,
      req({
        input: [
          { role: "user", content: [{ type: "input_text", text: "hi" }] },
          call("a"),
          output("a", [{ type: "input_text", text: "ok" }]),
        ],
      }),
    );
  });
});

Deno.test("responses rules: stream-type, temperature-range and max-tokens-range refuse settings the API rejects", async () => {
  await refuses(API, req({ stream: "true" }), "stream-type", "stream");
  await refuses(API, req({ temperature: 2.5 }), "temperature-range", "temperature");
  const e = await refuses(
    API,
    req({ max_output_tokens: 15 }),
    "max-tokens-range",
    "max_output_tokens",
  );
  assertEquals(
    e.message,
    "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 15 instead.",
  );
  await refuses(API, req({ max_output_tokens: 16.5 }), "max-tokens-range", "max_output_tokens");
  await serves(API, req({ stream: false, temperature: 2, max_output_tokens: 16 }));
  await serves(API, req({ input: "a string input" }));
});
