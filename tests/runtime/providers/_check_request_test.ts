// A real port checks what it is handed before anything is sent.
import { assert, assertThrows } from "@std/assert";
import { checkCtx, checkRequest } from "../../../runtime/providers/_check_request.ts";

const ok = { model: "m", messages: [{ role: "user", content: "hi" }] };

Deno.test("checkRequest(): a ChatRequest passes, tool loops and settings included", () => {
  checkRequest("P.chat()", ok);
  checkRequest("P.chat()", {
    model: "m",
    messages: [
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      { role: "assistant", content: "", toolCalls: [{ id: "c", name: "f", args: {} }] },
      { role: "tool", content: "r", toolCallId: "c" },
    ],
    tools: [{ name: "f", description: "d", parameters: { type: "object" } }],
    settings: { maxTokens: 5, temperature: 0, jsonSchema: { type: "object" } },
  });
});

Deno.test("checkRequest(): each wrong field is a TypeError naming it, with the shape to pass", () => {
  const m = (over: Record<string, unknown>) => ({ role: "user", content: "hi", ...over });
  const cases: Array<[unknown, string]> = [
    [null, "the request must be a ChatRequest object"],
    ["hi", "the request must be a ChatRequest object"],
    [[], "the request must be a ChatRequest object"],
    [{ messages: ok.messages }, "request.model must be a non-empty string"],
    [{ model: "", messages: ok.messages }, "request.model must be a non-empty string"],
    [{ model: "m" }, "request.messages must be a non-empty array"],
    [{ model: "m", messages: [] }, "request.messages must be a non-empty array"],
    [{ model: "m", messages: ["hi"] }, "request.messages[0] must be a message object"],
    [{ model: "m", messages: [m({ role: "bot" })] }, "request.messages[0].role must be"],
    [{ model: "m", messages: [m({ content: 5 })] }, "request.messages[0].content must be a string"],
    [{ model: "m", messages: [m({ role: "tool" })] }, "request.messages[0].toolCallId must name"],
    [
      { model: "m", messages: [m({ toolCalls: "x" })] },
      "request.messages[0].toolCalls must be an array",
    ],
    [{ model: "m", messages: [m({ toolCalls: [1] })] }, "toolCalls[0] must be a tool call"],
    [
      { model: "m", messages: [m({ toolCalls: [{ name: "f", args: {} }] })] },
      "toolCalls[0].id must be a string",
    ],
    [
      { model: "m", messages: [m({ toolCalls: [{ id: "c", name: "", args: {} }] })] },
      "toolCalls[0].name must be a non-empty string",
    ],
    [
      { model: "m", messages: [m({ toolCalls: [{ id: "c", name: "f", args: "{}" }] })] },
      "toolCalls[0].args must be an object",
    ],
    [{ ...ok, tools: {} }, "request.tools must be an array"],
    [{ ...ok, tools: [{ parameters: {} }] }, "request.tools[0] must be a tool spec with a name"],
    [
      { ...ok, tools: [{ name: "f", parameters: "x" }] },
      "request.tools[0].parameters must be a JSON schema object",
    ],
    [{ ...ok, settings: 3 }, "request.settings must be an object"],
    [{ ...ok, settings: { maxTokens: 0 } }, "maxTokens must be a positive integer"],
    [{ ...ok, settings: { maxTokens: 1.5 } }, "maxTokens must be a positive integer"],
    [{ ...ok, settings: { temperature: -1 } }, "temperature must be a finite number"],
    [{ ...ok, settings: { temperature: NaN } }, "temperature must be a finite number"],
    [{ ...ok, settings: { jsonSchema: "x" } }, "jsonSchema must be a JSON schema object"],
  ];
  for (const [request, says] of cases) {
    const e = assertThrows(() => checkRequest("OpenAIChatLLM.chat()", request), TypeError);
    assert(e.message.startsWith("OpenAIChatLLM.chat(): "), e.message);
    assert(e.message.includes(says), `${JSON.stringify(request)}: ${e.message}`);
    assert(e.message.includes("pass a ChatRequest such as"), e.message);
  }
});

Deno.test("checkCtx(): a context object or nothing; anything else is a TypeError naming it", () => {
  checkCtx("P.chat()", undefined);
  checkCtx("P.chat()", {});
  for (const bad of [5, "ctx", null, [], true]) {
    assertThrows(
      () => checkCtx("P.chat()", bad),
      TypeError,
      "P.chat(): the ctx must be a RunContext",
    );
  }
});
