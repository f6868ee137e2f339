// How a replayed request finds its recording (SPEC §23): by content key,
// with order breaking ties, a miss naming the nearest entry, the strict
// order on request, and the four modes.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import type { ChatRequest, LLMPort, Message } from "@agentkit/testing/ports";
import {
  cassette,
  CassetteMismatch,
  FakeLLM,
  InvalidScript,
  UnusedTurns,
} from "@agentkit/testing/testing";

const ask = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: "fake-model",
  messages: [{ role: "user", content }],
  ...extra,
});

function lines(path: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(path).trim().split("\n").map((l) => JSON.parse(l));
}

async function inDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cassette_match_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// An upstream answering each question with "answer to <question>", counting its calls.
function echo(): { calls: string[]; make: () => LLMPort } {
  const calls: string[] = [];
  const answer = (r: ChatRequest) => {
    const q = String(r.messages.at(-1)?.content);
    calls.push(q);
    return `answer to ${q}`;
  };
  return {
    calls,
    make: () => ({
      chat: async (r, ctx) => await new FakeLLM(answer(r)).chat(r, ctx),
      stream: (r, ctx) => new FakeLLM(answer(r)).stream(r, ctx),
      complete: (r, ctx) => new FakeLLM("c").complete(r, ctx),
    }),
  };
}

const noUpstream = () => {
  throw new Error("a replay never builds the upstream");
};

async function recordTwo(path: string, first = "one", second = "two"): Promise<void> {
  await using rec = cassette(path, { upstream: echo().make, mode: "record" });
  await rec.chat(ask(first));
  await rec.chat(ask(second));
}

Deno.test("cassette() matches by content: two independent calls replay in the other order", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await recordTwo(path);
    await using llm = cassette(path, { mode: "replay", upstream: noUpstream });
    assertEquals((await llm.chat(ask("two"))).content, "answer to two");
    assertEquals((await llm.chat(ask("one"))).content, "answer to one");
  });
});

Deno.test("cassette() { match: 'order' } keeps the strict order: the swapped call is a mismatch", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await recordTwo(path);
    const llm = cassette(path, { mode: "replay", match: "order" });
    const e = await assertRejects(() => llm.chat(ask("two")), CassetteMismatch);
    assertEquals([e.request, e.field, e.recorded, e.actual], [
      1,
      "messages[0].content",
      "one",
      "two",
    ]);
    assertStringIncludes(e.message, "request 1 differs from the recording at messages[0].content");
  });
});

Deno.test("cassette() serves equal requests first in, first out", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    const line = (content: string) =>
      JSON.stringify({ request: ask("same"), turn: { content } }) + "\n";
    await Deno.writeTextFile(path, line("first") + line("second"));
    const llm = cassette(path, { mode: "replay" });
    assertEquals((await llm.chat(ask("same"))).content, "first");
    assertEquals((await llm.chat(ask("same"))).content, "second");
    const e = await assertRejects(() => llm.chat(ask("same")), CassetteMismatch);
    assertStringIncludes(e.message, "request 3 has no recording");
    assertStringIncludes(e.message, "2 of them with this content");
    assertEquals(e.field, "");
    // The run's mismatch was a harness error: verify() reports it again.
    assertThrows(() => llm.verify(), CassetteMismatch);
  });
});

Deno.test("cassette() matches a follow-up turn with generated tool-call ids and timestamps of its own", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    const turn = (id: string, at: string): Message[] => [
      { role: "user", content: `weather? (asked ${at})` },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id, name: "weather", args: { city: "Oslo" } }],
      },
      { role: "tool", content: "rain", toolCallId: id },
    ];
    {
      await using rec = cassette(path, { upstream: echo().make });
      await rec.chat({ model: "m", messages: turn("call_AbC123", "2026-01-02T03:04:05Z") });
    }
    await using llm = cassette(path, { mode: "replay" });
    const r = await llm.chat({
      model: "m",
      messages: turn("call_zzz999", "2026-12-07T10:11:12.345+01:00"),
    });
    assertEquals(r.content, "answer to rain");
  });
});

Deno.test("cassette() miss names the nearest recorded entry and its first structural difference", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    const rows = [
      { request: ask("What is the weather in Oslo?"), turn: "a" },
      {
        request: {
          model: "fake-model",
          messages: [{ role: "system", content: "be brief" }, {
            role: "user",
            content: "What is the weather in Bergen?",
          }],
        },
        turn: "b",
      },
      { request: ask("Tell me a joke", { model: "other" }), turn: "c" },
    ];
    await Deno.writeTextFile(path, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const llm = cassette(path, { mode: "replay" });
    const e = await assertRejects(
      () =>
        llm.chat({
          model: "fake-model",
          messages: [{ role: "system", content: "be brief" }, {
            role: "user",
            content: "What is the weather in Trondheim?",
          }],
        }),
      CassetteMismatch,
    );
    assertEquals(e.nearest, 2);
    assertEquals([e.field, e.recorded, e.actual], [
      "messages[1].content",
      "What is the weather in Bergen?",
      "What is the weather in Trondheim?",
    ]);
    assertStringIncludes(e.message, "on line 2");
    assertStringIncludes(e.message, "AGENTKIT_CASSETTE=newEpisodes");
    assertThrows(() => llm.verify(), CassetteMismatch);
  });
});

Deno.test("cassette() miss on a structural change names the field: a message added", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await Deno.writeTextFile(path, JSON.stringify({ request: ask("hi"), turn: "x" }) + "\n");
    const llm = cassette(path, { mode: "replay" });
    const e = await assertRejects(
      () =>
        llm.chat({
          model: "fake-model",
          messages: [{ role: "user", content: "hi" }, { role: "user", content: "more" }],
        }),
      CassetteMismatch,
    );
    assertEquals([e.field, e.recorded, e.nearest], ["messages[1]", undefined, 1]);
  });
});

Deno.test("cassette() user normalize rules: a pattern and a function make volatile parts match", async (t) => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        request: ask("order #1234", { settings: { temperature: 0.7 } }),
        turn: "ok",
      }) + "\n",
    );
    await t.step("without the rules the request misses", async () => {
      const llm = cassette(path, { mode: "replay" });
      await assertRejects(
        () => llm.chat(ask("order #9876", { settings: { temperature: 0.8 } })),
        CassetteMismatch,
      );
    });
    await t.step(
      "a pattern for the order number, a function dropping the temperature",
      async () => {
        await using llm = cassette(path, {
          mode: "replay",
          normalize: [/#\d+/, (r) => ({ ...r, settings: undefined })],
        });
        assertEquals(
          (await llm.chat(ask("order #9876", { settings: { temperature: 0.8 } }))).content,
          "ok",
        );
      },
    );
    await t.step("a single rule, not in a list", async () => {
      await using llm = cassette(path, {
        mode: "replay",
        normalize: (r) => ({ ...r, messages: [] }),
      });
      assertEquals(
        (await llm.chat(ask("anything", { settings: { temperature: 0.7 } }))).content,
        "ok",
      );
    });
  });
});

Deno.test("cassette() reads a version 1 file (no version field) as before, and refuses a newer one", async (t) => {
  await inDir(async (dir) => {
    await t.step("version 1 replays, in order and by content", async () => {
      const path = `${dir}/v1.jsonl`;
      await Deno.writeTextFile(
        path,
        `${JSON.stringify({ request: ask("a"), turn: "A" })}\n${
          JSON.stringify({ request: ask("b"), turn: { chunks: ["B", "!"] } })
        }`,
      );
      for (const match of ["content", "order"] as const) {
        await using llm = cassette(path, { mode: "replay", match });
        assertEquals(llm.version, 1);
        assertEquals((await llm.chat(ask("a"))).content, "A");
        assertEquals((await llm.chat(ask("b"))).content, "B!");
      }
    });
    await t.step("what this package writes is version 2, each line saying so", async () => {
      const path = `${dir}/v2.jsonl`;
      await recordTwo(path);
      assertEquals(lines(path).map((l) => l.version), [2, 2]);
      assertEquals(cassette(path, { mode: "replay" }).version, 2);
    });
    await t.step("a newer version is an InvalidScript naming it", () => {
      const path = `${dir}/v9.jsonl`;
      Deno.writeTextFileSync(path, JSON.stringify({ version: 9, request: ask("a"), turn: "A" }));
      assertThrows(() => cassette(path, { mode: "replay" }), InvalidScript, "format version 9");
    });
    await t.step("a version that is not a positive integer", () => {
      const path = `${dir}/vx.jsonl`;
      Deno.writeTextFileSync(path, JSON.stringify({ version: "2", request: ask("a"), turn: "A" }));
      assertThrows(() => cassette(path, { mode: "replay" }), InvalidScript, '"version" must be');
    });
  });
});

Deno.test("cassette() mode newEpisodes replays what matches and records and appends what does not", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    // A hand-written version 1 file without a final newline.
    Deno.writeTextFileSync(path, JSON.stringify({ request: ask("one"), turn: "recorded one" }));
    const up = echo();
    {
      await using llm = cassette(path, { mode: "newEpisodes", upstream: up.make });
      assertEquals(llm.mode, "newEpisodes");
      assertEquals((await llm.chat(ask("one"))).content, "recorded one");
      assertEquals((await llm.chat(ask("three"))).content, "answer to three");
      assertEquals(llm.size, 2);
      assertEquals(llm.unused(), []);
    }
    assertEquals(up.calls, ["three"]);
    const written = lines(path);
    assertEquals(written.length, 2);
    assertEquals(written[1].version, 2);
    // Both replay now, without the upstream.
    await using llm = cassette(path, { mode: "replay" });
    assertEquals((await llm.chat(ask("three"))).content, "answer to three");
    assertEquals((await llm.chat(ask("one"))).content, "recorded one");
  });
});

Deno.test("cassette() mode newEpisodes records a streamed miss too, and starts a file that is missing", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/sub/c.jsonl`;
    const up = echo();
    {
      await using llm = cassette(path, { mode: "newEpisodes", upstream: up.make });
      let text = "";
      for await (const e of llm.stream(ask("s"))) if (e.type === "text_delta") text += e.content;
      assertEquals(text, "answer to s");
    }
    await using llm = cassette(path, { mode: "replay" });
    assertEquals((await llm.chat(ask("s"))).content, "answer to s");
  });
});

Deno.test("cassette() modes: replay never records, record starts afresh, once records only a missing file", async (t) => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await t.step("replay of a missing file", () => {
      assertThrows(() => cassette(path, { mode: "replay" }), CassetteMismatch, "does not exist");
    });
    await t.step("newEpisodes and record need an upstream", () => {
      for (const mode of ["newEpisodes", "record"] as const) {
        assertThrows(() => cassette(path, { mode }), TypeError, "without upstream");
      }
    });
    await t.step("once records the missing file, then replays it", async () => {
      const up = echo();
      {
        await using rec = cassette(path, { upstream: up.make });
        assertEquals(rec.mode, "record");
        await rec.chat(ask("q"));
      }
      await using again = cassette(path, { upstream: up.make });
      assertEquals(again.mode, "replay");
      await again.chat(ask("q"));
      assertEquals(up.calls, ["q"]);
    });
    await t.step("record truncates what was there", async () => {
      await recordTwo(path, "x", "y");
      assertEquals(lines(path).length, 2);
      {
        await using rec = cassette(path, { upstream: echo().make, mode: "record" });
        await rec.chat(ask("z"));
      }
      assertEquals(lines(path).map((l) => (l.request as ChatRequest).messages[0].content), ["z"]);
    });
    await t.step("a replay miss leaves the file as it was", async () => {
      const before = Deno.readTextFileSync(path);
      const llm = cassette(path, { mode: "replay" });
      await assertRejects(() => llm.chat(ask("new")), CassetteMismatch);
      assertEquals(Deno.readTextFileSync(path), before);
    });
  });
});

Deno.test("cassette(): AGENTKIT_CASSETTE=newEpisodes and =replay override the option", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await recordTwo(path);
    const before = Deno.env.get("AGENTKIT_CASSETTE");
    try {
      Deno.env.set("AGENTKIT_CASSETTE", "newEpisodes");
      assertEquals(cassette(path, { mode: "replay", upstream: echo().make }).mode, "newEpisodes");
      Deno.env.set("AGENTKIT_CASSETTE", "replay");
      const ci = cassette(path, { mode: "record", upstream: echo().make });
      assertEquals(ci.mode, "replay");
      await assertRejects(() => ci.chat(ask("unrecorded")), CassetteMismatch);
    } finally {
      if (before === undefined) Deno.env.delete("AGENTKIT_CASSETTE");
      else Deno.env.set("AGENTKIT_CASSETTE", before);
    }
  });
});

Deno.test("cassette() unused() lists entries no request used; verify({ prune: true }) drops them from the file", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    const rows = ["a", "b", "c"].map((q) => JSON.stringify({ request: ask(q), turn: q }));
    await Deno.writeTextFile(path, rows.join("\n") + "\n");
    const llm = cassette(path, { mode: "replay" });
    assertEquals(llm.unused().map((e) => e.line), [1, 2, 3]);
    await llm.chat(ask("b"));
    const unused = llm.unused();
    assertEquals(unused.map((e) => e.line), [1, 3]);
    assertEquals(unused[0].request, ask("a"));
    assert(/^[0-9a-f]{24}$/.test(unused[0].key));
    const e = assertThrows(() => llm.verify(), UnusedTurns);
    assertStringIncludes(e.message, "line 1, line 3");
    assertThrows(() => llm.verify({ prune: "yes" } as never), TypeError, "prune");
    const pruned = llm.verify({ prune: true });
    assertEquals(pruned.map((p) => p.line), [1, 3]);
    assertEquals(llm.unused(), []);
    llm.verify();
    assertEquals(Deno.readTextFileSync(path), `${rows[1]}\n`);
    assertEquals(llm.verify({ prune: true }), []);
  });
});

Deno.test("cassette() checks its new options where they are given", () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ match: "key" }, 'option "match" must be one of "content", "order"'],
    [{ timing: "slow" }, 'option "timing" must be "recorded", "instant" or a finite number'],
    [{ timing: -1 }, 'option "timing"'],
    [{ staleAfterDays: -2 }, 'option "staleAfterDays"'],
    [{ normalize: "id" }, 'option "normalize" must be a RegExp, a function'],
    [{ normalize: [/x/, 3] }, 'option "normalize"'],
    [{ staleAfterDay: 3 }, 'did you mean "staleAfterDays"'],
  ];
  for (const [options, message] of cases) {
    const e = assertThrows(() => cassette("x.jsonl", options as never));
    assert(e instanceof TypeError || e instanceof RangeError, String(e));
    assertStringIncludes((e as Error).message, message);
    assertStringIncludes((e as Error).message, "cassette()");
  }
});

Deno.test("cassette() replays a stream by content too", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await recordTwo(path);
    const llm = cassette(path, { mode: "replay" });
    const texts: string[] = [];
    for (const q of ["two", "one"]) {
      let text = "";
      for await (const e of llm.stream(ask(q))) if (e.type === "text_delta") text += e.content;
      texts.push(text);
    }
    assertEquals(texts, ["answer to two", "answer to one"]);
    const e = await assertRejects(async () => {
      for await (const _ of llm.stream(ask("three"))) { /* drain */ }
    }, CassetteMismatch);
    assertInstanceOf(e, CassetteMismatch);
    assertThrows(() => llm.verify(), CassetteMismatch);
  });
});
