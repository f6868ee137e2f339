// FakeLLM's options are checked when it is built: each bad value below differs
// from an accepted one in one thing, so a check that is deleted or loosened
// shows up as a construction that no longer throws.
import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { type ChatRequest, ProviderTimeoutError, RateLimitError } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, type FakeLLMOptions, makeTestCtx } from "@agentkit/testing/testing";

const req: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };

Deno.test("FakeLLM accepts every documented option, at its boundary values", async () => {
  const clock = new FakeClock();
  const options: Required<FakeLLMOptions> = {
    failTimes: 0,
    failWith: new RateLimitError(),
    delayMs: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    strict: true,
    repeatLast: true,
    allowUnused: true,
    model: "named",
    strictTools: false,
  };
  const llm = new FakeLLM({ hi: "hello" }, options);
  const r = await llm.chat(req, makeTestCtx({ clock }));
  assertEquals([r.content, r.model, r.usage, llm.calls], ["hello", "named", {
    inputTokens: 0,
    outputTokens: 0,
  }, 1]);
  assertEquals(clock.sleeps, [], "delayMs 0 does not wait");
  for (const [key, value] of Object.entries(options)) {
    const one = { [key]: value, ...(key === "failWith" ? { failTimes: 1 } : {}) };
    new FakeLLM("x", one);
    FakeLLM.script(["x"], one);
  }
});

Deno.test("FakeLLM rejects options that are not an object", () => {
  for (const options of [null, "strict", 3, true]) {
    assertThrows(() => new FakeLLM("x", options as never), Error, "options");
    assertThrows(() => FakeLLM.script(["x"], options as never), Error, "options");
  }
});

Deno.test("FakeLLM rejects an unknown option and names the one meant", () => {
  for (const [key, meant] of [["failtimes", "failTimes"], ["delay", "delayMs"]]) {
    const e = assertThrows(() => new FakeLLM("x", { [key]: 1 } as never), Error, key);
    assertEquals(e.message.includes(meant), true, e.message);
  }
  assertThrows(() => new FakeLLM("x", { zzzzzzzzzzzz: 1 } as never), Error, "zzzzzzzzzzzz");
});

Deno.test("FakeLLM rejects a failTimes that is not a count", () => {
  for (const failTimes of [-1, 1.5, NaN, Infinity, "2"]) {
    assertThrows(
      () => new FakeLLM("x", { failTimes } as never),
      Error,
      "failTimes",
      String(failTimes),
    );
  }
});

Deno.test("FakeLLM rejects a failWith that is not an Error, or that has no failTimes", async () => {
  assertThrows(
    () => new FakeLLM("x", { failTimes: 1, failWith: "boom" as never }),
    Error,
    "failWith",
  );
  assertThrows(() => new FakeLLM("x", { failTimes: 1, failWith: { message: "m" } as never }));
  assertThrows(() => new FakeLLM("x", { failWith: new RateLimitError() }), Error, "failTimes");
  const llm = new FakeLLM("x", { failTimes: 1, failWith: new RateLimitError("busy") });
  await assertRejects(() => llm.chat(req), RateLimitError, "busy");
  assertEquals((await llm.chat(req)).content, "x");
});

Deno.test("FakeLLM without failWith fails with one ProviderTimeoutError, the same each time", async () => {
  const llm = new FakeLLM("x", { failTimes: 2 });
  const first = await assertRejects(() => llm.chat(req), ProviderTimeoutError);
  const second = await assertRejects(() => llm.chat(req), ProviderTimeoutError);
  assertEquals([first === second, first.retryable, first.phase], [true, true, "pre_stream"]);
});

Deno.test("FakeLLM rejects a delayMs that is not a non-negative finite number", () => {
  for (const delayMs of [-1, NaN, Infinity, "5"]) {
    assertThrows(() => new FakeLLM("x", { delayMs } as never), Error, "delayMs", String(delayMs));
  }
});

Deno.test("FakeLLM rejects a malformed usage when built, not at the first call", () => {
  for (const usage of [{ inputTokens: -1, outputTokens: 0 }, { inputTokens: 1 }, "10"]) {
    assertThrows(() => new FakeLLM("x", { usage } as never), Error, "usage", JSON.stringify(usage));
  }
});

Deno.test("FakeLLM rejects an answer that is not text, a map or a function", () => {
  for (const answer of [null, undefined, 42, ["a"]]) {
    assertThrows(() => new FakeLLM(answer as never), Error, "FakeLLM", String(answer));
  }
  assertThrows(() => new FakeLLM({ k: 42 } as never), Error, '"k"');
  assertThrows(() => FakeLLM.script("a" as never), Error, "array");
  assertThrows(() => FakeLLM.script(null as never), Error, "null");
});
