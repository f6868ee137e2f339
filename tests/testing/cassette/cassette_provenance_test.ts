// What a recorded entry says about itself (provenance, timing), what makes
// it stale, how its timing replays on ctx.clock, and scrubbing that is the
// same on both sides, with the canary self-check (SPEC §23).
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import type { ChatRequest, LLMPort, StreamEvent } from "@agentkit/testing/ports";
import { Agent, idleTimeout, StreamStalled } from "@agentkit/testing/runtime";
import {
  cassette,
  CassetteCanaryLeak,
  cassetteKey,
  CassetteMismatch,
  FakeClock,
  FakeLLM,
  makeTestCtx,
} from "@agentkit/testing/testing";
import { Redactor } from "../../../runtime/internal.ts";
import { checkCanary, makeCanary } from "../../../testing/cassette/_canary.ts";

const ask = (content: string): ChatRequest => ({
  model: "fake-model",
  messages: [{ role: "system", content: "be brief" }, { role: "user", content }],
  tools: [{ name: "lookup", description: "looks up", parameters: { type: "object" } }],
});

function lines(path: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(path).trim().split("\n").map((l) => JSON.parse(l));
}

async function inDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cassette_prov_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const DAY = 86_400_000;

Deno.test("cassette() writes provenance on each entry: provider, model, version, date, prompt and tool hashes", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    const before = Date.now();
    {
      await using rec = cassette(path, {
        upstream: () => FakeLLM.script([{ content: "hi", model: "fake-model-2026" }]),
      });
      await rec.chat(ask("hello"));
    }
    const [line] = lines(path);
    const p = line.provenance as Record<string, string>;
    assertEquals(p.provider, "FakeLLM");
    assertEquals(p.model, "fake-model-2026");
    const denoJson = JSON.parse(
      Deno.readTextFileSync(new URL("../../../deno.json", import.meta.url)),
    );
    assertEquals(p.packageVersion, denoJson.version);
    const at = Date.parse(p.recordedAt);
    assert(at >= before - 1000 && at <= Date.now() + 1000, p.recordedAt);
    assertMatch(p.systemHash, /^[0-9a-f]{24}$/);
    assertMatch(p.toolsHash, /^[0-9a-f]{24}$/);
    assertEquals(line.key, cassetteKey(ask("hello")));
    // Another system prompt, other tools: other hashes.
    const path2 = `${dir}/d.jsonl`;
    {
      await using rec = cassette(path2, { upstream: () => new FakeLLM("x") });
      await rec.chat({
        ...ask("hello"),
        messages: [{ role: "user", content: "hello" }],
        tools: [],
      });
    }
    const q = lines(path2)[0].provenance as Record<string, string>;
    assert(q.systemHash !== p.systemHash && q.toolsHash !== p.toolsHash);
    assertEquals(q.model, "fake-model");
  });
});

function entry(content: string, daysAgo: number | undefined): string {
  const line: Record<string, unknown> = {
    version: 2,
    request: ask(content),
    turn: `re: ${content}`,
  };
  if (daysAgo !== undefined) {
    line.provenance = {
      provider: "OpenAIChatLLM",
      model: "fake-model",
      packageVersion: "0.1.0",
      recordedAt: new Date(Date.now() - daysAgo * DAY).toISOString(),
      systemHash: "0",
      toolsHash: "0",
    };
  }
  return JSON.stringify(line) + "\n";
}

Deno.test("cassette() staleAfterDays: an older entry is a mismatch that says so; a fresh one replays", async (t) => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await Deno.writeTextFile(
      path,
      entry("fresh", 2) + entry("old", 40) + entry("undated", undefined),
    );
    await t.step("without staleAfterDays every entry replays", async () => {
      await using llm = cassette(path, { mode: "replay" });
      for (const q of ["fresh", "old", "undated"]) await llm.chat(ask(q));
    });
    await t.step("with it, the fresh one replays and the old one is refused", async () => {
      const llm = cassette(path, { mode: "replay", staleAfterDays: 30 });
      assertEquals((await llm.chat(ask("fresh"))).content, "re: fresh");
      const e = await assertRejects(() => llm.chat(ask("old")), CassetteMismatch);
      assert(e.stale);
      assertEquals(e.nearest, 2);
      assertStringIncludes(e.message, "stale: it was recorded 40 day(s) ago");
      assertStringIncludes(e.message, "more than staleAfterDays 30");
      const u = await assertRejects(() => llm.chat(ask("undated")), CassetteMismatch);
      assertStringIncludes(u.message, "has no recorded date");
      assertThrows(() => llm.verify(), CassetteMismatch);
    });
    await t.step(
      "newEpisodes re-records the stale ones, and prune drops what they replaced",
      async () => {
        const up: string[] = [];
        const upstream = (): LLMPort => {
          const inner = new FakeLLM("new answer");
          return {
            chat: (r, c) => (up.push(String(r.messages.at(-1)?.content)), inner.chat(r, c)),
            stream: (r, c) => inner.stream(r, c),
            complete: (r, c) => inner.complete(r, c),
          };
        };
        const llm = cassette(path, { mode: "newEpisodes", staleAfterDays: 30, upstream });
        assertEquals((await llm.chat(ask("fresh"))).content, "re: fresh");
        assertEquals((await llm.chat(ask("old"))).content, "new answer");
        assertEquals((await llm.chat(ask("undated"))).content, "new answer");
        assertEquals(up, ["old", "undated"]);
        assertEquals(llm.unused().map((e) => e.line), [2, 3]);
        assertEquals(llm.verify({ prune: true }).length, 2);
        await using again = cassette(path, { mode: "replay", staleAfterDays: 30 });
        for (const q of ["old", "fresh", "undated"]) await again.chat(ask(q));
        assertEquals(again.size, 3);
      },
    );
  });
});

function timedLine(): string {
  return JSON.stringify({
    version: 2,
    request: ask("stream"),
    turn: { chunks: ["a", "b", "c"] },
    timing: { firstChunkMs: 300, gapsMs: [50, 70] },
  }) + "\n";
}

async function streamed(llm: LLMPort, clock: FakeClock): Promise<string> {
  const ctx = makeTestCtx({ llm, clock });
  let text = "";
  for await (const e of llm.stream(ask("stream"), ctx)) {
    if (e.type === "text_delta") text += e.content;
  }
  return text;
}

Deno.test("cassette() timing replays the recorded first-chunk time and gaps on ctx.clock", async (t) => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await Deno.writeTextFile(path, timedLine());
    const cases: Array<[Parameters<typeof cassette>[1], number[]]> = [
      [{}, []],
      [{ timing: "instant" }, []],
      [{ timing: "recorded" }, [300, 50, 70]],
      [{ timing: 0.1 }, [30, 5, 7]],
      [{ timing: 2 }, [600, 100, 140]],
    ];
    for (const [options, sleeps] of cases) {
      await t.step(`timing ${JSON.stringify(options?.timing)}`, async () => {
        await using llm = cassette(path, { mode: "replay", ...options });
        using clock = new FakeClock();
        const wall = performance.now();
        assertEquals(await streamed(llm, clock), "abc");
        assertEquals(clock.sleeps, sleeps);
        assertEquals(clock.now(), sleeps.reduce((a, b) => a + b, 0));
        assert(performance.now() - wall < 1000, "no wall time");
      });
    }
    await t.step("a blocking replay waits the whole recorded time", async () => {
      await using llm = cassette(path, { mode: "replay", timing: "recorded" });
      using clock = new FakeClock();
      await llm.chat(ask("stream"), makeTestCtx({ llm, clock }));
      assertEquals(clock.sleeps, [420]);
    });
    await t.step("an idle timeout shorter than a recorded gap fires, as it did live", async () => {
      const agentPath = `${dir}/agent.jsonl`;
      await Deno.writeTextFile(
        agentPath,
        JSON.stringify({
          version: 2,
          request: { model: "fake-model", messages: [{ role: "user", content: "go" }] },
          turn: { chunks: ["a", "b", "c"] },
          timing: { firstChunkMs: 40, gapsMs: [50, 70] },
        }) + "\n",
      );
      for (
        const [timing, stalls] of [["recorded", true], ["instant", false], [0.5, false]] as const
      ) {
        await using llm = cassette(agentPath, { mode: "replay", timing });
        using clock = new FakeClock();
        const ctx = makeTestCtx({ llm, clock, chatMiddleware: [idleTimeout({ ms: 60 })] });
        const run = new Agent("a", { model: "fake-model" }).start("go", ctx).result;
        if (stalls) {
          await assertRejects(() => run, StreamStalled, "nothing for 60 ms");
          assertEquals(clock.now(), 40 + 50 + 60);
        } else assertEquals((await run).output, "abc");
      }
    });
  });
});

Deno.test("cassette() records the time to the first chunk and the gaps between chunks", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    const upstream = (): LLMPort => ({
      chat: () => Promise.reject(new Error("stream only")),
      async *stream(): AsyncGenerator<StreamEvent> {
        await new Promise((r) => setTimeout(r, 30));
        yield { type: "text_delta", messageId: "m1", content: "a" };
        await new Promise((r) => setTimeout(r, 20));
        yield { type: "text_delta", messageId: "m1", content: "b" };
        yield {
          type: "message_end",
          messageId: "m1",
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
      complete: () => Promise.reject(new Error("stream only")),
    });
    {
      await using rec = cassette(path, { upstream });
      for await (const _ of rec.stream(ask("stream"))) { /* read */ }
    }
    const timing = lines(path)[0].timing as { firstChunkMs: number; gapsMs: number[] };
    assert(timing.firstChunkMs >= 25, JSON.stringify(timing));
    assertEquals(timing.gapsMs.length, 1);
    assert(timing.gapsMs[0] >= 15, JSON.stringify(timing));
  });
});

Deno.test("cassette() scrubs a replayed request as it scrubbed the recording: a redacted secret still matches", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    const secret = (key: string): ChatRequest => ({
      model: "fake-model",
      messages: [{ role: "user", content: `use ${key} and ticket T-${key.length}` }],
      settings: { temperature: 0 },
    });
    {
      await using rec = cassette(path, { upstream: () => new FakeLLM("done"), redact: [/T-\d+/] });
      await rec.chat(secret("sk-proj-0123456789abcdefABCDEF"));
    }
    const text = Deno.readTextFileSync(path);
    assert(!text.includes("sk-proj-0123456789abcdefABCDEF"));
    assertStringIncludes(text, "use [REDACTED] and ticket [REDACTED]");
    for (const match of ["content", "order"] as const) {
      await using llm = cassette(path, { mode: "replay", redact: [/T-\d+/], match });
      assertEquals((await llm.chat(secret("sk-proj-0123456789abcdefABCDEF"))).content, "done");
    }
    // A hand-edited line holding the secret in clear matches too.
    const clear = text.replaceAll("use [REDACTED]", "use sk-proj-0123456789abcdefABCDEF");
    Deno.writeTextFileSync(path, clear);
    await using llm = cassette(path, { mode: "replay", redact: [/T-\d+/] });
    assertEquals((await llm.chat(secret("sk-proj-0123456789abcdefABCDEF"))).content, "done");
  });
});

Deno.test("checkCanary() refuses a write path that lets a canary or a credential shape through", () => {
  const canary = makeCanary();
  assertMatch(canary, /^agentkit-canary-[0-9a-f]{32}$/);
  assert(canary !== makeCanary());
  // Writing as is: the first probe leaks.
  const e = assertThrows(
    () => checkCanary("c.jsonl", canary, (v) => JSON.stringify(v)),
    CassetteCanaryLeak,
  );
  assertEquals(e.where, "request.messages[0].content");
  assertStringIncludes(e.message, "Cassette c.jsonl");
  assertStringIncludes(e.message, "nothing is recorded");
  // Masking the canary but not credential shapes still leaks.
  assertThrows(
    () => checkCanary("c.jsonl", canary, (v) => JSON.stringify(v).replaceAll(canary, "x")),
    CassetteCanaryLeak,
  );
  // Masking all but the streamed chunks leaks at turn.chunks.
  const r = new Redactor({ literals: [canary] });
  const partial = (v: unknown) => {
    const o = v as { turn?: { chunks?: unknown } };
    return o.turn?.chunks ? JSON.stringify(v) : JSON.stringify(r.json(v));
  };
  assertEquals(
    assertThrows(() => checkCanary("c.jsonl", canary, partial), CassetteCanaryLeak).where,
    "turn.chunks",
  );
  // The redactor a cassette writes through passes.
  checkCanary("c.jsonl", canary, (v) => JSON.stringify(r.json(v)));
});

Deno.test("cassette() passes its canary check in every mode that may write, and no canary reaches a file", async () => {
  await inDir(async (dir) => {
    for (const mode of ["record", "newEpisodes", "once"] as const) {
      const path = `${dir}/${mode}.jsonl`;
      const rec = cassette(path, { mode, upstream: () => new FakeLLM("x") });
      await rec.chat(ask("q"));
      assert(!Deno.readTextFileSync(path).includes("agentkit-canary"));
    }
  });
});
