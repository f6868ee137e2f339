import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  type ChatRequest,
  type Ctx,
  type LLMPort,
  RateLimitError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import { Agent, OpenAIChatLLM, ReActCognition, retry } from "@agentkit/testing/runtime";
import {
  cassette,
  CassetteMismatch,
  FakeClock,
  FakeLLM,
  FakeProvider,
  FakeTool,
  InvalidScript,
  makeTestCtx,
  UnusedTurns,
} from "@agentkit/testing/testing";

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "cassette_test_" });
}

function lines(path: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(path).trim().split("\n").map((l) => JSON.parse(l));
}

const ask = (content: string): ChatRequest => ({
  model: "fake-model",
  messages: [{ role: "user", content }],
});

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

Deno.test("cassette() records a tool loop once, then replays it without the upstream", async () => {
  const dir = await tempDir();
  const path = `${dir}/loop.jsonl`;
  const script = () =>
    FakeLLM.script([
      {
        toolCalls: [toolCall("c1", "lookup", { host: "a" })],
        usage: { inputTokens: 5, outputTokens: 2 },
      },
      { chunks: ["It is ", "42."], usage: { inputTokens: 9, outputTokens: 3 } },
    ]);
  const run = async (llm: LLMPort) => {
    const tool = new FakeTool({ name: "lookup", responder: "42" });
    const agent = new Agent("a", {
      model: "fake-model",
      cognition: new ReActCognition({ tools: [tool] }),
    });
    return await agent.run("What is a?", makeTestCtx({ llm }));
  };
  let built = 0;
  const upstream = () => {
    built++;
    return script();
  };
  {
    await using recorder = cassette(path, { upstream });
    assertEquals(recorder.mode, "record");
    assertEquals((await run(recorder)).output, "It is 42.");
  }
  assertEquals(built, 1);
  const recorded = lines(path);
  assertEquals(recorded.length, 2);
  assertEquals(recorded[0].turn, {
    toolCalls: [{ id: "c1", name: "lookup", args: { host: "a" } }],
    usage: { inputTokens: 5, outputTokens: 2 },
  });
  assertEquals((recorded[1].request as { messages: unknown[] }).messages.at(-1), {
    role: "tool",
    content: "42",
    toolCallId: "c1",
  });
  {
    await using player = cassette(path, { upstream });
    assertEquals(player.mode, "replay");
    const result = await run(player);
    assertEquals(result.output, "It is 42.");
    assertEquals(result.usage, { inputTokens: 14, outputTokens: 5 });
    assertEquals(player.calls, 2);
  }
  assertEquals(built, 1, "a replay never builds the upstream port");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cassette() keeps streamed chunks, tool calls and usage, and replays them as a stream", async () => {
  const dir = await tempDir();
  const path = `${dir}/stream.jsonl`;
  const turn = {
    chunks: ["Hel", "lo"],
    toolCalls: [toolCall("c9", "t", { x: 1 })],
    usage: { inputTokens: 4, outputTokens: 2, cachedInputTokens: 1 },
  };
  const recordedEvents = await (async () => {
    await using rec = cassette(path, { upstream: () => FakeLLM.script([turn]) });
    return await drain(rec.stream(ask("hi")));
  })();
  assertEquals(lines(path)[0].turn, turn);
  await using player = cassette(path);
  const replayed = await drain(player.stream(ask("hi")));
  const shape = (events: StreamEvent[]) =>
    events.map((e) => e.type === "message_start" ? e.type : { ...e, messageId: undefined });
  assertEquals(shape(replayed), shape(recordedEvents));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cassette() replay fails with CassetteMismatch at the first differing field", async (t) => {
  const dir = await tempDir();
  const path = `${dir}/m.jsonl`;
  {
    await using rec = cassette(path, { upstream: () => new FakeLLM("ok") });
    await rec.chat(ask("What is the weather in Oslo?"));
  }
  await t.step("a changed message", async () => {
    const player = cassette(path, { mode: "replay" });
    const error = await assertRejects(
      () => player.chat(ask("What is the weather in Bergen?")),
      CassetteMismatch,
    );
    assertEquals(error.field, "messages[0].content");
    assertEquals(error.recorded, "What is the weather in Oslo?");
    assertEquals(error.actual, "What is the weather in Bergen?");
    assertStringIncludes(
      error.message,
      "request 1 differs from the recording at messages[0].content",
    );
    assertStringIncludes(error.message, "AGENTKIT_CASSETTE=record deno test");
    assertThrows(() => player.verify(), CassetteMismatch, "Bergen");
  });
  await t.step("a changed model and added tools", async () => {
    const player = cassette(path, { mode: "replay" });
    const error = await assertRejects(
      () => player.chat({ ...ask("What is the weather in Oslo?"), model: "other-model" }),
      CassetteMismatch,
    );
    assertEquals([error.field, error.recorded, error.actual], [
      "model",
      "fake-model",
      "other-model",
    ]);
    const again = cassette(path, { mode: "replay" });
    const tools = [{ name: "t", description: "", parameters: {} }];
    const e2 = await assertRejects(
      () => again.chat({ ...ask("What is the weather in Oslo?"), tools }),
      CassetteMismatch,
    );
    assertEquals(e2.field, "tools");
  });
  await t.step("one request more than recorded", async () => {
    const player = cassette(path, { mode: "replay" });
    await player.chat(ask("What is the weather in Oslo?"));
    await assertRejects(
      () => player.chat(ask("And tomorrow?")),
      CassetteMismatch,
      "request 2 has no recording: the cassette holds 1 interaction(s)",
    );
  });
  await t.step("replay of a missing file", () => {
    const e = assertThrows(
      () => cassette(`${dir}/missing.jsonl`, { mode: "replay" }),
      CassetteMismatch,
      "does not exist and the mode is replay",
    );
    // It says how to record the file, never to delete the file that is not there.
    assertEquals(e.message.includes("delete"), false, e.message);
    assertStringIncludes(e.message, "AGENTKIT_CASSETTE=record deno test");
    assertStringIncludes(e.message, '{ mode: "once" }');
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cassette(): AGENTKIT_CASSETTE overrides the mode", async (t) => {
  const dir = await tempDir();
  const path = `${dir}/env.jsonl`;
  try {
    await t.step("record re-records over a replay", async () => {
      Deno.writeTextFileSync(
        path,
        JSON.stringify({ request: ask("hi"), turn: { content: "old" } }) + "\n",
      );
      Deno.env.set("AGENTKIT_CASSETTE", "record");
      const rec = cassette(path, { mode: "replay", upstream: () => new FakeLLM("new") });
      assertEquals(rec.mode, "record");
      assertEquals((await rec.chat(ask("hi"))).content, "new");
      assertEquals(lines(path).map((l) => l.turn), [{
        content: "new",
        usage: { inputTokens: 10, outputTokens: 0 },
      }]);
    });
    await t.step("replay forbids recording", () => {
      Deno.env.set("AGENTKIT_CASSETTE", "replay");
      assertThrows(() => cassette(`${dir}/none.jsonl`), CassetteMismatch, "does not exist");
    });
    await t.step("a bad value is an error", () => {
      Deno.env.set("AGENTKIT_CASSETTE", "rec");
      assertThrows(
        () => cassette(path),
        TypeError,
        'AGENTKIT_CASSETTE must be one of once, replay, newEpisodes, record, got "rec"',
      );
    });
  } finally {
    Deno.env.delete("AGENTKIT_CASSETTE");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cassette() never writes a credential; redact masks more", async () => {
  const dir = await tempDir();
  const path = `${dir}/secret.jsonl`;
  const key = "sk-test-0123456789abcdefSECRET";
  const seen: ChatRequest[] = [];
  // An upstream that, like a real port, holds a key and sends it as a header.
  const upstream = (): LLMPort => {
    const inner = new FakeLLM(`Your key ends in ${key.slice(-6)}; the ticket is T-4711.`);
    return {
      chat: (req, ctx) => {
        seen.push(req);
        const headers = { authorization: `Bearer ${key}` };
        assert(headers.authorization.includes(key));
        return inner.chat(req, ctx);
      },
      stream: (req, ctx) => inner.stream(req, ctx),
      complete: (req, ctx) => inner.complete(req, ctx),
    };
  };
  const request: ChatRequest = {
    model: "fake-model",
    messages: [
      { role: "system", content: `Use the key ${key} and the token Bearer abcdefgh12345678.` },
      { role: "user", content: "Which ticket, T-4711?" },
    ],
  };
  {
    await using rec = cassette(path, { upstream, redact: ["T-4711", /SECRET/] });
    await rec.chat(request);
  }
  assertEquals(seen.length, 1);
  const text = Deno.readTextFileSync(path);
  for (const secret of [key, "abcdefgh12345678", "T-4711", "SECRET"]) {
    assert(!text.includes(secret), `${secret} was written: ${text}`);
  }
  assertStringIncludes(text, "[REDACTED]");
  assert(!/authorization|header/i.test(text));
  // The masked recording still matches the live request on replay.
  await using player = cassette(path, { mode: "replay", redact: ["T-4711", /SECRET/] });
  assertStringIncludes((await player.chat(request)).content, "[REDACTED]");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cassette() of a malformed file fails with InvalidScript naming the line", async (t) => {
  const dir = await tempDir();
  const good = JSON.stringify({ request: ask("hi"), turn: { content: "ok" } });
  await t.step("not JSON", () => {
    const path = `${dir}/a.jsonl`;
    Deno.writeTextFileSync(path, `${good}\n{"request": {"model": "m", "messa\n`);
    assertThrows(() => cassette(path), InvalidScript, `${path} line 2 is not JSON`);
  });
  await t.step("a hand-broken turn", () => {
    const path = `${dir}/b.jsonl`;
    const broken = JSON.stringify({ request: ask("hi"), turn: { tool_calls: [] } });
    Deno.writeTextFileSync(path, `${good}\n\n${broken}\n`);
    assertThrows(
      () => cassette(path),
      InvalidScript,
      `unknown key "tool_calls" in ${path} line 3 turn; did you mean "toolCalls"?`,
    );
  });
  await t.step("a line without its request", () => {
    const path = `${dir}/c.jsonl`;
    Deno.writeTextFileSync(path, JSON.stringify({ turn: { content: "ok" } }) + "\n");
    assertThrows(() => cassette(path), InvalidScript, `${path} line 1 request`);
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cassette() records a 429 as a fault and replays it as a RateLimitError retry() waits out", async () => {
  const dir = await tempDir();
  const path = `${dir}/fault.jsonl`;
  const agent = new Agent("a", { model: "fake-model" });
  const runWith = async (llm: LLMPort) => {
    const clock = new FakeClock();
    const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry({ maxAttempts: 3 })] });
    const result = await agent.run("go", ctx);
    return { output: result.output, slept: clock.now() };
  };
  const limited = () =>
    FakeLLM.script(["Done."], {
      failTimes: 1,
      failWith: new RateLimitError("slow down", { retryAfterMs: 2_000 }),
    });
  {
    await using rec = cassette(path, { upstream: limited });
    assertEquals((await runWith(rec)).output, "Done.");
  }
  const recorded = lines(path);
  assertEquals(recorded.length, 2);
  assertEquals(recorded[0].turn, { error: "slow down" });
  assertEquals(recorded[0].fault, {
    class: "RateLimitError",
    phase: "pre_stream",
    retryable: true,
    retryAfterMs: 2_000,
  });
  await using player = cassette(path);
  const replay = await runWith(player);
  assertEquals(replay.output, "Done.");
  assert(replay.slept >= 2_000, `retry() waited the recorded retry-after (${replay.slept} ms)`);
  const direct = cassette(path);
  const error = await direct.chat(ask("go")).catch((e) => e);
  assertInstanceOf(error, RateLimitError);
  assertEquals(error.retryAfterMs, 2_000);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cassette() records a stream cut mid-way with what it billed", async () => {
  const dir = await tempDir();
  const path = `${dir}/cut.jsonl`;
  const cut = {
    chunks: ["I will ", "read"],
    failAfterChunks: 2,
    finishReason: "length" as const,
    error: "Hit max tokens",
    usage: { inputTokens: 100, outputTokens: 7 },
  };
  {
    await using rec = cassette(path, { upstream: () => FakeLLM.script([cut]) });
    await drain(rec.stream(ask("go")));
  }
  assertEquals(lines(path)[0].turn, cut);
  await using player = cassette(path);
  const events = await drain(player.stream(ask("go")));
  const last = events.at(-1)!;
  if (last.type !== "error") throw new Error(`expected an error event, got ${last.type}`);
  assertEquals([last.finishReason, last.usage, last.error.message], [
    "length",
    cut.usage,
    "Hit max tokens",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cassette() verify() and disposal report recorded turns the replay never used", async () => {
  const dir = await tempDir();
  const path = `${dir}/unused.jsonl`;
  const line = JSON.stringify({ request: ask("hi"), turn: { content: "ok" } });
  Deno.writeTextFileSync(path, `${line}\n${line}\n`);
  const player = cassette(path);
  await player.chat(ask("hi"));
  assertThrows(() => player.verify(), UnusedTurns, "has 2 turn(s), but the run used only 1");
  await assertRejects(() => player[Symbol.asyncDispose](), UnusedTurns);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cassette() records under a test context: the upstream port is allowed real requests", async () => {
  const dir = await tempDir();
  const path = `${dir}/allowed.jsonl`;
  const allowed: Array<boolean | undefined> = [];
  const inner = new FakeLLM("ok");
  const upstream = (): LLMPort => ({
    chat: (req, ctx) => {
      allowed.push((ctx as Ctx & { allowModelRequests?: boolean }).allowModelRequests);
      ctx?.checkCancelled();
      return inner.chat(req, ctx);
    },
    stream: (req, ctx) => inner.stream(req, ctx),
    complete: (req, ctx) => inner.complete(req, ctx),
  });
  const base = makeTestCtx({});
  const ctx = new Proxy(base, {
    get: (t, k) => k === "allowModelRequests" ? false : Reflect.get(t, k, t),
  }) as Ctx;
  {
    await using rec = cassette(path, { upstream });
    await rec.chat(ask("hi"), ctx);
  }
  assertEquals(allowed, [true]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cassette() checks its options where they are given", () => {
  assertThrows(
    () => cassette("x.jsonl", { mdoe: "replay" } as never),
    TypeError,
    'unknown option "mdoe"; did you mean "mode"?',
  );
  assertThrows(
    () => cassette("x.jsonl", { mode: "rewind" } as never),
    TypeError,
    'option "mode" must be one of "once", "replay", "newEpisodes", "record", got "rewind"',
  );
  assertThrows(
    () => cassette("x.jsonl", { upstream: new FakeLLM("x") } as never),
    TypeError,
    'option "upstream" must be a function that makes the real port',
  );
  assertThrows(() => cassette("x.jsonl", { redact: "key" } as never), TypeError, 'option "redact"');
  assertThrows(
    () => cassette(`/nonexistent-${crypto.randomUUID()}.jsonl`),
    TypeError,
    "without upstream",
  );
});

Deno.test("cassette() records through OpenAIChatLLM on a FakeProvider: no key, no header in the file", async () => {
  const dir = await tempDir();
  const path = `${dir}/openai.jsonl`;
  const key = "sk-proj-THISKEYMUSTNEVERBEWRITTEN0123";
  const script = FakeLLM.script([
    {
      toolCalls: [toolCall("call_1", "lookup", { host: "a" })],
      usage: { inputTokens: 20, outputTokens: 4 },
    },
    {
      chunks: ["It is ", "42."],
      usage: { inputTokens: 30, outputTokens: 3, cachedInputTokens: 10 },
    },
  ]);
  const provider = new FakeProvider({ llm: script });
  const upstream = () =>
    new OpenAIChatLLM({
      apiKey: key,
      baseURL: "https://api.openai.com/v1",
      fetch: provider.fetch,
      headers: { "OpenAI-Organization": "org-secret-team" },
    });
  const run = async (llm: LLMPort) => {
    const tool = new FakeTool({ name: "lookup", responder: "42" });
    const agent = new Agent("a", {
      model: "gpt-4o-mini",
      cognition: new ReActCognition({ tools: [tool] }),
    });
    return await agent.run(`What is a? My key is ${key}.`, makeTestCtx({ llm }));
  };
  {
    await using rec = cassette(path, { upstream });
    assertEquals((await run(rec)).output, "It is 42.");
  }
  // The key went over the wire (the provider saw the header, masked in its record)...
  assertEquals(provider.requests[0].headers.authorization, "Bearer ***");
  // ...and into the prompt, but never into the cassette.
  const text = Deno.readTextFileSync(path);
  for (const secret of [key, "org-secret-team", "Bearer", "authorization"]) {
    assert(!text.toLowerCase().includes(secret.toLowerCase()), `${secret} was written`);
  }
  assertEquals(lines(path).length, 2);
  script.verify();
  // The replay needs neither the provider nor the key.
  await using player = cassette(path, { mode: "replay" });
  const result = await run(player);
  assertEquals(result.output, "It is 42.");
  assertEquals(result.usage, { inputTokens: 50, outputTokens: 7, cachedInputTokens: 10 });
  await Deno.remove(dir, { recursive: true });
});
