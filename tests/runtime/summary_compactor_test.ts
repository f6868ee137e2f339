import { assert, assertEquals, assertRejects, assertStrictEquals, assertThrows } from "@std/assert";
import {
  Agent,
  Budget,
  estimateTokens,
  meter,
  NoInvoker,
  RequestBuilder,
  SUMMARY_PREFIX,
  SummaryCompactor,
} from "@agentkit/testing/runtime";
import { type Message, toolCall } from "@agentkit/testing/ports";
import { FakeCtx, FakeLLM, makeTestCtx, RecordingTracer } from "@agentkit/testing/testing";

// Ten-character messages: 3 + 4 = 7 estimated tokens each.
const said = (role: Message["role"], n: number): Message => ({
  role,
  content: `${role.slice(0, 1)}${String(n).padStart(9, "0")}`,
});
const conversation = (turns: number): Message[] => {
  const out: Message[] = [{ role: "system", content: "sys prompt" }];
  for (let i = 1; i <= turns; i++) out.push(said("user", i), said("assistant", i));
  return out;
};

Deno.test("estimateTokens() counts a token per four characters, tool calls included, plus four per message", () => {
  assertEquals(estimateTokens({ role: "user", content: "a".repeat(9) }), 3 + 4);
  assertEquals(
    estimateTokens({ role: "assistant", content: "", toolCalls: [toolCall("c1", "ab", { x: 1 })] }),
    Math.ceil(("ab".length + '{"x":1}'.length) / 4) + 4,
  );
});

Deno.test("SummaryCompactor.compact() leaves a transcript at or under maxTokens alone", async () => {
  const messages = conversation(2); // 5 messages, 35 tokens
  const compactor = new SummaryCompactor({ maxTokens: 35, keepRecent: 2 });
  assertEquals(compactor.tokens(messages), 35);
  const out = await compactor.compact(messages, new FakeCtx());
  assertEquals(out, messages);
  assert(out !== messages);
});

Deno.test("SummaryCompactor.compact() past maxTokens keeps the system prompt, a summary and the recent turns", async () => {
  const messages = conversation(5); // 11 messages, 77 tokens
  const compactor = new SummaryCompactor({ maxTokens: 70, keepRecent: 4 });
  const ctx = new FakeCtx();
  const out = await compactor.compact(messages, ctx);
  assertEquals(out[0], messages[0]);
  assertEquals(out.slice(2), messages.slice(-4));
  assertEquals(out[1].role, "system");
  const lines = out[1].content.split("\n");
  assertEquals(lines[0], SUMMARY_PREFIX);
  assertEquals(lines[1], "- user: u000000001"); // the task is always kept
  assertEquals(lines.at(-1), "- assistant: a000000003"); // and the latest dropped turn
  assert(compactor.tokens(out) <= 70, `${compactor.tokens(out)} tokens`);
  const [span] = ctx.spans;
  assertEquals(span.name, "compact");
  assertEquals(span.attrs["agentkit.compact.tokens_before"], 77);
  assertEquals(span.attrs["agentkit.compact.tokens_after"], compactor.tokens(out));
  assertEquals(span.attrs["agentkit.compact.dropped"], 6);
});

Deno.test("SummaryCompactor's extract has a line per dropped message, each cut at 160 characters", async () => {
  const long = (role: Message["role"], n: number): Message => ({
    role,
    content: `${n} ${"word ".repeat(80)}`,
  });
  const messages = [
    { role: "system" as const, content: "sys" },
    ...[1, 2, 3].flatMap((n) => [long("user", n), long("assistant", n)]),
  ];
  const compactor = new SummaryCompactor({ maxTokens: 500, keepRecent: 2 });
  const out = await compactor.compact(messages, new FakeCtx());
  const lines = out[1].content.split("\n").slice(1);
  assertEquals(lines.length, 4);
  assertEquals(lines.map((l) => l.slice(0, 10)), [
    "- user: 1 ",
    "- assistan",
    "- user: 2 ",
    "- assistan",
  ]);
  for (const l of lines) {
    assertEquals([l.endsWith("…"), l.slice(l.indexOf(": ") + 2).length], [true, 160]);
  }
  assert(compactor.tokens(out) <= 500);
});

Deno.test("SummaryCompactor never starts the recent window with a tool result cut off from its call", async () => {
  const messages: Message[] = [
    { role: "system", content: "sys" },
    { role: "user", content: "x".repeat(200) },
    {
      role: "assistant",
      content: "",
      toolCalls: [toolCall("c1", "a", {}), toolCall("c2", "b", {})],
    },
    { role: "tool", content: "ra", toolCallId: "c1" },
    { role: "tool", content: "rb", toolCallId: "c2" },
  ];
  const out = await new SummaryCompactor({ maxTokens: 20, keepRecent: 1 }).compact(
    messages,
    new FakeCtx(),
  );
  assertEquals(out.map((m) => m.role), ["system", "system", "assistant", "tool", "tool"]);
});

Deno.test("SummaryCompactor re-summarises an earlier summary instead of stacking summaries", async () => {
  const compactor = new SummaryCompactor({ maxTokens: 40, keepRecent: 2 });
  const ctx = new FakeCtx();
  const once = await compactor.compact(conversation(4), ctx);
  const grown = [...once, said("user", 5), said("assistant", 5), said("user", 6)];
  const twice = await compactor.compact(grown, ctx);
  assertEquals(twice.filter((m) => m.content.startsWith(SUMMARY_PREFIX)).length, 1);
  assert(twice[1].content.includes(`system: ${SUMMARY_PREFIX}`), twice[1].content);
  assertEquals(twice.slice(-2), grown.slice(-2));
});

Deno.test("SummaryCompactor's extract keeps the task and the latest lines that fit, eliding the rest", async () => {
  const compactor = new SummaryCompactor({ maxTokens: 100, keepRecent: 2 });
  const out = await compactor.compact(conversation(30), new FakeCtx());
  const lines = out[1].content.split("\n").slice(1);
  assertEquals(lines[0], "- user: u000000001");
  assertEquals(lines.at(-1), "- assistant: a000000029");
  const more = lines.find((l) => /^- \(\d+ more\)$/.test(l));
  if (!more) throw new Error(lines.join("\n"));
  assertEquals(lines.length - 1 + Number(/\d+/.exec(more)![0]), 58); // every dropped message accounted for
  assert(compactor.tokens(out) <= 100, `${compactor.tokens(out)} tokens`);
});

Deno.test("SummaryCompactor({ summarise }) uses the function, with the dropped messages and the context", async () => {
  const seen: Message[][] = [];
  const ctx = new FakeCtx();
  const compactor = new SummaryCompactor({
    maxTokens: 30,
    keepRecent: 2,
    summarise: (dropped, c) => {
      seen.push([...dropped]);
      assertStrictEquals(c, ctx);
      return "  they talked  ";
    },
  });
  const out = await compactor.compact(conversation(3), ctx);
  assertEquals(seen[0].length, 4);
  assertEquals(out[1].content, `${SUMMARY_PREFIX}\nthey talked`);
});

Deno.test("SummaryCompactor({ model }) summarises through the run's invoker, metered like any call", async () => {
  const llm = new FakeLLM("They counted to three.");
  const budget = new Budget({ maxCalls: 5 });
  const trace = new RecordingTracer();
  const ctx = makeTestCtx({ llm, budget, trace, chatMiddleware: [meter()] });
  const compactor = new SummaryCompactor({ maxTokens: 30, keepRecent: 2, model: "fake-model" });
  const out = await compactor.compact(conversation(3), ctx);
  assertEquals(out[1].content, `${SUMMARY_PREFIX}\nThey counted to three.`);
  assertEquals([llm.calls, budget.calls], [1, 1]);
  const asked = llm.requests[0].messages;
  assertEquals(asked.map((m) => m.role), ["system", "user"]);
  assert(asked[1].content.startsWith("user: u000000001\nassistant: a000000001"), asked[1].content);
  assertEquals(trace.spans.map((s) => s.name), ["compact", "chat"]);
});

Deno.test("SummaryCompactor({ model }) without an invoker throws NoInvoker, but only when it must summarise", async () => {
  const compactor = new SummaryCompactor({ maxTokens: 30, keepRecent: 2, model: "fake-model" });
  assertEquals((await compactor.compact(conversation(1), makeTestCtx())).length, 3);
  await assertRejects(() => compactor.compact(conversation(3), makeTestCtx()), NoInvoker);
  await assertRejects(() => compactor.compact(conversation(3), new FakeCtx()), NoInvoker);
});

Deno.test("SummaryCompactor inside RequestBuilder compacts a long working context before the model sees it", async () => {
  const llm = new FakeLLM("ok");
  const agent = new Agent("a", {
    model: "fake-model",
    system: "sys prompt",
    builder: new RequestBuilder({
      compactor: new SummaryCompactor({ maxTokens: 40, keepRecent: 1 }),
    }),
  });
  await agent.run("the question", makeTestCtx({ llm }), { context: conversation(4).slice(1) });
  const seen = llm.requests[0].messages;
  assertEquals(seen.map((m) => m.role), ["system", "system", "user"]);
  assertEquals(seen[2].content, "the question");
});

Deno.test("SummaryCompactor.compact() rejects with the abort reason once cancelled", async () => {
  const controller = new AbortController();
  const reason = new Error("stop");
  controller.abort(reason);
  const compactor = new SummaryCompactor({ maxTokens: 10 });
  assertStrictEquals(
    await assertRejects(() =>
      compactor.compact(conversation(5), new FakeCtx({ signal: controller.signal }))
    ),
    reason,
  );
});

Deno.test("SummaryCompactor validates its options when built", () => {
  assertThrows(() => new SummaryCompactor({ maxTokens: 0 }), RangeError, "maxTokens");
  assertThrows(() => new SummaryCompactor({} as never), TypeError, "maxTokens");
  assertThrows(
    () => new SummaryCompactor({ maxTokens: 9, keepRecent: -1 }),
    RangeError,
    "keepRecent",
  );
  assertThrows(
    () => new SummaryCompactor({ maxTokens: 9, keep: 2 } as never),
    TypeError,
    'unknown option "keep"',
  );
});

// The extract's budget, made exact: every dropped message weighs 1,000
// estimated tokens and the recent one none, so with maxTokens 500 the extract
// has room for 4 * 496 - SUMMARY_PREFIX.length - 1 = 1,947 characters.
const ROOM = 4 * 496 - SUMMARY_PREFIX.length - 1;
const weighed = () =>
  new SummaryCompactor({
    maxTokens: 500,
    keepRecent: 1,
    estimate: (m) => m.content === "recent" ? 0 : 1_000,
  });
/** A dropped user message whose extract line is `length` characters long. */
const lineOf = (length: number): Message => ({
  role: "user",
  content: length >= 168 ? "x".repeat(200) : "y".repeat(length - "- user: ".length),
});
const extractOf = async (lengths: number[]): Promise<string[]> => {
  const messages = [...lengths.map(lineOf), { role: "user" as const, content: "recent" }];
  const out = await weighed().compact(messages, new FakeCtx());
  assertEquals(out.at(-1)?.content, "recent");
  return out[0].content.split("\n").slice(1);
};

Deno.test("SummaryCompactor's extract keeps every line when they fit the room exactly", async () => {
  assertEquals(ROOM, 1_947);
  // Eleven full lines (168 characters) and one of 88, a newline between each: 1,947.
  const fits = await extractOf([...Array(11).fill(168), 88]);
  assertEquals(fits.map((l) => l.length), [...Array(11).fill(168), 88]);
  // One character more and the middle is elided.
  const over = await extractOf([...Array(11).fill(168), 89]);
  assertEquals(over[1], "- (1 more)");
  assertEquals(over.length, 12);
});

Deno.test("SummaryCompactor's extract fills what is left after the task with the latest lines", async () => {
  // Room after the first line and the "(13 more)" line: 1,947 - 169 - 12 = 1,766,
  // which ten full lines (1,690) and one line of 75 (+ its newline) fill exactly.
  const exact = await extractOf([168, 168, 75, ...Array(10).fill(168)]);
  assertEquals(exact.map((l) => l.length), [168, "- (1 more)".length, 75, ...Array(10).fill(168)]);
  assertEquals(exact[1], "- (1 more)");
  // A line of 76 no longer fits: two lines are elided.
  const over = await extractOf([168, 168, 76, ...Array(10).fill(168)]);
  assertEquals(over[1], "- (2 more)");
  assertEquals(over.length, 12);
});

Deno.test("SummaryCompactor's extract shows tool calls and squeezes whitespace", async () => {
  const messages: Message[] = [
    { role: "user", content: "  check\n\nthe   host  " },
    {
      role: "assistant",
      content: "looking",
      toolCalls: [toolCall("c1", "lookup", { host: "a" }), {
        id: "c2",
        name: "ping",
        args: {},
        rawArgs: "{bad json",
      }],
    },
    { role: "assistant", content: "", toolCalls: [toolCall("c3", "ping", {})] },
    { role: "tool", content: "z".repeat(160), toolCallId: "c3" },
    { role: "user", content: "recent" },
  ];
  const out = await weighed().compact(messages, new FakeCtx());
  assertEquals(out[0].content.split("\n").slice(1), [
    "- user: check the host",
    '- assistant: looking [called lookup({"host":"a"}), ping({bad json)]',
    "- assistant: [called ping({})]",
    `- tool: ${"z".repeat(160)}`,
  ]);
});

Deno.test("SummaryCompactor: a transcript with nothing to drop comes back as is", async (t) => {
  await t.step("only system prompts", async () => {
    const ctx = new FakeCtx();
    const systems: Message[] = [
      { role: "system", content: "a".repeat(100) },
      { role: "system", content: "b".repeat(100) },
    ];
    const out = await new SummaryCompactor({ maxTokens: 10 }).compact(systems, ctx);
    assertEquals(out, systems);
    assertEquals(ctx.spans.length, 0);
  });
  await t.step("everything is recent", async () => {
    const ctx = new FakeCtx();
    const out = await new SummaryCompactor({ maxTokens: 10, keepRecent: 20 }).compact(
      conversation(3),
      ctx,
    );
    assertEquals(out, conversation(3));
    assertEquals(ctx.spans.length, 0);
  });
  await t.step("keepRecent: 0 summarises every turn", async () => {
    let dropped: readonly Message[] = [];
    const out = await new SummaryCompactor({
      maxTokens: 10,
      keepRecent: 0,
      summarise: (d) => {
        dropped = d;
        return "all of it";
      },
    }).compact(conversation(2), new FakeCtx());
    assertEquals(out, [conversation(2)[0], {
      role: "system",
      content: `${SUMMARY_PREFIX}\nall of it`,
    }]);
    assertEquals(dropped, conversation(2).slice(1));
  });
});

Deno.test("SummaryCompactor.compact() traces one internal compact span, ended", async () => {
  const ctx = new FakeCtx();
  await new SummaryCompactor({ maxTokens: 40, keepRecent: 2 }).compact(conversation(4), ctx);
  assertEquals(ctx.spans.map((s) => [s.name, s.kind, s.ended]), [["compact", "internal", true]]);
});

Deno.test("SummaryCompactor: NoInvoker names the compactor; options are checked by name", async () => {
  const compactor = new SummaryCompactor({ maxTokens: 30, keepRecent: 2, model: "fake-model" });
  const e = await assertRejects(() => compactor.compact(conversation(3), new FakeCtx()), NoInvoker);
  assert(e.message.includes('"SummaryCompactor"'), e.message);
  assertThrows(
    () => new SummaryCompactor({ maxTokens: 1.5 }),
    RangeError,
    'new SummaryCompactor(): option "maxTokens"',
  );
  assertThrows(
    () => new SummaryCompactor({ maxTokens: 9, summarize: () => "" } as never),
    TypeError,
    'the option is spelled "summarise"',
  );
});
