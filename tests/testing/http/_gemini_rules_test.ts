// The Gemini API rules of the strict wire, one test per rule, with the
// requests just inside each limit served.
import { assert, assertEquals } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import { json } from "./_wire_fetch.ts";
import { refuses, serves } from "./_strict_cases.ts";

const API = "generateContent";
const user = { role: "user", parts: [{ text: "hi" }] };
const call = (id: string, name = "f") => ({ functionCall: { id, name, args: {} } });
const response = (id: string, name = "f") => ({
  functionResponse: { id, name, response: { output: "ok" } },
});
// A hand-built step on gemini-3 carries Google's documented dummy signature
// on its first call (the thought-signature guide, FAQ), as a client that
// builds history must: the API refuses an unsigned one (issue 36).
const DUMMY = "skip_thought_signature_validator";
const asked = (...ids: string[]) => ({
  role: "model",
  parts: ids.map((id, i) => i === 0 ? { ...call(id), thoughtSignature: DUMMY } : call(id)),
});
const answered = (...ids: string[]) => ({ role: "user", parts: ids.map((id) => response(id)) });
const req = (fields: Record<string, unknown>) => ({ contents: [user], ...fields });
const decl = (fields: Record<string, unknown>) => ({ functionDeclarations: [fields] });

Deno.test("generateContent rules: contents-empty and parts-empty", async (t) => {
  await t.step("contents missing, or []", async () => {
    for (const contents of [undefined, []]) {
      const e = await refuses(API, { contents }, "contents-empty", "contents");
      assertEquals(e.message, "* GenerateContentRequest.contents: contents is not specified\n");
    }
  });
  await t.step("parts missing, or []", async () => {
    for (const parts of [undefined, []]) {
      const e = await refuses(
        API,
        req({ contents: [user, { role: "model", parts }] }),
        "parts-empty",
        "contents[1].parts",
      );
      assertEquals(
        e.message,
        "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty.\n",
      );
    }
  });
});

Deno.test("generateContent rules: role is user or model (or left out)", async (t) => {
  for (const role of ["system", "assistant", "function", 1]) {
    await t.step(`role: ${JSON.stringify(role)}`, async () => {
      const e = await refuses(
        API,
        req({ contents: [user, { role, parts: [{ text: "x" }] }] }),
        "role",
        "contents[1].role",
      );
      assertEquals(e.message, "Please use a valid role: user, model.");
    });
  }
  await t.step("no role, and user then model, are served", async () => {
    await serves(API, { contents: [{ parts: [{ text: "hi" }] }] });
    await serves(API, req({ contents: [user, { role: "model", parts: [{ text: "a" }] }, user] }));
  });
});

Deno.test("generateContent rules: function-call-turn follows a user turn or a response turn", async (t) => {
  await t.step("a call turn that opens the contents", async () => {
    const e = await refuses(
      API,
      { contents: [asked("c1"), answered("c1")] },
      "function-call-turn",
      "contents[0]",
    );
    assertEquals(
      e.message,
      "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
    );
  });
  await t.step("a call turn after a model turn", async () => {
    await refuses(
      API,
      req({ contents: [user, { role: "model", parts: [{ text: "a" }] }, asked("c1")] }),
      "function-call-turn",
      "contents[2]",
    );
  });
  await t.step("two steps of calls, each after the responses, are served", async () => {
    await serves(
      API,
      req({ contents: [user, asked("a"), answered("a"), asked("b"), answered("b")] }),
    );
  });
});

Deno.test("generateContent rules: function-response-turn and function-response-count", async (t) => {
  await t.step("responses after a user text", async () => {
    const e = await refuses(
      API,
      req({ contents: [user, answered("c1")] }),
      "function-response-turn",
      "contents[1]",
    );
    assertEquals(
      e.message,
      "Please ensure that function response turn comes immediately after a function call turn.",
    );
  });
  await t.step("responses after a model turn with no calls", async () => {
    await refuses(
      API,
      req({ contents: [user, { role: "model", parts: [{ text: "a" }] }, answered("c1")] }),
      "function-response-turn",
      "contents[2]",
    );
  });
  await t.step("fewer, or more, responses than calls", async () => {
    for (const [calls, responses] of [[["a", "b"], ["a"]], [["a"], ["a", "b"]]]) {
      const e = await refuses(
        API,
        req({ contents: [user, asked(...calls), answered(...responses)] }),
        "function-response-count",
        "contents[2].parts",
      );
      assertEquals(
        e.message,
        "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
      );
    }
  });
  await t.step("parallel calls, all answered, with text beside them, are served", async () => {
    await serves(
      API,
      req({
        contents: [user, {
          role: "model",
          parts: [{ text: "Both." }, { ...call("a"), thoughtSignature: DUMMY }, call("b")],
        }, answered("a", "b")],
      }),
    );
  });
});

// A provider that served one Gemini 3 step calling `f` as call_1: it issued
// the signature that the next request must send back.
async function signed(model = "gemini-3-pro-preview"): Promise<[FakeProvider, unknown]> {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ toolCalls: [toolCall("call_1", "f", {})] }, "done"], {
      strictTools: false,
    }),
  });
  const first = await json(provider, `/v1beta/models/${model}:generateContent`, req({}));
  assertEquals(first.status, 200);
  const parts = (first.body as { candidates: { content: { parts: unknown[] } }[] })
    .candidates[0].content.parts;
  return [provider, parts];
}

Deno.test("generateContent rules: thought-signature-missing refuses a gemini-3 call sent back without its signature", async (t) => {
  const path = "/v1beta/models/gemini-3-pro-preview:generateContent";
  await t.step("the signature dropped, or replaced", async () => {
    for (const signature of [undefined, "c2tpcA=="]) {
      const [provider] = await signed();
      const part = { ...call("call_1"), ...(signature ? { thoughtSignature: signature } : {}) };
      const { status, body } = await json(
        provider,
        path,
        req({ contents: [user, { role: "model", parts: [part] }, answered("call_1")] }),
      );
      assertEquals(status, 400);
      const error = body.error as { code: number; status: string; message: string };
      assertEquals([error.code, error.status], [400, "INVALID_ARGUMENT"]);
      assert(
        error.message.startsWith(
          "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:f` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
        ),
        error.message,
      );
      assertEquals(provider.rejections.map((r) => [r.rule, r.path]), [[
        "thought-signature-missing",
        "contents[1].parts[0].thoughtSignature",
      ]]);
    }
  });
  await t.step("sent back as issued: served", async () => {
    const [provider, parts] = await signed();
    const { status } = await json(
      provider,
      path,
      req({ contents: [user, { role: "model", parts }, answered("call_1")] }),
    );
    assertEquals([status, provider.rejections], [200, []]);
  });
  await t.step("a step of an earlier turn (a user text since) is not checked", async () => {
    const [provider] = await signed();
    const { status } = await json(
      provider,
      path,
      req({ contents: [user, asked("call_1"), answered("call_1"), user] }),
    );
    assertEquals([status, provider.rejections], [200, []]);
  });
  await t.step("a model that does not sign (gemini-2.5) is not checked", async () => {
    const [provider, parts] = await signed("gemini-2.5-flash");
    assertEquals((parts as { thoughtSignature?: string }[])[0].thoughtSignature, undefined);
    const { status } = await json(
      provider,
      "/v1beta/models/gemini-2.5-flash:generateContent",
      req({ contents: [user, asked("call_1"), answered("call_1")] }),
    );
    assertEquals([status, provider.rejections], [200, []]);
  });
  await t.step("strict: { except } lets it through", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ toolCalls: [toolCall("call_1", "f", {})] }, "done"], {
        strictTools: false,
      }),
      strict: { except: ["thought-signature-missing"] },
    });
    await json(provider, path, req({}));
    const { status } = await json(
      provider,
      path,
      req({ contents: [user, asked("call_1"), answered("call_1")] }),
    );
    assertEquals([status, provider.rejections], [200, []]);
  });
});

Deno.test("generateContent rules: tool-name-pattern", async (t) => {
  for (const name of ["", "1abc", "bad name", "a".repeat(65), 7]) {
    await t.step(`name ${JSON.stringify(name)}`, async () => {
      const e = await refuses(
        API,
        req({ tools: [{ googleSearch: {} }, decl({ name })] }),
        "tool-name-pattern",
        "tools[1].functionDeclarations[0].name",
      );
      assertEquals(
        e.message,
        "* GenerateContentRequest.tools[1].function_declarations[0].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.\n",
      );
    });
  }
  await t.step("_a.b:c-d and 64 characters are served", async () => {
    await serves(API, req({ tools: [decl({ name: "_a.b:c-d" }), decl({ name: "a".repeat(64) })] }));
  });
});

Deno.test("generateContent rules: duplicate-tool-name", async (t) => {
  await t.step("two declarations of one name in one tool", async () => {
    const e = await refuses(
      API,
      req({ tools: [{ functionDeclarations: [{ name: "a" }, { name: "b" }, { name: "a" }] }] }),
      "duplicate-tool-name",
      "tools[0].functionDeclarations[2].name",
    );
    assertEquals(e.message, "Duplicate function declaration found: a");
  });
  await t.step("the same name in two tools", async () => {
    await refuses(
      API,
      req({
        tools: [
          decl({ name: "a" }),
          { googleSearch: {} },
          decl({ name: "b" }),
          decl({ name: "a" }),
        ],
      }),
      "duplicate-tool-name",
      "tools[3].functionDeclarations[0].name",
    );
  });
  await t.step("distinct names, and one name differing in case, are served", async () => {
    await serves(
      API,
      req({
        tools: [{ functionDeclarations: [{ name: "a" }, { name: "A" }] }, decl({ name: "b" })],
      }),
    );
  });
  await t.step("off by except", async () => {
    const provider = new FakeProvider({
      llm: new FakeLLM("ok"),
      strict: { except: ["duplicate-tool-name"] },
    });
    const res = await provider.fetch(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
      {
        method: "POST",
        headers: { "x-goog-api-key": "k" },
        body: JSON.stringify(req({ tools: [decl({ name: "a" }), decl({ name: "a" })] })),
      },
    );
    assertEquals(res.status, 200);
    await res.body?.cancel();
  });
});

Deno.test("generateContent rules: tool-schema-type", async (t) => {
  const at = "tools[0].functionDeclarations[0]";
  await t.step("parameters and parametersJsonSchema both", async () => {
    const e = await refuses(
      API,
      req({
        tools: [decl({ name: "f", parameters: { type: "OBJECT" }, parametersJsonSchema: {} })],
      }),
      "tool-schema-type",
      `${at}.parametersJsonSchema`,
    );
    assert(e.message.includes("mutually exclusive"), e.message);
  });
  await t.step("parameters not an object", async () => {
    await refuses(
      API,
      req({ tools: [decl({ name: "f", parameters: "x" })] }),
      "tool-schema-type",
      `${at}.parameters`,
    );
  });
  await t.step("parametersJsonSchema not an object schema", async () => {
    for (const schema of ["{}", { type: "string" }, {}]) {
      await refuses(
        API,
        req({ tools: [decl({ name: "f", parametersJsonSchema: schema })] }),
        "tool-schema-type",
        `${at}.parametersJsonSchema`,
      );
    }
  });
  await t.step("a type below it that is not a JSON Schema type", async () => {
    const e = await refuses(
      API,
      req({
        tools: [decl({
          name: "f",
          parametersJsonSchema: { type: "object", properties: { q: { type: "text" } } },
        })],
      }),
      "tool-schema-type",
      `${at}.parametersJsonSchema.properties.q.type`,
    );
    assert(e.message.includes('"text" is not a JSON Schema type'), e.message);
  });
  await t.step("an object schema, an OpenAPI parameters, or none are served", async () => {
    await serves(
      API,
      req({
        tools: [
          decl({ name: "a", parametersJsonSchema: { type: "object", properties: {} } }),
          decl({ name: "b", parameters: { type: "OBJECT" } }),
          decl({ name: "c" }),
        ],
      }),
    );
  });
});

Deno.test("generateContent rules: temperature-range and max-tokens-range", async (t) => {
  const config = (g: Record<string, unknown>) => req({ generationConfig: g });
  await t.step("temperature -0.1, 2.1, a string", async () => {
    for (const temperature of [-0.1, 2.1, "1"]) {
      const e = await refuses(
        API,
        config({ temperature }),
        "temperature-range",
        "generationConfig.temperature",
      );
      assert(e.message.includes("from 0.0 to 2.0"), e.message);
    }
  });
  await t.step("maxOutputTokens 0, 1.5, a string", async () => {
    for (const maxOutputTokens of [0, 1.5, "10"]) {
      const e = await refuses(
        API,
        config({ maxOutputTokens }),
        "max-tokens-range",
        "generationConfig.maxOutputTokens",
      );
      assert(e.message.includes("supported range is from 1 (inclusive)"), e.message);
    }
  });
  await t.step("temperature 0 and 2, maxOutputTokens 1 are served", async () => {
    await serves(API, config({ temperature: 0, maxOutputTokens: 1 }));
    await serves(API, config({ temperature: 2 }));
  });
});
