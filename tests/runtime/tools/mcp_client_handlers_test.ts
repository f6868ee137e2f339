import { assertEquals, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import { mcpClientHandlers, McpRequestRefused } from "@agentkit/testing/runtime";
import type { AskerPort, Ctx } from "@agentkit/testing/ports";
import { FakeAsker, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

function elicitor(answers: string[]) {
  const asker = new FakeAsker(answers);
  const [h] = mcpClientHandlers({ asker });
  return {
    asker,
    ask: (params: Record<string, unknown>) => h.handler({ method: "elicitation/create", params }),
  };
}

const form = (properties: Record<string, unknown>, required: string[] = []) => ({
  message: "Form",
  requestedSchema: { type: "object", properties, required },
});

Deno.test("elicitation: each type of field, parsed from the asker's answer", async () => {
  const { ask, asker } = elicitor([
    "7",
    "2.5",
    "no",
    "Y",
    "b",
    "Two",
    "x, y",
    "free text",
    "true",
    "n",
  ]);
  const r = await ask(form({
    i: { type: "integer" },
    n: { type: "number" },
    b: { type: "boolean" },
    b2: { type: "boolean" },
    e: { type: "string", enum: ["a", "b"] },
    legacy: { type: "string", enum: ["one", "two"], enumNames: ["One", "Two"] },
    m: { type: "array", items: { type: "string", enum: ["x", "y"] } },
    s: { type: "string", description: "anything" },
    t: { type: "boolean" },
    f: { type: "boolean" },
  }));
  assertEquals(r, {
    action: "accept",
    content: {
      i: 7,
      n: 2.5,
      b: false,
      b2: true,
      e: "b",
      legacy: "two",
      m: ["x", "y"],
      s: "free text",
      t: true,
      f: false,
    },
  });
  assertEquals(asker.questions[0], "Form\ni [integer; optional; empty leaves it out]");
  assertEquals(
    asker.questions[5],
    "Form\nlegacy [one of one (One), two (Two); optional; empty leaves it out]",
  );
  assertEquals(
    asker.questions[6],
    "Form\nm [one or more (comma-separated) of x, y; optional; empty leaves it out]",
  );
  assertEquals(asker.questions[7], "Form\ns - anything [string; optional; empty leaves it out]");
});

Deno.test("elicitation: an empty answer takes the default, leaves out an optional field, refuses a required one", async () => {
  const { ask, asker } = elicitor(["", "", " "]);
  assertEquals(
    await ask(form({ d: { type: "integer", default: 30, title: "Age" }, o: { type: "string" } })),
    { action: "accept", content: { d: 30 } },
  );
  assertEquals(asker.questions[0], "Form\nAge [integer; default 30; empty keeps it]");
  const e = await assertRejects(
    () => ask(form({ r: { type: "string" } }, ["r"])),
    McpRequestRefused,
  );
  assertEquals(e.code, -32602);
  assertStringIncludes(
    e.message,
    'Cannot answer elicitation/create: field "r" is required and the answer was empty',
  );
});

Deno.test("elicitation: an answer that does not fit the field is McpRequestRefused naming it", async () => {
  for (
    const [field, answer, text] of [
      [{ type: "integer" }, "2.5", '"2.5" is not an integer'],
      [{ type: "number" }, "lots", '"lots" is not a number'],
      [{ type: "boolean" }, "perhaps", '"perhaps" is not yes or no'],
      [{ type: "string", enum: ["a"] }, "z", '"z" is not one of a'],
      [
        { type: "array", items: { anyOf: [{ const: "a", title: "A" }] } },
        "A, q",
        '"q" is not one of a',
      ],
    ] as const
  ) {
    const { ask } = elicitor([answer]);
    await assertRejects(() => ask(form({ f: field })), McpRequestRefused, `field "f": ${text}`);
  }
});

Deno.test("elicitation: URL mode, an empty form, and a request without a schema", async () => {
  const { ask, asker } = elicitor(["done", "ok"]);
  assertEquals(
    await ask({ mode: "url", message: "Sign in", elicitationId: "e", url: "https://x.example" }),
    { action: "accept" },
  );
  assertEquals(asker.questions[0], "Sign in\nOpen https://x.example");
  assertEquals(await ask(form({})), { action: "accept", content: {} });
  assertEquals(asker.questions[1], "Form");
  await assertRejects(
    () => ask({ message: "m" }),
    McpRequestRefused,
    "requestedSchema has no properties",
  );
});

Deno.test("elicitation: the asker gets the given run's context, with the server's signal joined", async () => {
  const seen: Ctx[] = [];
  const asker: AskerPort = { ask: (_q, ctx) => (seen.push(ctx), Promise.resolve("x")) };
  const ctx = makeTestCtx();
  const [h] = mcpClientHandlers({ asker, ctx });
  const server = new AbortController();
  await h.handler({ method: "elicitation/create", params: form({ s: { type: "string" } }) }, {
    signal: server.signal,
  });
  assertEquals(seen[0].clock, ctx.clock);
  assertEquals(seen[0].correlationId, ctx.correlationId);
  server.abort(new Error("cancelled by the server"));
  assertEquals(seen[0].signal.aborted, true);
  assertThrows(() => seen[0].checkCancelled(), Error, "cancelled by the server");
  const [alone] = mcpClientHandlers({ asker });
  await alone.handler({ method: "elicitation/create", params: form({ s: { type: "string" } }) });
  assertEquals(seen[1].signal.aborted, false);
  seen[1].checkCancelled();
  assertEquals(await seen[1].emit("k", "t"), undefined);
});

Deno.test("sampling: the request as the model port reads it, the answer as MCP's CreateMessageResult", async () => {
  const llm = FakeLLM.script([{ content: "long", finishReason: "length" }, "x", "y"]);
  const [h] = mcpClientHandlers({ llm, model: "chosen" });
  assertEquals(h.method, "sampling/createMessage");
  const r = await h.handler({
    method: "sampling/createMessage",
    params: {
      messages: [
        { role: "user", content: { type: "image", data: "AA==", mimeType: "image/png" } },
        { role: "assistant", content: [{ type: "text", text: "a" }, { type: "other" }] },
      ],
      maxTokens: 9,
      temperature: 0.2,
    },
  });
  assertEquals(r, {
    role: "assistant",
    content: { type: "text", text: "long" },
    model: "chosen",
    stopReason: "maxTokens",
  });
  assertEquals(llm.requests[0].model, "chosen");
  assertEquals(llm.requests[0].messages.map((m) => m.content), [
    "[image: image/png]",
    'a\n{"type":"other"}',
  ]);
  assertEquals(
    [llm.requests[0].settings?.maxTokens, llm.requests[0].settings?.temperature],
    [9, 0.2],
  );
  const [plain] = mcpClientHandlers({ llm });
  assertEquals(
    (await plain.handler({
      method: "sampling/createMessage",
      params: { messages: [], maxTokens: 1 },
    })).stopReason,
    "endTurn",
  );
  assertEquals(llm.requests[1].model, "mcp-sampling");
  await assertRejects(
    () => plain.handler({ method: "sampling/createMessage", params: { messages: "no" } }),
    McpRequestRefused,
    "params.messages is not an array",
  );
  await assertRejects(
    () =>
      plain.handler({
        method: "sampling/createMessage",
        params: { messages: [{ role: "system", content: {} }] },
      }),
    McpRequestRefused,
    'a message\'s role must be "user" or "assistant", got "system"',
  );
});

Deno.test("mcpClientHandlers: one handler per port given, its schema's method a literal; options checked", () => {
  assertEquals(mcpClientHandlers({}), []);
  const both = mcpClientHandlers({ asker: new FakeAsker([]), llm: FakeLLM.script(["x"]) });
  assertEquals(both.map((h) => h.method), ["elicitation/create", "sampling/createMessage"]);
  for (const h of both) {
    const shape = (h.schema as { shape: { method: { value: string } } }).shape;
    assertEquals(shape.method.value, h.method);
  }
  assertThrows(() => mcpClientHandlers({ asker: {} as never }), TypeError, "AskerPort");
  assertThrows(() => mcpClientHandlers({ model: "" }), RangeError, "model");
  assertThrows(() => mcpClientHandlers(7 as never), TypeError, "takes an options object");
});
