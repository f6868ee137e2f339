// The cassette file as a format: which lines open, which are refused, and
// how a replayed request is compared with its recording, field by field.
import { assertEquals, assertInstanceOf, assertThrows } from "@std/assert";
import type { ChatRequest, JsonSchema, ToolSpec } from "@agentkit/testing/ports";
import { ProviderResponseError } from "@agentkit/testing/ports";
import { cassette, CassetteMismatch, InvalidScript } from "@agentkit/testing/testing";

const request = { model: "m", messages: [{ role: "user", content: "hi" }] };
const turn = { content: "ok" };

async function withFile(
  text: string,
  body: (path: string) => void | Promise<void>,
): Promise<void> {
  const path = await Deno.makeTempFile({ prefix: "cassette_format_", suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(path, text);
    await body(path);
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("cassette() refuses every malformed line with InvalidScript naming it", async (t) => {
  const good = JSON.stringify({ request, turn });
  const bad: Record<string, unknown> = {
    "a null line": null,
    "an unknown top-level key": { request, turn, headers: { authorization: "x" } },
    "a request that is a string": { request: "hi", turn },
    "a model that is not a string": { request: { ...request, model: 1 }, turn },
    "messages that are not a list": { request: { ...request, messages: {} }, turn },
    "a null message": { request: { ...request, messages: [null] }, turn },
    "a string message": { request: { ...request, messages: ["hi"] }, turn },
    "a list as a message": { request: { ...request, messages: [[]] }, turn },
    "one bad message after a good one": {
      request: { ...request, messages: [{ role: "user", content: "hi" }, 1] },
      turn,
    },
    "tools that are not a list": { request: { ...request, tools: "t" }, turn },
    "a tool that is not an object": { request: { ...request, tools: [1] }, turn },
    "one bad tool after a good one": { request: { ...request, tools: [{ name: "t" }, 1] }, turn },
    "settings that are a list": { request: { ...request, settings: [] }, turn },
    "settings that are a string": { request: { ...request, settings: "hot" }, turn },
    "an unknown request key": { request: { ...request, headers: {} }, turn },
    "a fault of an unknown class": {
      request,
      turn: { error: "boom" },
      fault: { class: "NetworkError", phase: "pre_stream" },
    },
    "a fault without the turn's error": {
      request,
      turn,
      fault: { class: "ProviderError", phase: "pre_stream" },
    },
  };
  for (const [name, line] of Object.entries(bad)) {
    await t.step(name, async () => {
      await withFile(`${good}\n${JSON.stringify(line)}\n`, (path) => {
        const error = assertThrows(() => cassette(path), InvalidScript);
        assertEquals(error.message.includes(`${path} line 2`), true, error.message);
      });
    });
  }
});

Deno.test("cassette() opens CRLF files with blank lines, tools and settings", async () => {
  const tools: ToolSpec[] = [{ name: "t", description: "d", parameters: { type: "object" } }];
  const full = { ...request, tools, settings: { temperature: 0.2, maxTokens: 64 } };
  const text = `${JSON.stringify({ request: full, turn })}\r\n  \r\n\r\n${
    JSON.stringify({ request, turn: { content: "again" } })
  }\r\n`;
  await withFile(text, async (path) => {
    await using llm = cassette(path, { mode: "replay" });
    assertEquals(llm.size, 2);
    assertEquals((await llm.chat(full as ChatRequest)).content, "ok");
    assertEquals((await llm.chat(request as ChatRequest)).content, "again");
  });
});

Deno.test("cassette() replays a hand-written error line without a fault as FakeLLM's error", async () => {
  await withFile(JSON.stringify({ request, turn: { error: "refused" } }) + "\n", async (path) => {
    const llm = cassette(path);
    const error = await llm.chat(request as ChatRequest).catch((e) => e);
    assertInstanceOf(error, ProviderResponseError);
    assertEquals(error.message, "refused");
  });
});

// One recorded tool whose JSON Schema is `recorded`, replayed with `actual`:
// the mismatch's field, or undefined when the replay matches.
async function compare(recorded: JsonSchema, actual: JsonSchema): Promise<
  { field: string; recorded: unknown; actual: unknown } | undefined
> {
  const tool = (parameters: JsonSchema): ToolSpec => ({ name: "t", description: "", parameters });
  const line = { request: { ...request, tools: [tool(recorded)] }, turn };
  let result: { field: string; recorded: unknown; actual: unknown } | undefined;
  await withFile(JSON.stringify(line) + "\n", async (path) => {
    const llm = cassette(path);
    try {
      await llm.chat({ ...request, tools: [tool(actual)] } as ChatRequest);
    } catch (error) {
      if (!(error instanceof CassetteMismatch)) throw error;
      result = { field: error.field, recorded: error.recorded, actual: error.actual };
    }
  });
  return result;
}

Deno.test("cassette() replay compares every JSON value of a request", async (t) => {
  const at = (field: string, recorded: unknown, actual: unknown) => ({
    field: `tools[0].parameters.${field}`,
    recorded,
    actual,
  });
  await t.step("equal numbers, booleans, nulls and lists match", async () => {
    const schema = { minimum: 0, maximum: 2.5, strict: true, default: null, required: ["a"] };
    assertEquals(await compare(schema, { ...schema }), undefined);
  });
  await t.step("a different number", async () => {
    assertEquals(await compare({ minimum: 0 }, { minimum: 1 }), at("minimum", 0, 1));
  });
  await t.step("null against an object, both ways", async () => {
    assertEquals(await compare({ default: null }, { default: {} }), at("default", null, {}));
    assertEquals(await compare({ default: {} }, { default: null }), at("default", {}, null));
  });
  await t.step("a number against an object, both ways", async () => {
    assertEquals(await compare({ minimum: 0 }, { minimum: {} }), at("minimum", 0, {}));
    assertEquals(await compare({ minimum: {} }, { minimum: 0 }), at("minimum", {}, 0));
  });
  await t.step("a list against an object, both ways", async () => {
    assertEquals(await compare({ required: [] }, { required: {} }), at("required", [], {}));
    assertEquals(await compare({ required: {} }, { required: [] }), at("required", {}, []));
  });
  await t.step("a list one item shorter or longer", async () => {
    assertEquals(
      await compare({ required: ["a", "b"] }, { required: ["a"] }),
      at("required[1]", "b", undefined),
    );
    assertEquals(
      await compare({ required: ["a"] }, { required: ["a", "b"] }),
      at("required[1]", undefined, "b"),
    );
  });
  await t.step("a list differing only in its second item", async () => {
    assertEquals(
      await compare({ required: ["a", "b"] }, { required: ["a", "c"] }),
      at("required[1]", "b", "c"),
    );
  });
  await t.step("a nested key the replay no longer sends", async () => {
    assertEquals(
      await compare({ items: { type: "string", format: "uri" } }, { items: { type: "string" } }),
      at("items.format", "uri", undefined),
    );
  });
  await t.step("a nested key the replay sends as undefined", async () => {
    assertEquals(
      await compare({ items: { format: "uri" } }, { items: { format: undefined } }),
      at("items.format", "uri", undefined),
    );
  });
  await t.step("an undefined key is reported where the request has it", async () => {
    assertEquals(
      await compare({ a: 1, b: 2 }, { a: undefined, b: 3 }),
      at("a", 1, undefined),
    );
  });
  await t.step("an undefined key the recording does not have matches", async () => {
    assertEquals(await compare({ a: 1 }, { a: 1, b: undefined }), undefined);
  });
  await t.step("a key with a dot in it reports its own values", async () => {
    // "a.b" reads like the path a → b, which holds other values here.
    const properties = { a: { b: { type: "other" } }, "a.b": { type: "string" } };
    assertEquals(
      await compare({ properties }, { properties: { ...properties, "a.b": { type: "number" } } }),
      at("properties.a.b.type", "string", "number"),
    );
    const nulls = { a: null, "a.b": 1 };
    assertEquals(
      await compare({ properties: nulls }, { properties: { ...nulls, "a.b": 2 } }),
      at("properties.a.b", 1, 2),
    );
  });
});

Deno.test("cassette() replay: settings are compared, an empty tool list is no tools", async (t) => {
  const line = { request: { ...request, settings: { temperature: 0.2 } }, turn };
  await t.step("the same settings match, other settings do not", async () => {
    await withFile(JSON.stringify(line) + "\n", async (path) => {
      const same = cassette(path);
      await same.chat({ ...request, settings: { temperature: 0.2 } } as ChatRequest);
      const other = cassette(path);
      const error = await other.chat({ ...request, settings: { temperature: 0.9 } } as ChatRequest)
        .catch((e) => e);
      assertInstanceOf(error, CassetteMismatch);
      assertEquals([error.field, error.recorded, error.actual], ["settings.temperature", 0.2, 0.9]);
    });
  });
  await t.step("settings recorded, none sent", async () => {
    await withFile(JSON.stringify(line) + "\n", async (path) => {
      const error = await cassette(path).chat(request as ChatRequest).catch((e) => e);
      assertInstanceOf(error, CassetteMismatch);
      assertEquals([error.field, error.actual], ["settings", undefined]);
    });
  });
  await t.step("tools: [] replays a line recorded without tools", async () => {
    await withFile(JSON.stringify({ request, turn }) + "\n", async (path) => {
      await using llm = cassette(path);
      assertEquals((await llm.chat({ ...request, tools: [] } as ChatRequest)).content, "ok");
    });
  });
});
