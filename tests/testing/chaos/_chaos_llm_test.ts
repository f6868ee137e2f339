// ChaosLLM: what each call tells the run (entered with which signal and
// budget, left, billed what), on chat, complete and stream, answered or failed.
import { assertEquals, assertRejects } from "@std/assert";
import { Budget } from "@agentkit/testing/runtime";
import { ProviderError, type Usage } from "@agentkit/testing/ports";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
import { ChaosLLM } from "../../../testing/chaos/_chaos_llm.ts";

const USAGE: Usage = { inputTokens: 7, outputTokens: 3 };

function recorded(turns: Parameters<typeof FakeLLM.script>[0]) {
  const log: unknown[] = [];
  const llm = new ChaosLLM(FakeLLM.script(turns, { allowUnused: true }), {
    enter: (signal, budget) => log.push(["enter", signal, budget]),
    leave: () => log.push(["leave"]),
    bill: (usage) => log.push(["bill", usage]),
  });
  return { llm, log };
}

const REQUEST = { model: "m", messages: [{ role: "user" as const, content: "q" }] };

Deno.test("chat: entered with the request's signal, else the context's, and its Budget; left, then billed", async () => {
  const { llm, log } = recorded([{ content: "a", usage: USAGE }, { content: "b", usage: USAGE }]);
  const budget = new Budget({ maxCalls: 5 });
  const ctx = makeTestCtx({ budget });
  const own = new AbortController().signal;
  await llm.chat({ ...REQUEST, signal: own }, ctx);
  await llm.chat(REQUEST, ctx);
  assertEquals(log, [
    ["enter", own, budget],
    ["leave"],
    ["bill", USAGE],
    ["enter", ctx.signal, budget],
    ["leave"],
    ["bill", USAGE],
  ]);
});

Deno.test("chat without a context, or with a budget that is not a Budget: no budget", async () => {
  const { llm, log } = recorded(["a", "b"]);
  await llm.chat(REQUEST);
  await llm.chat(REQUEST, { ...makeTestCtx(), budget: { calls: 0 } } as never);
  assertEquals(log[0], ["enter", undefined, undefined]);
  assertEquals((log[3] as unknown[])[2], undefined);
});

Deno.test("a failed call is left; billed only when the provider reported usage", async () => {
  const withUsage = new ProviderError("boom", { usage: USAGE });
  const { llm, log } = recorded([{ error: withUsage }, { error: new ProviderError("bare") }]);
  await assertRejects(() => llm.chat(REQUEST), ProviderError, "boom");
  await assertRejects(() => llm.chat(REQUEST), ProviderError, "bare");
  assertEquals(log.map((e) => (e as unknown[])[0]), ["enter", "leave", "bill", "enter", "leave"]);
  assertEquals(log[2], ["bill", USAGE]);
});

Deno.test("complete: the same record as chat", async () => {
  const { llm, log } = recorded([{ content: "a", usage: USAGE }, { error: new Error("plain") }]);
  const r = await llm.complete({ model: "m", system: "s", user: "q" });
  assertEquals(r.content, "a");
  await assertRejects(() => llm.complete({ model: "m", system: "s", user: "q" }), Error, "plain");
  assertEquals(log, [["enter", undefined, undefined], ["leave"], ["bill", USAGE], [
    "enter",
    undefined,
    undefined,
  ], ["leave"]]);
});

Deno.test("stream: billed once at message_end, left when the stream ends", async () => {
  const { llm, log } = recorded([{ content: "hello there", usage: USAGE }]);
  const types: string[] = [];
  for await (const e of llm.stream(REQUEST)) {
    types.push(e.type);
    if (e.type === "message_end") assertEquals(log.at(-1), ["bill", USAGE]);
  }
  assertEquals(types.at(-1), "message_end");
  assertEquals(log.filter((e) => (e as unknown[])[0] === "bill").length, 1);
  assertEquals(log.at(-1), ["leave"]);
});

Deno.test("stream: a failed stream is billed once, what its error event reports", async () => {
  const { llm, log } = recorded([
    { error: new ProviderError("cut", { usage: USAGE }) },
    { content: "abc", failAfterChunks: 1 },
  ]);
  for (let i = 0; i < 2; i++) {
    const before = log.length;
    const reported: Usage[] = [];
    await (async () => {
      for await (const e of llm.stream(REQUEST)) {
        if (e.type === "error" && e.usage) reported.push(e.usage);
      }
    })().catch(() => {});
    if (i === 0) assertEquals(reported.length, 1, "the cut stream reported its usage");
    const mine = log.slice(before);
    assertEquals(
      mine.filter((e) => (e as unknown[])[0] === "bill"),
      reported.slice(0, 1).map((u) => ["bill", u]),
    );
    assertEquals(mine.at(-1), ["leave"]);
  }
});

Deno.test("a call without a request is entered, then refused by the model as FakeLLM refuses it", async () => {
  const plain = FakeLLM.script(["a"], { allowUnused: true });
  const expected = await plain.chat(undefined as never).then(() => undefined, (e) => e);
  for (const call of ["chat", "stream"] as const) {
    const { llm, log } = recorded(["a"]);
    const p = call === "stream"
      ? (async () => {
        for await (const _ of llm.stream(undefined as never)) { /* drain */ }
      })()
      : llm.chat(undefined as never);
    const error = await p.then(() => undefined, (e) => e);
    assertEquals(log[0], ["enter", undefined, undefined], call);
    assertEquals(error?.name, expected?.name, call);
  }
});
