// The Anthropic Messages rules of the strict wire, one test per rule, with
// the requests just inside each limit served.
import { assertEquals } from "@std/assert";
import { refuses, serves } from "./_strict_cases.ts";

const API = "messages";
const user = { role: "user", content: "hi" };
const text = (t: unknown) => ({ type: "text", text: t });
const use = (id: string, input: unknown = {}) => ({ type: "tool_use", id, name: "f", input });
const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "ok" });
const asked = (...ids: string[]) => ({ role: "assistant", content: ids.map((id) => use(id)) });
const answered = (...ids: string[]) => ({ role: "user", content: ids.map(result) });
const req = (fields: Record<string, unknown>) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 100,
  messages: [user],
  ...fields,
});

Deno.test("messages rules: max-tokens-required and max-tokens-range", async (t) => {
  await t.step("no max_tokens", async () => {
    const e = await refuses(
      API,
      req({ max_tokens: undefined }),
      "max-tokens-required",
      "max_tokens",
    );
    assertEquals(e.message, "max_tokens: Field required");
  });
  await t.step('max_tokens: -1, 1.5, "100"', async () => {
    const e = await refuses(API, req({ max_tokens: -1 }), "max-tokens-range", "max_tokens");
    assertEquals(e.message, "max_tokens: Input should be greater than or equal to 0");
    for (const max of [1.5, "100"]) {
      const bad = await refuses(API, req({ max_tokens: max }), "max-tokens-range", "max_tokens");
      assertEquals(bad.message, "max_tokens: Input should be a valid integer");
    }
  });
  await t.step("max_tokens: 0 (a prompt-cache warm-up) is served", async () => {
    await serves(API, req({ max_tokens: 0 }));
  });
});

Deno.test("messages rules: tool-use-without-result refuses a call not answered at the start of the next message", async (t) => {
  await t.step("the next user message has no result for it", async () => {
    const e = await refuses(
      API,
      req({ messages: [user, asked("t1", "t2"), answered("t1")] }),
      "tool-use-without-result",
      "messages[1].content[1].id",
    );
    assertEquals(
      e.message,
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: t2. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    );
  });
  await t.step("the result comes after text", async () => {
    await refuses(
      API,
      req({
        messages: [user, asked("t1"), { role: "user", content: [text("and"), result("t1")] }],
      }),
      "tool-use-without-result",
      "messages[1].content[0].id",
    );
    await refuses(
      API,
      req({
        messages: [user, asked("t1", "t2"), {
          role: "user",
          content: [result("t1"), text("and"), result("t2")],
        }],
      }),
      "tool-use-without-result",
      "messages[1].content[1].id",
    );
  });
  await t.step("an assistant message follows the call", async () => {
    await refuses(
      API,
      req({ messages: [user, asked("t1"), { role: "assistant", content: "x" }] }),
      "tool-use-without-result",
      "messages[1].content[0].id",
    );
  });
  await t.step(
    "results first, then text, and a final call (a pending turn) are served",
    async () => {
      await serves(
        API,
        req({
          messages: [
            user,
            { role: "assistant", content: [text("Checking."), use("t1"), use("t2")] },
            { role: "user", content: [result("t2"), result("t1"), text("thanks")] },
            { role: "assistant", content: "Done." },
            user,
          ],
        }),
      );
    },
  );
});

Deno.test("messages rules: tool-result-without-use refuses a result for a call never made", async (t) => {
  await t.step("no call before it", async () => {
    const e = await refuses(
      API,
      req({ messages: [answered("t9")] }),
      "tool-result-without-use",
      "messages[0].content[0].tool_use_id",
    );
    assertEquals(
      e.message,
      "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: t9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    );
  });
  await t.step("a call of an earlier turn", async () => {
    await refuses(
      API,
      req({
        messages: [
          user,
          asked("t1"),
          answered("t1"),
          { role: "assistant", content: "ok" },
          answered("t1"),
        ],
      }),
      "tool-result-without-use",
      "messages[4].content[0].tool_use_id",
    );
  });
  await t.step("a result in an assistant message", async () => {
    await refuses(
      API,
      req({ messages: [user, { role: "assistant", content: [result("t1")] }, user] }),
      "tool-result-without-use",
      "messages[1].content[0].tool_use_id",
    );
  });
});

Deno.test("messages rules: system-role-in-messages refuses a system message", async () => {
  const e = await refuses(
    API,
    req({ messages: [{ role: "system", content: "Be brief." }, user] }),
    "system-role-in-messages",
    "messages[0].role",
  );
  assertEquals(
    e.message,
    'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
  );
  await serves(API, req({ system: "Be brief." }));
});

Deno.test("messages rules: empty-text-block refuses empty text and empty messages", async (t) => {
  await t.step("a text block that is empty, or whitespace", async () => {
    const empty = await refuses(
      API,
      req({ messages: [{ role: "user", content: [text("hi"), text("")] }] }),
      "empty-text-block",
      "messages[0].content[1].text",
    );
    assertEquals(empty.message, "messages: text content blocks must be non-empty");
    const blank = await refuses(
      API,
      req({ messages: [{ role: "user", content: [text(" \n")] }] }),
      "empty-text-block",
      "messages[0].content[0].text",
    );
    assertEquals(blank.message, "messages: text content blocks must contain non-whitespace text");
  });
  await t.step('a message whose content is "" or []', async () => {
    for (const content of ["", []]) {
      const e = await refuses(
        API,
        req({ messages: [user, { role: "assistant", content }, user] }),
        "empty-text-block",
        "messages[1].content",
      );
      assertEquals(
        e.message,
        "messages.1: all messages must have non-empty content except for the optional final assistant message",
      );
    }
  });
  await t.step("a string content of whitespace (one text block, in short)", async () => {
    const e = await refuses(
      API,
      req({ messages: [{ role: "user", content: " \t" }] }),
      "empty-text-block",
      "messages[0].content",
    );
    assertEquals(e.message, "messages: text content blocks must contain non-whitespace text");
  });
  await t.step("an empty final assistant message is served", async () => {
    await serves(API, req({ messages: [user, { role: "assistant", content: "" }] }));
    await serves(API, req({ messages: [user, { role: "assistant", content: [] }] }));
  });
});

Deno.test("messages rules: final-assistant-trailing-whitespace refuses a prefill ending in whitespace", async () => {
  const e = await refuses(
    API,
    req({ messages: [user, { role: "assistant", content: "The answer is " }] }),
    "final-assistant-trailing-whitespace",
    "messages[1].content",
  );
  assertEquals(e.message, "messages: final assistant content cannot end with trailing whitespace");
  await refuses(
    API,
    req({ messages: [user, { role: "assistant", content: [text("a"), text("b\n")] }] }),
    "final-assistant-trailing-whitespace",
    "messages[1].content[1].text",
  );
  await serves(API, req({ messages: [user, { role: "assistant", content: "The answer is" }] }));
  await serves(API, req({ messages: [user, { role: "assistant", content: "Ok. " }, user] }));
  await serves(
    API,
    req({ messages: [user, { role: "assistant", content: [text("a "), use("t")] }] }),
  );
});

Deno.test("messages rules: tool-name-pattern and duplicate-tool-name refuse bad tool names", async (t) => {
  const tool = (name: string) => ({ name, input_schema: { type: "object" } });
  for (
    const [name, value] of [["empty", ""], ["spaced", "get weather"], ["65 long", "a".repeat(65)]]
  ) {
    await t.step(name, async () => {
      const e = await refuses(
        API,
        req({ tools: [tool("ok"), tool(value)] }),
        "tool-name-pattern",
        "tools[1].name",
      );
      assertEquals(
        e.message,
        "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
      );
    });
  }
  await t.step("a custom tool and a server tool of the same name", async () => {
    const e = await refuses(
      API,
      req({ tools: [tool("web_search"), { type: "web_search_20250305", name: "web_search" }] }),
      "duplicate-tool-name",
      "tools[1].name",
    );
    assertEquals(e.message, "tools: Tool names must be unique.");
  });
  await t.step("64 characters, a custom type and a server tool are served", async () => {
    await serves(
      API,
      req({
        tools: [
          tool(`aZ09_-${"x".repeat(58)}`),
          { type: "custom", ...tool("g") },
          { type: "web_search_20250305", name: "web_search" },
        ],
      }),
    );
  });
});

Deno.test("messages rules: tool-schema-type refuses a tool without a usable input_schema", async (t) => {
  for (
    const [name, tool, path, message] of [
      [
        "no input_schema",
        { name: "f" },
        "tools[0].input_schema",
        "tools.0.custom.input_schema: Field required",
      ],
      [
        "a custom tool without one",
        { type: "custom", name: "f" },
        "tools[0].input_schema",
        "tools.0.custom.input_schema: Field required",
      ],
      [
        "a string",
        { name: "f", input_schema: "{}" },
        "tools[0].input_schema",
        "tools.0.custom.input_schema: Input should be a valid dictionary",
      ],
      [
        "no type",
        { name: "f", input_schema: { properties: {} } },
        "tools[0].input_schema.type",
        "tools.0.custom.input_schema.type: Field required",
      ],
      [
        "type string",
        { name: "f", input_schema: { type: "string" } },
        "tools[0].input_schema.type",
        "tools.0.custom.input_schema.type: Input should be 'object'",
      ],
      [
        "a bogus type inside",
        { name: "f", input_schema: { type: "object", properties: { a: { type: "bogus" } } } },
        "tools[0].input_schema.properties.a.type",
        "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.claude.com/en/docs/tool-use.",
      ],
    ] as const
  ) {
    await t.step(name, async () => {
      const e = await refuses(API, req({ tools: [tool] }), "tool-schema-type", path);
      assertEquals(e.message, message);
    });
  }
});

Deno.test("messages rules: message-content-type and content-block-shape refuse malformed content", async (t) => {
  await t.step("content missing, or a number", async () => {
    const missing = await refuses(
      API,
      req({ messages: [{ role: "user" }] }),
      "message-content-type",
      "messages[0].content",
    );
    assertEquals(missing.message, "messages.0.content: Field required");
    const number = await refuses(
      API,
      req({ messages: [{ role: "user", content: 7 }] }),
      "message-content-type",
      "messages[0].content",
    );
    assertEquals(number.message, "messages.0.content: Input should be a valid list");
  });
  for (
    const [name, message, path, expected] of [
      [
        "a text block without text",
        { role: "user", content: [{ type: "text" }] },
        "messages[0].content[0].text",
        "messages.0.content.0.text.text: Field required",
      ],
      [
        "a text block with a number",
        { role: "user", content: [text(7)] },
        "messages[0].content[0].text",
        "messages.0.content.0.text.text: Input should be a valid string",
      ],
      [
        "a tool_use without id",
        { role: "assistant", content: [{ type: "tool_use", name: "f", input: {} }] },
        "messages[1].content[0].id",
        "messages.1.content.0.tool_use.id: Field required",
      ],
      [
        "a tool_use without name",
        { role: "assistant", content: [{ type: "tool_use", id: "t", input: {} }] },
        "messages[1].content[0].name",
        "messages.1.content.0.tool_use.name: Field required",
      ],
      [
        "a tool_use whose input is a string",
        { role: "assistant", content: [use("t", "{}")] },
        "messages[1].content[0].input",
        "messages.1.content.0.tool_use.input: Input should be a valid dictionary",
      ],
      [
        "a tool_result without tool_use_id",
        { role: "user", content: [{ type: "tool_result", content: "x" }] },
        "messages[1].content[0].tool_use_id",
        "messages.1.content.0.tool_result.tool_use_id: Field required",
      ],
    ] as const
  ) {
    await t.step(name, async () => {
      const at = message.role === "assistant" || path.startsWith("messages[1]")
        ? [user, message]
        : [message];
      const e = await refuses(API, req({ messages: at }), "content-block-shape", path);
      assertEquals(e.message, expected);
    });
  }
});

Deno.test("messages rules: messages-empty, stream-type and temperature-range", async () => {
  const empty = await refuses(API, req({ messages: [] }), "messages-empty", "messages");
  assertEquals(empty.message, "messages: at least one message is required");
  const stream = await refuses(API, req({ stream: "true" }), "stream-type", "stream");
  assertEquals(stream.message, "stream: Input should be a valid boolean");
  const high = await refuses(API, req({ temperature: 1.5 }), "temperature-range", "temperature");
  assertEquals(high.message, "temperature: Input should be less than or equal to 1");
  const low = await refuses(API, req({ temperature: -1 }), "temperature-range", "temperature");
  assertEquals(low.message, "temperature: Input should be greater than or equal to 0");
  const word = await refuses(API, req({ temperature: "1" }), "temperature-range", "temperature");
  assertEquals(word.message, "temperature: Input should be a valid number");
  await serves(API, req({ stream: false, temperature: 0 }));
  await serves(API, req({ temperature: 1 }));
});
