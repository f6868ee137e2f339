// A credential given to the package by any entry (a port's key or header, an
// MCP provider's `secrets` or its transport's headers, a provider key
// variable, a cassette's upstream port) never appears in anything the package
// writes or shows: a port's error, transcript(), a tool result on its way to
// the model, McpToolsUnavailable, a cassette file, a ChaosFailure's message,
// transcript and reproduction, an evaluation's report. The secrets have no vendor shape: they are
// masked because they were registered, not because they look like keys.
import {
  assert,
  assertEquals,
  assertFalse,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import fc from "fast-check";
import { toolCall } from "@agentkit/testing/ports";
import {
  Agent,
  AnthropicLLM,
  GeminiLLM,
  McpToolProvider,
  OpenAIChatLLM,
  OpenAIResponsesLLM,
  ReActCognition,
} from "@agentkit/testing/runtime";
import {
  AgentTest,
  cassette,
  chaos,
  ChaosFailure,
  EvaluationFailed,
  FakeLLM,
  FakeProvider,
  FakeTool,
  makeTestCtx,
  transcript,
} from "@agentkit/testing/testing";
import { MIN_SECRET_LENGTH, registerSecret } from "@agentkit/testing/runtime";
import { redactText } from "../runtime/internal.ts";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

// A bare token of MIN_SECRET_LENGTH characters or more: letters, five
// digits, then anything a header may carry. The digits keep it from being a
// word of the package's own fixed text.
const SECRET = fc.tuple(
  fc.stringMatching(/^[a-z]{3,8}$/),
  fc.integer({ min: 10_000, max: 99_999 }),
  fc.stringMatching(/^[A-Za-z0-9_.~-]{0,24}$/),
).map(([a, n, b]) => `${a}${n}${b}`);

// Answers every request with a provider error quoting `secret`.
const echoingError = (secret: string): Fetch => () =>
  Promise.resolve(
    Response.json({ error: { message: `invalid credential ${secret}` } }, { status: 400 }),
  );

const mcpClient = (secret: string, headers?: Record<string, string>) => ({
  listTools: () =>
    Promise.resolve({ tools: [{ name: "whoami", inputSchema: { type: "object" as const } }] }),
  callTool: () => Promise.resolve({ content: [{ type: "text", text: `you sent ${secret}` }] }),
  ...(headers ? { transport: { _requestInit: { headers } } } : {}),
});

/** The entries: each hands the package `secret` once, as a user would. */
const ENTRIES: Record<string, (secret: string) => void | Promise<void>> = {
  "OpenAIChatLLM apiKey": (s) => void new OpenAIChatLLM({ apiKey: s, fetch: echoingError("") }),
  "OpenAIResponsesLLM headers": (s) =>
    void new OpenAIResponsesLLM({
      apiKey: "sk-test",
      headers: { "x-org": s },
      fetch: echoingError(""),
    }),
  "AnthropicLLM headers": (s) =>
    void new AnthropicLLM({ headers: { "x-gateway": s }, fetch: echoingError("") }),
  "GeminiLLM headers (a Headers)": (s) =>
    void new GeminiLLM({ apiKey: "AIza-test", headers: new Headers({ "x-proxy": s }) }),
  "McpToolProvider secrets": (s) => void new McpToolProvider(mcpClient(""), { secrets: [s] }),
  "MCP transport headers": (s) =>
    void new McpToolProvider(mcpClient("", { authorization: `Bearer ${s}` })),
  "OPENAI_API_KEY": (s) => {
    const before = Deno.env.get("OPENAI_API_KEY");
    Deno.env.set("OPENAI_API_KEY", s);
    try {
      new OpenAIChatLLM({ fetch: echoingError("") });
    } finally {
      if (before === undefined) Deno.env.delete("OPENAI_API_KEY");
      else Deno.env.set("OPENAI_API_KEY", before);
    }
  },
  "cassette upstream GeminiLLM": async (s) => {
    const dir = await Deno.makeTempDir({ prefix: "secrets_" });
    try {
      const provider = new FakeProvider({ llm: new FakeLLM("ok") });
      const llm = cassette(`${dir}/c.jsonl`, {
        mode: "record",
        upstream: () => new GeminiLLM({ apiKey: s, fetch: provider.fetch }),
      });
      await llm.chat({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }] });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
};

/** Everything the package writes or shows that could carry `secret`. */
async function outputs(secret: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  // A tool that returns it, and a model that repeats it.
  const tool = new FakeTool({ name: "lookup", responder: `the key is ${secret}` });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup", { q: secret })] },
    { content: `done with ${secret}` },
  ]);
  const agent = new Agent("a", {
    model: "m",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const result = await agent.run(`use ${secret}`, makeTestCtx({ llm }));
  out["transcript()"] = transcript(result.messages);
  out["tool result to the model"] = JSON.stringify(llm.requests[1].messages.at(-1));
  // A port's error quoting it.
  const port = new OpenAIChatLLM({ apiKey: "sk-test", fetch: echoingError(secret) });
  const error = await assertRejects(() =>
    port.chat({ model: "m", messages: [{ role: "user", content: "hi" }] })
  );
  out["port error"] = `${(error as Error).message}\n${(error as Error).stack}`;
  // An MCP server echoing it, and one failing with it.
  const mcp = new McpToolProvider(mcpClient(secret));
  const [called] = await mcp.executeToolCalls(
    [toolCall("c1", "whoami", {})],
    makeTestCtx(),
  );
  out["MCP tool result"] = called.content;
  const failing = new McpToolProvider({
    listTools: () => Promise.reject(new Error(`401 for token ${secret}`)),
    callTool: () => Promise.resolve({ content: [] }),
  });
  out["McpToolsUnavailable"] =
    (await assertRejects(() => Promise.resolve(failing.listTools())) as Error).message;
  const malformed = new McpToolProvider({
    listTools: () => Promise.resolve({ tools: "none", token: secret } as never),
    callTool: () => Promise.resolve({ content: [] }),
  });
  out["McpToolsUnavailable (a malformed listing)"] =
    (await assertRejects(() => Promise.resolve(malformed.listTools())) as Error).message;
  // A cassette recording a model that repeats it.
  const dir = await Deno.makeTempDir({ prefix: "secrets_" });
  try {
    const provider = new FakeProvider({ llm: new FakeLLM(`the key: ${secret}`) });
    const rec = cassette(`${dir}/c.jsonl`, {
      mode: "record",
      upstream: () => new OpenAIChatLLM({ apiKey: "sk-test", fetch: provider.fetch }),
    });
    await rec.chat({ model: "m", messages: [{ role: "user", content: `say ${secret}` }] });
    out["cassette file"] = await Deno.readTextFile(`${dir}/c.jsonl`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // A chaos run whose scripted error quotes it.
  const failure = await assertRejects(
    () =>
      chaos((w) => new Agent("a", { model: "m" }).run("q", w.ctx()), {
        script: [{ error: new Error(`upstream refused ${secret}`) }],
        runs: 1,
        seed: 1,
        maxFaults: 0,
        skip: ["typedFailure"],
        invariants: { mine: () => Promise.reject(new Error(`saw ${secret}`)) },
      }),
    ChaosFailure,
  );
  out["ChaosFailure.message"] = failure.message;
  out["ChaosFailure.transcript"] = failure.transcript;
  out["ChaosFailure.reproduction"] = failure.reproduction;
  // An evaluation's report.
  const report = await assertRejects(
    () => AgentTest.compare(`the key is ${secret}`, ["no key"], { mode: "score", config: false }),
    EvaluationFailed,
  );
  out["EvaluationFailed report"] = report.message;
  return out;
}

Deno.test("a secret given through any entry never appears in any output (property)", async () => {
  const names = Object.keys(ENTRIES);
  await fc.assert(
    fc.asyncProperty(SECRET, fc.constantFrom(...names), async (secret, entry) => {
      await ENTRIES[entry](secret);
      const leaked = Object.entries(await outputs(secret))
        .filter(([, text]) => text.includes(secret))
        .map(([where]) => where);
      assertEquals(leaked, [], `${entry}: ${secret} leaked into ${leaked.join(", ")}`);
    }),
    { numRuns: 14 },
  );
});

Deno.test("the registry masks what it was given verbatim, and nothing shorter than its minimum", () => {
  const secret = "plainbearer42token";
  registerSecret(secret);
  assertEquals(redactText(`x ${secret} y`), "x [REDACTED] y");
  // Its forms in a URL and in JSON text.
  registerSecret('p@ss/wo rd"99');
  assertEquals(redactText("u?k=p%40ss%2Fwo%20rd%2299"), "u?k=[REDACTED]");
  assertEquals(redactText('{"v":"p@ss/wo rd\\"99"}'), '{"v":"[REDACTED]"}');
  // Below the minimum: ignored, so "abc" does not blank every "abc".
  assertEquals(MIN_SECRET_LENGTH, 8);
  registerSecret("abc");
  registerSecret("1234567");
  assertEquals(redactText("abc 1234567 abcdef"), "abc 1234567 abcdef");
});

Deno.test("McpToolProvider masks its secrets and its SDK transport's headers in tool results", async () => {
  const client = {
    ...mcpClient("echo t0ken-from-secrets and s3cret-header-value"),
    transport: { _requestInit: { headers: new Headers({ "x-api-key": "s3cret-header-value" }) } },
  };
  const mcp = new McpToolProvider(client, { secrets: ["t0ken-from-secrets"] });
  const [r] = await mcp.executeToolCalls([toolCall("c1", "whoami", {})], makeTestCtx());
  assertEquals(r.content, "you sent echo [REDACTED] and [REDACTED]");
});

Deno.test("a port's Headers object is sent, and its values masked", async () => {
  const seen: Headers[] = [];
  const fetch: Fetch = (_input, init) => {
    seen.push(new Headers(init?.headers));
    return Promise.resolve(
      Response.json({ error: { message: "no: via-headers-obj-77" } }, { status: 400 }),
    );
  };
  const llm = new OpenAIChatLLM({
    apiKey: "sk-test",
    headers: new Headers({ "x-route": "via-headers-obj-77" }),
    fetch,
  });
  const error = await assertRejects(() =>
    llm.chat({ model: "m", messages: [{ role: "user", content: "hi" }] })
  ) as Error;
  assertEquals(seen[0].get("x-route"), "via-headers-obj-77");
  assertFalse(error.message.includes("via-headers-obj-77"));
  assertStringIncludes(error.message, "[REDACTED]");
  assert(seen[0].get("authorization")?.startsWith("Bearer "));
});
