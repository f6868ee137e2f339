import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { Agent, type Cognition } from "@agentkit/testing/runtime";
import { ProviderResponseError, type StreamEvent } from "@agentkit/testing/ports";
import {
  drainChunks,
  drainedSettled,
  drainEvents,
  FakeClock,
  FakeLLM,
  makeTestCtx,
  RunNotSettled,
  runSettled,
} from "@agentkit/testing/testing";

const agent = new Agent("a", { model: "fake-model" });

Deno.test("runSettled() returns the result of a run that finished, even before the test looked", async () => {
  const run = agent.start("go", makeTestCtx({ llm: FakeLLM.script([{ chunks: ["o", "k"] }]) }));
  await run.result; // finished before the helper is called
  const result = await runSettled(run, "the scripted run");
  assertEquals([result.output, result.stopReason], ["ok", "stop"]);
});

Deno.test("runSettled() rejects with the run's own error when the run failed", async () => {
  const llm = FakeLLM.script([{ content: "x", error: "provider fell over" }]);
  const run = agent.start("go", makeTestCtx({ llm }));
  await assertRejects(() => runSettled(run, "the failing run"), ProviderResponseError, "fell over");
});

Deno.test("runSettled() fails loudly, naming the label, instead of hanging on a run that never finishes", async () => {
  const gate = Promise.withResolvers<void>();
  const llm = FakeLLM.script([{ content: "late", gate: gate.promise }]);
  const run = agent.start("go", makeTestCtx({ llm }));
  const error = await assertRejects(
    () => runSettled(run, "the gated run", { timeoutMs: 10 }),
    RunNotSettled,
    "the gated run did not finish within 10 ms",
  );
  assertEquals([error.name, error.label, error.waitedFor, error.timeoutMs], [
    "RunNotSettled",
    "the gated run",
    "finish",
    10,
  ]);
  // The run itself is untouched: open the gate and it finishes. The resource
  // and op sanitizers would fail this test if the safety-net timer leaked.
  gate.resolve();
  assertEquals((await runSettled(run, "the gated run")).output, "late");
});

Deno.test("runSettled() keeps its safety net on real time while a FakeClock drives the globals", async () => {
  const clock = new FakeClock();
  using _installed = clock.install();
  const run = agent.start("go", makeTestCtx({ llm: new FakeLLM("ok", { delayMs: 5_000 }), clock }));
  // Virtual time jumps 5 s for the model's delay; a 1 s safety net on the
  // installed (virtual) setTimeout would have fired first.
  assertEquals((await runSettled(run, "the delayed run", { timeoutMs: 1_000 })).output, "ok");
  assertEquals(clock.now(), 5_000);
});

Deno.test("drainedSettled() waits past runSettled() on a cancelled run, until it stops producing", async () => {
  const exited = Promise.withResolvers<void>();
  let strayAttempts = 0;
  const cognition: Cognition = {
    name: "child-process",
    run: () => Promise.reject(new Error("stream only")),
    async *stream(_input, ctx): AsyncGenerator<StreamEvent> {
      yield { type: "message_start", messageId: "m" };
      try {
        await new Promise((_, reject) => ctx.signal.addEventListener("abort", reject));
      } finally {
        await exited.promise; // the child takes its time to exit
        strayAttempts++;
        yield { type: "text_delta", messageId: "m", content: "late output" };
      }
    },
  };
  const run = new Agent("a", { model: "m", cognition }).start("go", makeTestCtx());
  await new Promise((resolve) => setTimeout(resolve, 0)); // let it reach the child's wait
  run.cancel(new Error("stop"));
  await assertRejects(() => runSettled(run, "the cancelled run"), Error, "stop");
  const error = await assertRejects(
    () => drainedSettled(run, "the cancelled run", { timeoutMs: 10 }),
    RunNotSettled,
    "the cancelled run did not stop producing within 10 ms",
  );
  assertEquals([error.name, error.waitedFor, error.timeoutMs], ["RunNotSettled", "drain", 10]);
  exited.resolve();
  await drainedSettled(run, "the cancelled run");
  // Only now is "nothing else arrived" worth asserting.
  assertEquals(strayAttempts, 1);
  assertEquals((await drainEvents(run)).map((e) => e.type), ["message_start"]);
});

Deno.test("drainEvents() and drainChunks() give every event, from the buffer, even of a failed run", async () => {
  const llm = FakeLLM.script([{ chunks: ["a", "b"], failAfterChunks: 1 }]);
  const run = agent.start("go", makeTestCtx({ llm }));
  const events = await drainEvents(run);
  assertEquals(events.map((e) => e.type), ["message_start", "text_delta", "error"]);
  assertEquals(await drainEvents(run), events); // a second drain gives the same
  assertEquals((await drainChunks(run)).map((c) => c.delta), [undefined, "a", undefined]);
  await assertRejects(() => run.result, ProviderResponseError);
});

Deno.test("runSettled() and drainedSettled() validate their options", async () => {
  const run = agent.start("go", makeTestCtx({ llm: new FakeLLM("ok") }));
  assertThrows(
    // deno-lint-ignore no-explicit-any
    () => runSettled(run, "r", { timeout: 5 } as any),
    TypeError,
    'unknown option "timeout"; did you mean "timeoutMs"?',
  );
  assertThrows(
    () => drainedSettled(run, "r", { timeoutMs: -1 }),
    RangeError,
    "must be a finite number 1 or more, got -1",
  );
  await run.result;
});

Deno.test("runSettled() and drainedSettled() name themselves in an option error, and take no options as none", async () => {
  const run = agent.start("go", makeTestCtx({ llm: new FakeLLM("ok") }));
  for (
    const [fn, name] of [[runSettled, "runSettled"], [drainedSettled, "drainedSettled"]] as const
  ) {
    for (const timeoutMs of [0, 0.5, NaN, Infinity]) {
      assertThrows(
        () => fn(run, "r", { timeoutMs }),
        RangeError,
        `${name}(): option "timeoutMs" must be a finite number 1 or more`,
      );
    }
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => fn(run, "r", { timeoutMs: "5" } as any),
      TypeError,
      `${name}(): option "timeoutMs"`,
    );
  }
  // deno-lint-ignore no-explicit-any
  assertEquals((await runSettled(run, "r", null as any)).output, "ok");
  // deno-lint-ignore no-explicit-any
  await drainedSettled(run, "r", undefined as any);
});
