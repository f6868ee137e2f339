// No secret reaches a cassette file: every shape, through every string of a
// line (request, answer, tool calls, a recorded error), read back from disk.
import {
  assert,
  assertEquals,
  assertFalse,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import fc from "fast-check";
import {
  type ChatRequest,
  type LLMPort,
  ProviderResponseError,
  toolCall,
} from "@agentkit/testing/ports";
import { OpenAIChatLLM } from "@agentkit/testing/runtime";
import { cassette, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
import { hiddenSecret, PROSE, SECRET_CASES } from "../../_secret_cases.ts";

async function inDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cassette_secrets_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// The text everywhere a line holds a string: the user's message, an earlier
// tool call's arguments and result, the answer, its tool call, and a failure.
function request(text: string): ChatRequest {
  return {
    model: "m",
    messages: [
      { role: "system", content: `system ${text}` },
      { role: "user", content: text },
      {
        role: "assistant",
        content: "",
        toolCalls: [toolCall("c1", "lookup_key", { query: text, auth: { user: "u", pass: "p" } })],
      },
      { role: "tool", toolCallId: "c1", content: JSON.stringify({ found: text }) },
    ],
    settings: { temperature: 0, jsonSchema: { type: "object", description: text } },
  };
}

function upstream(text: string): () => LLMPort {
  return () =>
    FakeLLM.script([
      { content: `answer: ${text}`, toolCalls: [toolCall("c2", "lookup_key", { q: text })] },
      { error: new ProviderResponseError(`provider said: ${text}`, { status: 400 }) },
      { chunks: [`streamed ${text.slice(0, 5)}`, text.slice(5), " end"] },
      { chunks: ["partial ", text], failAfterChunks: 2, error: `cut: ${text}` },
    ], { allowUnused: true });
}

async function record(path: string, text: string): Promise<string> {
  const llm = cassette(path, { upstream: upstream(text) });
  const req = request(text);
  await llm.chat(req);
  await assertRejects(() => llm.chat(req), ProviderResponseError);
  await Array.fromAsync(llm.stream(req));
  await Array.fromAsync(llm.stream(req));
  return await Deno.readTextFile(path);
}

Deno.test("cassette() writes no secret shape, in any string of any line", async (t) => {
  await inDir(async (dir) => {
    for (const [i, c] of SECRET_CASES.entries()) {
      await t.step(c.name, async () => {
        const written = await record(`${dir}/case_${i}.jsonl`, c.text);
        assertFalse(written.includes(c.secret), `${c.secret} was written:\n${written}`);
        assertStringIncludes(written, "[REDACTED]");
        assertEquals(written.trim().split("\n").length, 4, "every interaction was recorded");
      });
    }
  });
});

Deno.test("cassette() writes ordinary text as it is, and replays it", async (t) => {
  await inDir(async (dir) => {
    for (const [i, text] of PROSE.entries()) {
      await t.step(text, async () => {
        const path = `${dir}/prose_${i}.jsonl`;
        const written = await record(path, text);
        const line = JSON.parse(written.split("\n")[0]);
        assertEquals(line.request.messages[1].content, text);
        assertEquals(line.turn.content, `answer: ${text}`);
        const replay = cassette(path, { mode: "replay" });
        assertEquals((await replay.chat(request(text))).content, `answer: ${text}`);
      });
    }
  });
});

Deno.test("cassette() masks strings under secret-named keys at any depth, and replays the request", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/nested.jsonl`;
    const req: ChatRequest = {
      model: "m",
      messages: [{
        role: "assistant",
        content: "",
        toolCalls: [
          toolCall("c", "login", {
            user: "ann",
            credentials: { password: "hunter2", hint: "cat" },
            apiKey: "k-1",
            attempts: 3,
          }),
        ],
      }],
    };
    {
      await using rec = cassette(path, { upstream: () => new FakeLLM("ok") });
      await rec.chat(req);
    }
    const line = JSON.parse(await Deno.readTextFile(path));
    assertEquals(line.request.messages[0].toolCalls[0].args, {
      user: "ann",
      credentials: { password: "[REDACTED]", hint: "[REDACTED]" },
      apiKey: "[REDACTED]",
      attempts: 3,
    });
    await using player = cassette(path, { mode: "replay" });
    assertEquals((await player.chat(req)).content, "ok");
  });
});

Deno.test("cassette() masks a secret streamed in pieces, merging only the chunks it spans", async () => {
  const pieces = ["hello ", "sk-proj-Ab3d", "Ef6hIj9kLm2n", " bye", " end"];
  await inDir(async (dir) => {
    const path = `${dir}/split.jsonl`;
    const rec = cassette(path, {
      upstream: () =>
        FakeLLM.script([{ chunks: pieces }, {
          chunks: pieces,
          failAfterChunks: 5,
          error: "cut",
        }]),
    });
    const req = request("hi");
    await Array.fromAsync(rec.stream(req));
    await Array.fromAsync(rec.stream(req));
    const [done, cut] = (await Deno.readTextFile(path)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assertEquals(done.turn.chunks, ["hello ", "[REDACTED]", " bye", " end"]);
    assertEquals([cut.turn.chunks.length, cut.turn.failAfterChunks], [4, 4]);
    const player = cassette(path, { mode: "replay" });
    const replayed = await Array.fromAsync(player.stream(req));
    const text = replayed.flatMap((e) => e.type === "text_delta" ? [e.content] : []).join("");
    assertEquals(text, "hello [REDACTED] bye end");
  });
});

Deno.test("cassette() streams no generated secret, however the stream splits it (property)", async () => {
  await inDir(async (dir) => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        hiddenSecret,
        fc.array(fc.nat(), { maxLength: 6 }),
        async ({ text, secret }, cuts) => {
          const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...at].map((from, i) => text.slice(from, [...at, text.length][i]))
            .filter((c) => c !== "");
          const path = `${dir}/s_${n++}.jsonl`;
          const rec = cassette(path, {
            upstream: () => FakeLLM.script([{ chunks: chunks.length ? chunks : ["x"] }]),
          });
          await Array.fromAsync(rec.stream({ model: "m", messages: [] }));
          const written = await Deno.readTextFile(path);
          await Deno.remove(path);
          return !written.includes(secret);
        },
      ),
      { numRuns: 60 },
    );
  });
});

Deno.test("cassette() records a hostile provider's error through a real port with nothing of the key", async () => {
  const key = "gw-secret-key-31337";
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const sent = JSON.stringify(Object.fromEntries(new Headers(init?.headers)));
    return Promise.resolve(
      Response.json({ error: { message: `denied ${String(input)} ${sent}` } }, { status: 403 }),
    );
  };
  await inDir(async (dir) => {
    const path = `${dir}/hostile.jsonl`;
    const llm = cassette(path, {
      upstream: () =>
        new OpenAIChatLLM({
          apiKey: key,
          baseURL: "https://gw.example.com/v1?api_key=qk-55",
          headers: { "x-goog-api-key": "goog-77-value", cookie: "sid=cookie-9" },
          fetch,
        }),
    });
    await assertRejects(() => llm.chat(request("hi"), makeTestCtx()), ProviderResponseError);
    const written = await Deno.readTextFile(path);
    for (const s of [key, "qk-55", "goog-77-value", "cookie-9"]) {
      assertFalse(written.includes(s), `${s} was written:\n${written}`);
    }
    assertStringIncludes(written, '"status":403');
  });
});

Deno.test("cassette() writes no generated secret hidden in text (property)", async () => {
  await inDir(async (dir) => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(hiddenSecret, async ({ text, secret }) => {
        const path = `${dir}/p_${n++}.jsonl`;
        const llm = cassette(path, { upstream: () => new FakeLLM(`echo ${text}`) });
        await llm.chat({ model: "m", messages: [{ role: "user", content: text }] });
        const written = await Deno.readTextFile(path);
        await Deno.remove(path);
        return !written.includes(secret);
      }),
      { numRuns: 60 },
    );
  });
});

Deno.test("cassette()'s redact patterns mask every match whatever their flags, line after line", async () => {
  await inDir(async (dir) => {
    for (const flags of ["", "g", "y", "gy", "i", "iy"]) {
      const path = `${dir}/flags_${flags || "none"}.jsonl`;
      const pattern = new RegExp("T-\\d+", flags);
      const rec = cassette(path, { upstream: () => new FakeLLM("T-3 done"), redact: [pattern] });
      await rec.chat({ model: "m", messages: [{ role: "user", content: "T-1 and T-2" }] });
      await rec.chat({ model: "m", messages: [{ role: "user", content: "again T-9" }] });
      const written = await Deno.readTextFile(path);
      assertFalse(/T-\d/.test(written), `flags "${flags}" left a match: ${written}`);
      assertEquals(written.split("[REDACTED]").length - 1, 5, `flags "${flags}"`);
    }
  });
});

Deno.test("cassette() names its upstream when the factory makes no port", async (t) => {
  const cases: Array<[string, () => unknown, string]> = [
    ["nothing", () => undefined, "returned undefined, not"],
    ["null", () => null, "returned null, not"],
    ["a string", () => "gpt-4o", 'returned the string "gpt-4o", not'],
    ["a long string", () => "m".repeat(100), `returned the string "${"m".repeat(60)}", not`],
    ["a number", () => 4, "returned number 4, not"],
    ["an object without chat()", () => ({ stream() {} }), "returned an object, not"],
    ["an object without a prototype", () => Object.create(null), "returned an object, not"],
    ["a class instance without stream()", () =>
      new (class Half {
        chat() {}
      })(), "returned an instance of Half"],
    ["a promise", () => Promise.resolve(new FakeLLM("x")), "a Promise"],
    ["a function", () => () => new FakeLLM("x"), "returned a function"],
    ["an array", () => [], "returned an array"],
  ];
  await inDir(async (dir) => {
    for (const [name, factory, said] of cases) {
      await t.step(name, async () => {
        const llm = cassette(`${dir}/u.jsonl`, { upstream: factory as () => LLMPort });
        const e = await assertRejects(() => llm.chat(request("hi")), TypeError);
        assertStringIncludes(e.message, "cassette()'s upstream");
        assertStringIncludes(e.message, said);
        assertStringIncludes(e.message, "upstream: () => new OpenAIChatLLM()");
        const s = await assertRejects(() => Array.fromAsync(llm.stream(request("hi"))), TypeError);
        assertStringIncludes(s.message, "cassette()'s upstream");
      });
    }
  });
});

Deno.test("cassette() takes a port that is a function object with chat() and stream()", async () => {
  await inDir(async (dir) => {
    const inner = new FakeLLM("callable");
    const port = Object.assign(() => {}, {
      chat: inner.chat.bind(inner),
      stream: inner.stream.bind(inner),
    }) as unknown as LLMPort;
    const rec = cassette(`${dir}/f.jsonl`, { upstream: () => port });
    assertEquals((await rec.chat(request("hi"))).content, "callable");
  });
});

// The variables docs/frameworks.md promises are masked wherever their values appear.
const KEY_VARIABLES = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "AZURE_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GROQ_API_KEY",
  "MISTRAL_API_KEY",
  "OPENROUTER_API_KEY",
  "XAI_API_KEY",
  "DEEPSEEK_API_KEY",
  "TOGETHER_API_KEY",
  "FIREWORKS_API_KEY",
  "COHERE_API_KEY",
  "LITELLM_API_KEY",
  "LITELLM_MASTER_KEY",
  "VLLM_API_KEY",
  "HF_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
];

Deno.test("cassette() masks the value of every provider key variable, whatever its shape", async () => {
  const saved = KEY_VARIABLES.map((name) => [name, Deno.env.get(name)] as const);
  const value = (name: string) => `plain${name.toLowerCase().replace(/_/g, "")}`;
  try {
    for (const name of KEY_VARIABLES) Deno.env.set(name, value(name));
    await inDir(async (dir) => {
      const text = KEY_VARIABLES.map(value).join(" | ");
      const rec = cassette(`${dir}/env.jsonl`, { upstream: () => new FakeLLM(`echo ${text}`) });
      await rec.chat({ model: "m", messages: [{ role: "user", content: text }] });
      const written = await Deno.readTextFile(`${dir}/env.jsonl`);
      for (const name of KEY_VARIABLES) {
        assertFalse(written.includes(value(name)), `${name}'s value was written`);
      }
    });
  } finally {
    for (const [name, v] of saved) v === undefined ? Deno.env.delete(name) : Deno.env.set(name, v);
  }
});

Deno.test("cassette() masks a secret split across just two chunks", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/two.jsonl`;
    const rec = cassette(path, {
      upstream: () => FakeLLM.script([{ chunks: ["key sk-proj-Ab3d", "Ef6hIj9kLm2n"] }]),
    });
    await Array.fromAsync(rec.stream(request("hi")));
    const line = JSON.parse(await Deno.readTextFile(path));
    assertEquals(line.turn.content ?? line.turn.chunks, "key [REDACTED]");
  });
});

Deno.test("cassette() refuses a path that is not a non-empty string or a file: URL, at once", () => {
  for (
    const [path, said] of [
      [42, "number 42"],
      [undefined, "undefined"],
      [null, "null"],
      [{}, "an object"],
      ["", 'the string ""'],
      [["a.jsonl"], "an array"],
    ] as const
  ) {
    const e = assertThrows(
      () => cassette(path as unknown as string, { upstream: () => new FakeLLM("x") }),
      TypeError,
    );
    assertStringIncludes(e.message, "cassette() takes a file path");
    assertStringIncludes(e.message, `got ${said}`);
  }
  assertThrows(
    () => cassette(new URL("https://example.com/c.jsonl"), { mode: "replay" }),
    TypeError,
    "got the https: URL https://example.com/c.jsonl",
  );
});

Deno.test("cassette() takes a file: URL", async () => {
  await inDir(async (dir) => {
    const url = new URL(`file://${dir}/u.jsonl`);
    const rec = cassette(url, { upstream: () => new FakeLLM("ok") });
    await rec.chat(request("hi"));
    assert((await Deno.stat(url)).isFile);
    assertEquals(rec.path, `${dir}/u.jsonl`);
  });
});
