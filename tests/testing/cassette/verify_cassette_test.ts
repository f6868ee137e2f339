// verifyCassette(): staleness offline; shape, semantic drift and the
// spending cap against an upstream (SPEC §23). The "real API" is a FakeLLM.
import { assert, assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { type ChatRequest, type LLMPort, RateLimitError, toolCall } from "@agentkit/testing/ports";
import { PriceTable } from "@agentkit/testing/runtime";
import { cassette, FakeLLM, type Turn, verifyCassette } from "@agentkit/testing/testing";

async function inDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "verify_cassette_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const weatherTool = {
  name: "weather",
  description: "The weather in a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
};
const ask = (content: string): ChatRequest => ({
  model: "m",
  messages: [{ role: "user", content }],
  tools: [weatherTool],
});
const prices = new PriceTable({ m: { inputPerMTok: 1_000_000, outputPerMTok: 0 } });

async function record(path: string, turns: Array<Turn | string>, questions: string[]) {
  await using rec = cassette(path, { upstream: () => FakeLLM.script(turns) });
  for (const q of questions) await rec.chat(ask(q)).catch(() => undefined);
}

const live = (turns: Array<Turn | string>): () => LLMPort => () => FakeLLM.script(turns);

Deno.test("verifyCassette() without an upstream checks staleness offline", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await record(path, ["a"], ["q"]);
    const fresh = await verifyCassette(path);
    assertEquals(fresh.ok, true);
    assertEquals(fresh.entries[0].stale, undefined);
    assertEquals([fresh.entries[0].checked, fresh.entries[0].skipped], [false, "no upstream"]);
    assertEquals(fresh.spentUsd, "0.000000");
    // Make it 40 days old.
    const line = JSON.parse(Deno.readTextFileSync(path));
    line.provenance.recordedAt = new Date(Date.now() - 40 * 86_400_000).toISOString();
    Deno.writeTextFileSync(path, JSON.stringify(line) + "\n");
    const old = await verifyCassette(path);
    assertEquals(old.ok, false);
    assertStringIncludes(old.entries[0].stale!, "recorded 40 day(s) ago");
    assertEquals((await verifyCassette(path, { staleAfterDays: 60 })).ok, true);
  });
});

Deno.test("verifyCassette() reports shape drift: fields added, removed, retyped", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await record(path, [{
      toolCalls: [toolCall("c1", "weather", { city: "Oslo" })],
      usage: { inputTokens: 1, outputTokens: 1 },
    }], ["q"]);
    const report = await verifyCassette(path, {
      upstream: live([{
        content: "let me check",
        toolCalls: [toolCall("c9", "weather", { city: 3 } as never)],
        usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 },
      }]),
      budgetUsd: 10,
      prices,
    });
    const [e] = report.entries;
    assert(e.checked);
    assertEquals(e.shape, [
      { kind: "retyped", path: "toolCalls[0].args.city", recorded: "string", live: "number" },
      { kind: "added", path: "usage.cachedInputTokens", live: "number" },
      { kind: "added", path: "content", live: "string" },
    ]);
    assertEquals(e.semantic.map((s) => s.kind), ["arguments"]);
    assertStringIncludes(
      e.semantic[0].message,
      'calls "weather" with arguments its schema refuses',
    );
    assertEquals(report.ok, false);
    assertEquals(e.costUsd, "1.000000");
    assertEquals(report.spentUsd, "1.000000");
  });
});

Deno.test("verifyCassette() reports semantic drift: tool names, an undeclared tool, the finish reason, the outcome", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await record(path, [
      { toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] },
      "plain",
      { error: new RateLimitError("slow", { retryAfterMs: 5 }) },
    ], ["one", "two", "three"]);
    const report = await verifyCassette(path, {
      upstream: live([
        { toolCalls: [toolCall("c2", "search", { q: "Oslo" })] },
        { content: "cut", finishReason: "length" },
        "now it answers",
      ]),
      budgetUsd: "100",
      prices,
    });
    const [a, b, c] = report.entries;
    assertEquals(a.semantic.map((s) => s.kind), ["toolNames", "arguments"]);
    assertStringIncludes(a.semantic[0].message, 'called "weather"; the API now calls "search"');
    assertStringIncludes(a.semantic[1].message, '"search", which the request does not declare');
    assertEquals(b.semantic.map((s) => [s.kind, s.recorded, s.live]), [[
      "finishReason",
      "stop",
      "length",
    ]]);
    assertEquals(c.semantic.map((s) => [s.kind, s.recorded, s.live]), [[
      "outcome",
      "RateLimitError",
      "answer",
    ]]);
  });
});

Deno.test("verifyCassette() finds no drift when only the words differ", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await record(path, [{ chunks: ["It ", "rains."] }], ["q"]);
    const report = await verifyCassette(path, {
      upstream: live(["It is sunny."]),
      budgetUsd: 1,
      prices,
    });
    assertEquals([report.ok, report.entries[0].shape, report.entries[0].semantic], [true, [], []]);
  });
});

Deno.test("verifyCassette() stops re-sending once the budget is spent, and needs a cap and prices", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await record(path, ["a", "b", "c"], ["1", "2", "3"]);
    const sent: string[] = [];
    const upstream = (): LLMPort => {
      const usage = { inputTokens: 1, outputTokens: 0 };
      const inner = FakeLLM.script(["a", "b", "c"].map((content) => ({ content, usage })));
      return {
        chat: (r, c) => (sent.push(String(r.messages[0].content)), inner.chat(r, c)),
        stream: (r, c) => inner.stream(r, c),
        complete: (r, c) => inner.complete(r, c),
      };
    };
    // Each answer costs $1 (1 input token at $1M per million).
    const report = await verifyCassette(path, { upstream, budgetUsd: "1.5", prices });
    assertEquals(sent, ["1", "2"]);
    assertEquals(report.entries.map((e) => e.skipped), [undefined, undefined, "budget"]);
    assertEquals(report.spentUsd, "2.000000");
    await assertRejects(() => verifyCassette(path, { upstream }), TypeError, "pass budgetUsd");
    await assertRejects(
      () => verifyCassette(path, { upstream, budgetUsd: 1 }),
      TypeError,
      'model "m" is not in the price table',
    );
    await assertRejects(
      () => verifyCassette(path, { budgetUsd: -1 } as never),
      RangeError,
      "budgetUsd",
    );
    await assertRejects(
      () => verifyCassette(path, { staleAfter: 1 } as never),
      TypeError,
      "did you mean",
    );
  });
});

Deno.test("verifyCassette() reports an outcome that changed: a failure now, or the same failure", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await record(path, [
      "answered",
      { error: new RateLimitError("slow", { retryAfterMs: 5 }) },
      "answered too",
    ], ["one", "two", "three"]);
    const report = await verifyCassette(path, {
      upstream: live([
        { error: new RateLimitError("now limited", { retryAfterMs: 5 }) },
        { error: new RateLimitError("still limited", { retryAfterMs: 5 }) },
        { error: new Error("a bug upstream") },
      ]),
      budgetUsd: 1,
      prices,
    });
    const [a, b, c] = report.entries;
    assertEquals(a.semantic.map((s) => [s.kind, s.recorded, s.live]), [[
      "outcome",
      "answer",
      "RateLimitError",
    ]]);
    assertStringIncludes(
      a.semantic[0].message,
      "the recording answered; the API now fails with RateLimitError: now limited",
    );
    assertEquals(b.semantic, []);
    assertEquals(b.shape, []);
    assertEquals(c.semantic.map((s) => s.live), ["Error"]);
    assertEquals([a.costUsd, report.spentUsd], ["0.000000", "0.000000"]);
    assertEquals(report.ok, false);
  });
});

Deno.test("verifyCassette() reports removed fields, refusals and reasoning by shape", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await record(path, [
      {
        toolCalls: [toolCall("c1", "weather", { city: "Oslo" })],
        usage: { inputTokens: 1, outputTokens: 1 },
      },
      { refusal: "I cannot.", usage: { inputTokens: 1, outputTokens: 1 } },
      { content: "x", reasoning: "thought", usage: { inputTokens: 1, outputTokens: 1 } },
    ], ["one", "two", "three"]);
    const report = await verifyCassette(path, {
      upstream: live([
        { content: "Oslo is rainy.", usage: { inputTokens: 1, outputTokens: 1 } },
        { refusal: "Still no.", usage: { inputTokens: 1, outputTokens: 1 } },
        { content: "y", usage: { inputTokens: 1, outputTokens: 1 } },
      ]),
      budgetUsd: 10,
      prices,
    });
    const [a, b, c] = report.entries;
    assertEquals(a.shape, [
      { kind: "removed", path: "toolCalls", recorded: "array" },
      { kind: "added", path: "content", live: "string" },
    ]);
    assertEquals(a.semantic.map((s) => s.kind), ["toolNames", "finishReason"]);
    assertStringIncludes(a.semantic[0].message, "the API now calls no tool");
    assertStringIncludes(
      a.semantic[1].message,
      'finished with "tool_calls"; the API now finishes with "stop"',
    );
    assertEquals([b.shape, b.semantic], [[], []]);
    assertEquals(c.shape, [{ kind: "removed", path: "reasoning", recorded: "string" }]);
  });
});

Deno.test("verifyCassette() charges an answer's own costUsd, and stops the moment the cap is reached", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await record(path, ["a", "b"], ["1", "2"]);
    const usage = { inputTokens: 1, outputTokens: 0, costUsd: 0.25 };
    const report = await verifyCassette(path, {
      upstream: live([{ content: "a", usage }, { content: "b", usage }]),
      budgetUsd: "0.25",
    });
    assertEquals(report.entries.map((e) => [e.checked, e.skipped, e.costUsd]), [
      [true, undefined, "0.250000"],
      [false, "budget", undefined],
    ]);
    assertEquals([report.entries[1].shape, report.entries[1].semantic], [[], []]);
    assertEquals(report.spentUsd, "0.250000");
    // The live usage reports a cost the recorded one did not: that is shape drift too.
    assertEquals(report.entries[0].shape, [{
      kind: "added",
      path: "usage.costUsd",
      live: "number",
    }]);
    assertEquals(report.ok, false);
  });
});
