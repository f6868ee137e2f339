// What a recording cassette writes (every provider failure as its class, a
// stream cut or abandoned mid-way, the file itself) and what the replay of
// that file gives back.
import {
  assert,
  assertEquals,
  assertFalse,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  type ChatRequest,
  type ChatResponse,
  type Ctx,
  type LLMPort,
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import { cassette, CassetteMismatch, FakeLLM } from "@agentkit/testing/testing";

const ask = (content: string): ChatRequest => ({
  model: "fake-model",
  messages: [{ role: "user", content }],
});

function lines(path: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(path).trim().split("\n").map((l) => JSON.parse(l));
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

async function inDir(body: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cassette_record_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// An upstream whose chat() fails with `error` (or answers, for `undefined`),
// one call after another.
function failing(...errors: Array<Error | undefined>): () => LLMPort {
  return () => {
    const inner = new FakeLLM("fine");
    let i = 0;
    return {
      chat: (req, ctx) => {
        const error = errors[i++];
        return error ? Promise.reject(error) : inner.chat(req, ctx);
      },
      stream: (req, ctx) => inner.stream(req, ctx),
      complete: (req, ctx) => inner.complete(req, ctx),
    };
  };
}

// An upstream whose stream() yields `events` and then throws `error`.
function streaming(events: StreamEvent[], error?: Error): () => LLMPort {
  return () => ({
    chat: () => Promise.reject(new Error("stream only")),
    async *stream() {
      for (const e of events) yield e;
      if (error) throw error;
    },
    complete: () => Promise.reject(new Error("stream only")),
  });
}

async function recordFailure(dir: string, error: Error): Promise<Record<string, unknown>> {
  const path = `${dir}/${crypto.randomUUID()}.jsonl`;
  const rec = cassette(path, { upstream: failing(error) });
  assertEquals(await rec.chat(ask("go")).catch((e) => e), error);
  return lines(path)[0];
}

async function replayError(path: string): Promise<ProviderError> {
  const error = await cassette(path).chat(ask("go")).catch((e) => e);
  assertInstanceOf(error, ProviderError);
  return error;
}

Deno.test("cassette() records every provider failure as its class and replays it as one", async (t) => {
  await inDir(async (dir) => {
    await t.step("ProviderTimeoutError", async () => {
      const line = await recordFailure(dir, new ProviderTimeoutError("upstream timeout"));
      assertEquals(line.fault, {
        class: "ProviderTimeoutError",
        phase: "pre_stream",
        retryable: true,
      });
    });
    await t.step("ProviderResponseError, with status, usage and finish reason", async () => {
      const usage = { inputTokens: 7, outputTokens: 1 };
      const error = new ProviderResponseError("refused", {
        retryable: true,
        status: 400,
        usage,
        finishReason: "content_filter",
      });
      const line = await recordFailure(dir, error);
      assertEquals(line.fault, {
        class: "ProviderResponseError",
        phase: "pre_stream",
        retryable: true,
        status: 400,
      });
      assertEquals(line.turn, { usage, finishReason: "content_filter", error: "refused" });
    });
    await t.step("a plain ProviderError with its status", async () => {
      const line = await recordFailure(dir, new ProviderError("bad gateway", { status: 502 }));
      assertEquals(line.fault, {
        class: "ProviderError",
        phase: "pre_stream",
        retryable: false,
        status: 502,
      });
    });
    await t.step("a failure the provider marked mid-stream, on a blocking call", async () => {
      const error = new ProviderError("reset", { phase: "mid_stream", retryable: true });
      const line = await recordFailure(dir, error);
      assertEquals((line.fault as { phase: string }).phase, "mid_stream");
      assertEquals(line.turn, { failAfterChunks: 0, error: "reset" });
    });
  });
  const replay = async (line: Record<string, unknown>) => {
    let error: ProviderError | undefined;
    await inDir(async (dir) => {
      const path = `${dir}/r.jsonl`;
      await Deno.writeTextFile(path, JSON.stringify({ request: ask("go"), ...line }) + "\n");
      error = await replayError(path);
    });
    return error!;
  };
  await t.step("replayed: a timeout is retryable unless the line says otherwise", async () => {
    const fault = { class: "ProviderTimeoutError", phase: "pre_stream" };
    const error = await replay({ turn: { error: "slow" }, fault });
    assertInstanceOf(error, ProviderTimeoutError);
    assertEquals([error.message, error.retryable], ["slow", true]);
    const no = await replay({ turn: { error: "slow" }, fault: { ...fault, retryable: false } });
    assertEquals(no.retryable, false);
  });
  await t.step("replayed: a response error keeps status, usage, finish reason", async () => {
    const usage = { inputTokens: 7, outputTokens: 1 };
    const error = await replay({
      turn: { error: "refused", usage, finishReason: "content_filter" },
      fault: { class: "ProviderResponseError", phase: "pre_stream", retryable: true, status: 400 },
    });
    assertInstanceOf(error, ProviderResponseError);
    assertEquals(
      [error.retryable, error.status, error.usage, error.finishReason, error.phase],
      [true, 400, usage, "content_filter", "pre_stream"],
    );
  });
  await t.step("replayed: a plain ProviderError stays plain", async () => {
    const error = await replay({
      turn: { error: "bad gateway" },
      fault: { class: "ProviderError", phase: "pre_stream", retryable: true, status: 502 },
    });
    assertEquals([error.name, error.retryable, error.status], ["ProviderError", true, 502]);
    assertFalse(error instanceof ProviderResponseError);
  });
  await t.step("replayed: a mid-stream failure keeps its phase", async () => {
    const error = await replay({
      turn: { failAfterChunks: 0, error: "reset" },
      fault: { class: "ProviderError", phase: "mid_stream", retryable: true },
    });
    assertEquals(error.phase, "mid_stream");
  });
});

Deno.test("cassette() records no failure that is not the provider's, and keeps earlier lines", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/bug.jsonl`;
    const bug = new TypeError("a bug in the port");
    const rec = cassette(path, { upstream: failing(bug) });
    assertEquals(await rec.chat(ask("go")).catch((e) => e), bug);
    assertThrows(() => Deno.statSync(path), Deno.errors.NotFound);

    const two = `${dir}/two.jsonl`;
    const rec2 = cassette(two, { upstream: failing(undefined, new ProviderError("down")) });
    await rec2.chat(ask("one"));
    await assertRejects(() => rec2.chat(ask("two")), ProviderError, "down");
    assertEquals(lines(two).map((l) => (l.turn as { error?: string }).error), [undefined, "down"]);
    assertEquals(rec2.size, 2);
  });
});

Deno.test("cassette() records a blocking answer's finish reason and model, and replays them", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/answer.jsonl`;
    const upstream = () =>
      FakeLLM.script([
        { content: "Trunc", finishReason: "length", model: "fake-model-2026-01" },
        { content: "Same", model: "fake-model" },
      ]);
    {
      await using rec = cassette(path, { upstream });
      await rec.chat(ask("one"));
      await rec.chat(ask("two"));
    }
    const [first, second] = lines(path).map((l) => l.turn as Record<string, unknown>);
    assertEquals([first.finishReason, first.model], ["length", "fake-model-2026-01"]);
    assertEquals(["finishReason" in second, "model" in second], [false, false]);
    await using player = cassette(path);
    const replayed: ChatResponse = await player.chat(ask("one"));
    assertEquals([replayed.finishReason, replayed.model], ["length", "fake-model-2026-01"]);
    assertEquals((await player.chat(ask("two"))).model, "fake-model");
  });
});

Deno.test("cassette() records streams: one chunk as content, failures with their phase", async (t) => {
  await inDir(async (dir) => {
    await t.step("a one-chunk answer is recorded as content", async () => {
      const path = `${dir}/one.jsonl`;
      const usage = { inputTokens: 2, outputTokens: 1 };
      {
        await using rec = cassette(path, {
          upstream: () => FakeLLM.script([{ chunks: ["Hi"], usage }]),
        });
        await drain(rec.stream(ask("hi")));
      }
      assertEquals(lines(path)[0].turn, { content: "Hi", usage });
      await using player = cassette(path);
      const text = (await drain(player.stream(ask("hi"))))
        .flatMap((e) => e.type === "text_delta" ? [e.content] : []);
      assertEquals(text, ["Hi"]);
    });
    await t.step("a tool call alone records no content", async () => {
      const path = `${dir}/tool.jsonl`;
      const call = toolCall("c1", "t", {});
      const usage = { inputTokens: 2, outputTokens: 1 };
      {
        await using rec = cassette(path, {
          upstream: () => FakeLLM.script([{ toolCalls: [call], usage }]),
        });
        await drain(rec.stream(ask("hi")));
      }
      assertEquals(lines(path)[0].turn, { toolCalls: [call], usage });
    });
    await t.step("a stream refused before its first event replays as a throw", async () => {
      const path = `${dir}/pre.jsonl`;
      const limited = () =>
        FakeLLM.script(["late"], {
          failTimes: 1,
          failWith: new RateLimitError("slow down", { retryAfterMs: 50 }),
        });
      {
        const rec = cassette(path, { upstream: limited });
        await assertRejects(() => drain(rec.stream(ask("go"))), RateLimitError);
      }
      assertEquals(lines(path).map(({ request, turn, fault }) => ({ request, turn, fault })), [{
        request: ask("go"),
        turn: { error: "slow down" },
        fault: { class: "RateLimitError", phase: "pre_stream", retryable: true, retryAfterMs: 50 },
      }]);
      const seen: StreamEvent[] = [];
      const error = await (async () => {
        for await (const e of cassette(path).stream(ask("go"))) seen.push(e);
      })().catch((e) => e);
      assertInstanceOf(error, RateLimitError);
      assertEquals(seen, [], "no event before the failure");
    });
    await t.step("a stream that throws after events records what came, mid-stream", async () => {
      const path = `${dir}/mid.jsonl`;
      const call = toolCall("c1", "t", { q: 1 });
      const upstream = streaming([
        { type: "message_start", messageId: "m" },
        { type: "text_delta", messageId: "m", content: "Hel" },
        { type: "tool_call", messageId: "m", call },
      ], new ProviderError("connection reset", { retryable: true }));
      const rec = cassette(path, { upstream });
      await assertRejects(() => drain(rec.stream(ask("go"))), ProviderError, "reset");
      const [line] = lines(path);
      assertEquals(line.turn, {
        chunks: ["Hel"],
        failAfterChunks: 1,
        toolCalls: [call],
        error: "connection reset",
      });
      assertEquals(line.fault, { class: "ProviderError", phase: "mid_stream", retryable: true });
    });
    await t.step("an error event records a mid-stream fault", async () => {
      const path = `${dir}/event.jsonl`;
      const usage = { inputTokens: 3, outputTokens: 1 };
      const upstream = streaming([
        { type: "message_start", messageId: "m" },
        { type: "text_delta", messageId: "m", content: "a" },
        { type: "error", messageId: "m", error: new ProviderError("gone"), usage },
      ]);
      const rec = cassette(path, { upstream });
      const events = await drain(rec.stream(ask("go")));
      assertEquals(events.at(-1)?.type, "error");
      const [line] = lines(path);
      assertEquals(line.fault, { class: "ProviderError", phase: "mid_stream", retryable: false });
      assertEquals(line.turn, { chunks: ["a"], failAfterChunks: 1, usage, error: "gone" });
      const replayed = await drain(cassette(path).stream(ask("go")));
      assertEquals(replayed.map((e) => e.type), ["message_start", "text_delta", "error"]);
    });
    await t.step("a throw after the answer ended adds no second line", async () => {
      const path = `${dir}/after.jsonl`;
      const usage = { inputTokens: 1, outputTokens: 1 };
      const upstream = streaming([
        { type: "message_start", messageId: "m" },
        { type: "text_delta", messageId: "m", content: "done" },
        { type: "message_end", messageId: "m", finishReason: "stop", usage },
      ], new ProviderError("socket closed late"));
      const rec = cassette(path, { upstream });
      await assertRejects(() => drain(rec.stream(ask("go"))), ProviderError, "late");
      assertEquals(lines(path).map((l) => l.turn), [{ content: "done", usage }]);
    });
    await t.step("a bug thrown mid-stream is not recorded", async () => {
      const path = `${dir}/bug.jsonl`;
      const upstream = streaming([
        { type: "message_start", messageId: "m" },
        { type: "text_delta", messageId: "m", content: "a" },
      ], new TypeError("a bug"));
      const rec = cassette(path, { upstream });
      await assertRejects(() => drain(rec.stream(ask("go"))), TypeError, "a bug");
      assertEquals(rec.size, 0);
      assertThrows(() => Deno.statSync(path), Deno.errors.NotFound);
    });
    await t.step("a stream the consumer stops reading records a stall", async () => {
      const path = `${dir}/stall.jsonl`;
      const rec = cassette(path, {
        upstream: () => FakeLLM.script([{ chunks: ["Hel", "lo", "!"] }]),
      });
      for await (const e of rec.stream(ask("go"))) if (e.type === "text_delta") break;
      assertEquals(lines(path)[0].turn, { chunks: ["Hel"], stall: true });
      const player = cassette(path);
      const controller = new AbortController();
      const seen: string[] = [];
      const error = await (async () => {
        for await (const e of player.stream({ ...ask("go"), signal: controller.signal })) {
          if (e.type === "text_delta") {
            seen.push(e.content);
            controller.abort(new Error("stop"));
          }
        }
      })().catch((e) => e);
      assertEquals(seen, ["Hel"]);
      assertEquals((error as Error).message, "stop");
    });
  });
});

Deno.test("cassette() replays a stream only for the recorded request, content lines included", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/s.jsonl`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({ request: ask("hi"), turn: { content: "Hello" } }) + "\n",
    );
    const player = cassette(path);
    const text = (await drain(player.stream(ask("hi"))))
      .flatMap((e) => e.type === "text_delta" ? [e.content] : []);
    assertEquals(text.join(""), "Hello");
    const other = cassette(path);
    const error = await drain(other.stream(ask("bye"))).catch((e) => e);
    assertInstanceOf(error, CassetteMismatch);
    assertEquals(error.field, "messages[0].content");
  });
});

Deno.test("cassette() replay bills nothing for a line without usage", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/free.jsonl`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({ request: ask("hi"), turn: { content: "ok" } }) + "\n",
    );
    await using player = cassette(path);
    assertEquals((await player.chat(ask("hi"))).usage, { inputTokens: 0, outputTokens: 0 });
  });
});

Deno.test("cassette() mismatches with no recording name no field", async () => {
  await inDir(async (dir) => {
    const missing = assertThrows(
      () => cassette(`${dir}/none.jsonl`, { mode: "replay" }),
      CassetteMismatch,
    );
    assertEquals([missing.field, missing.request], ["", 1]);
    const path = `${dir}/one.jsonl`;
    await Deno.writeTextFile(path, JSON.stringify({ request: ask("a"), turn: { content: "" } }));
    const player = cassette(path);
    await player.chat(ask("a"));
    const extra = await player.chat(ask("b")).catch((e) => e);
    assertInstanceOf(extra, CassetteMismatch);
    assertEquals([extra.field, extra.request, extra.recorded], ["", 2, undefined]);
    assertEquals(extra.actual, ask("b"));
  });
});

Deno.test("cassette() writes its file where it is asked, and counts what it wrote", async (t) => {
  await inDir(async (dir) => {
    for (const mode of ["once", "record"] as const) {
      await t.step(`mode ${mode}, in a folder that does not exist yet`, async () => {
        const path = `${dir}/${mode}/deeper/c.jsonl`;
        const rec = cassette(path, { mode, upstream: () => FakeLLM.script(["a", "b"]) });
        assertEquals(rec.size, 0);
        await rec.chat(ask("1"));
        assertEquals(rec.size, 1);
        await rec.chat(ask("2"));
        assertEquals([rec.size, rec.calls], [2, 2]);
        assertEquals(lines(path).length, 2);
        const player = cassette(path);
        assertEquals([player.mode, player.size, player.calls], ["replay", 2, 0]);
      });
    }
    await t.step("mode once writes nothing until the first answer", () => {
      const path = `${dir}/unused.jsonl`;
      const rec = cassette(path, { upstream: () => new FakeLLM("a") });
      assertEquals(rec.mode, "record");
      assertThrows(() => Deno.statSync(path), Deno.errors.NotFound);
    });
  });
});

Deno.test("cassette() complete() sends the system and user prompt as chat messages", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/complete.jsonl`;
    {
      await using rec = cassette(path, { upstream: () => FakeLLM.script(["Paris", "Oslo"]) });
      const paris = await rec.complete({ model: "m", system: "Be brief.", user: "France?" });
      assertEquals(paris.content, "Paris");
      await rec.complete({ model: "m", system: "", user: "Norway?" });
    }
    assertEquals(lines(path).map((l) => l.request), [
      {
        model: "m",
        messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "France?" }],
      },
      { model: "m", messages: [{ role: "user", content: "Norway?" }] },
    ]);
    await using player = cassette(path);
    assertEquals(
      (await player.complete({ model: "m", system: "Be brief.", user: "France?" })).content,
      "Paris",
    );
    assertEquals(
      (await player.complete({ model: "m", system: "", user: "Norway?" })).content,
      "Oslo",
    );
  });
});

Deno.test("cassette() masks the provider keys in the environment and every match of a pattern", async (t) => {
  const saved = Deno.env.get("OPENAI_API_KEY");
  const savedAnthropic = Deno.env.get("ANTHROPIC_API_KEY");
  Deno.env.delete("ANTHROPIC_API_KEY");
  const record = async (text: string, redact?: Array<string | RegExp>) => {
    let written = "";
    await inDir(async (dir) => {
      const path = `${dir}/k.jsonl`;
      const rec = cassette(path, { upstream: () => new FakeLLM("ok"), redact });
      await rec.chat(ask(text));
      written = (lines(path)[0].request as { messages: { content: string }[] }).messages[0]
        .content;
    });
    return written;
  };
  try {
    await t.step("a key of 8 characters or more is masked, a shorter value is not", async () => {
      Deno.env.set("OPENAI_API_KEY", "proj1234");
      assertEquals(await record("key proj1234 here"), "key [REDACTED] here");
      Deno.env.set("OPENAI_API_KEY", "proj123");
      assertEquals(await record("key proj123 here"), "key proj123 here");
    });
    Deno.env.delete("OPENAI_API_KEY");
    await t.step("the Anthropic key's value too", async () => {
      Deno.env.set("ANTHROPIC_API_KEY", "claude-key-value");
      assertEquals(await record("x claude-key-value y"), "x [REDACTED] y");
      Deno.env.delete("ANTHROPIC_API_KEY");
    });
    await t.step(
      "keys and tokens by their shape, whole; an auth scheme stays readable",
      async () => {
        assertEquals(
          await record("a sk-proj-0123456789abcdef b"),
          "a [REDACTED] b",
        );
        assertEquals(await record("Bearer   abcdefgh.12345678 next"), "Bearer   [REDACTED] next");
        assertEquals(await record("id AKIAIOSFODNN7EXAMPLE end"), "id [REDACTED] end");
      },
    );
    await t.step("words that only look a little like keys stay", async () => {
      const text = "sk-learn, the Bearer of bad news, AKIA1234 and AKIAiosfodnn7example";
      assertEquals(await record(text), text);
    });
    await t.step("a pattern without the g flag masks every match", async () => {
      assertEquals(await record("T-1 and T-2", [/T-\d/]), "[REDACTED] and [REDACTED]");
      assertEquals(await record("T-1 and t-2", [/t-\d/i]), "[REDACTED] and [REDACTED]");
    });
    await t.step("an empty string redacts nothing", async () => {
      assertEquals(await record("plain text", [""]), "plain text");
    });
  } finally {
    if (saved === undefined) Deno.env.delete("OPENAI_API_KEY");
    else Deno.env.set("OPENAI_API_KEY", saved);
    if (savedAnthropic === undefined) Deno.env.delete("ANTHROPIC_API_KEY");
    else Deno.env.set("ANTHROPIC_API_KEY", savedAnthropic);
  }
});

Deno.test("cassette(): an empty AGENTKIT_CASSETTE leaves the mode to the option", async () => {
  await inDir((dir) => {
    Deno.env.set("AGENTKIT_CASSETTE", "");
    try {
      assertThrows(() => cassette(`${dir}/none.jsonl`, { mode: "replay" }), CassetteMismatch);
      const rec = cassette(`${dir}/new.jsonl`, { upstream: () => new FakeLLM("a") });
      assertEquals(rec.mode, "record");
    } finally {
      Deno.env.delete("AGENTKIT_CASSETTE");
    }
  });
});

Deno.test("cassette() options errors name cassette() and teach upstream", () => {
  const error = assertThrows(
    () => cassette("x.jsonl", { upstreamPort: new FakeLLM("x") } as never),
    TypeError,
  );
  assert(error.message.startsWith("cassette()"), error.message);
  assertStringIncludes(error.message, "() => new OpenAIChatLLM()");
});

Deno.test("cassette() hands the upstream a context whose methods still reach private state", async () => {
  // A context of the caller's own class, whose method reads a #private field:
  // called through the cassette's wrapper, it must still run on the original.
  class OwnCtx {
    #checks = 0;
    readonly allowModelRequests = false;
    checkCancelled(): void {
      this.#checks++;
    }
    get checks(): number {
      return this.#checks;
    }
  }
  const own = new OwnCtx();
  const allowed: unknown[] = [];
  await inDir(async (dir) => {
    const inner = new FakeLLM("ok");
    const upstream = (): LLMPort => ({
      chat: (req, ctx) => {
        ctx?.checkCancelled();
        allowed.push((ctx as unknown as OwnCtx).allowModelRequests);
        return inner.chat(req);
      },
      stream: (req) => inner.stream(req),
      complete: (req) => inner.complete(req),
    });
    const rec = cassette(`${dir}/ctx.jsonl`, { upstream });
    await rec.chat(ask("hi"), own as unknown as Ctx);
  });
  assertEquals([own.checks, allowed], [1, [true]]);
});

Deno.test("cassette() records a refusal and the model's thinking, blocking and streamed, and replays them", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/misbehave.jsonl`;
    const upstream = () =>
      FakeLLM.script([
        { refusal: "No." },
        { reasoning: "Hm.", content: "" },
        { refusal: "Not that." },
        { reasoning: "Think.", chunks: ["a", "b"] },
      ]);
    {
      await using rec = cassette(path, { upstream });
      await rec.chat(ask("one"));
      await rec.chat(ask("two"));
      await drain(rec.stream(ask("three")));
      await drain(rec.stream(ask("four")));
    }
    const usage = { inputTokens: 10, outputTokens: 0 };
    assertEquals(lines(path).map((l) => l.turn), [
      { refusal: "No.", usage },
      { reasoning: "Hm.", usage },
      { refusal: "Not that.", usage },
      { chunks: ["a", "b"], reasoning: "Think.", usage },
    ]);
    await using player = cassette(path);
    const refused = await player.chat(ask("one"));
    assertEquals([refused.content, refused.refusal, refused.finishReason], [
      "No.",
      true,
      "content_filter",
    ]);
    assertEquals((await player.chat(ask("two"))).reasoning, "Hm.");
    const events = await drain(player.stream(ask("three")));
    assertEquals(events[1], {
      type: "text_delta",
      messageId: events[0].messageId,
      content: "Not that.",
      refusal: true,
    });
    assertEquals((await drain(player.stream(ask("four"))))[1].type, "reasoning_delta");
  });
});
