import { assert, assertEquals, assertRejects } from "@std/assert";
import { Agent, HarnessError, meter, retry } from "../../../runtime/mod.ts";
import { AssertionError, evaluate, FakeLLM, trials } from "../../../testing/mod.ts";

const agent = new Agent("t", { model: "fake-model" });
const aborted = (signal: AbortSignal) =>
  new Promise<string>((resolve) =>
    signal.addEventListener("abort", () => resolve(String(signal.reason?.message)))
  );

Deno.test("trials(): a subclass of AssertionError with its own name is a failure", async () => {
  class RefundWrong extends AssertionError {
    override name = "RefundWrong";
  }
  const r = await trials(() => {
    throw new RefundWrong("refund was 12, wanted 10");
  }, { n: 1, seed: 1 });
  assertEquals([r.failures, r.trials[0].error?.name], [1, "RefundWrong"]);
});

Deno.test("trials(): the signal aborts running trials when the budget is reached", async () => {
  let reason = "";
  const r = await trials(async (trial) => {
    if (trial.index === 0) {
      await Promise.resolve();
      trial.charge(1);
      return;
    }
    reason = await aborted(trial.signal);
  }, { n: 5, concurrency: 2, budgetUsd: 1, seed: 1 });
  assertEquals(reason, "trials stopped: budget");
  assertEquals([r.n, r.stoppedBy], [2, "budget"]);
});

Deno.test("trials(): the signal aborts running trials when earlyStop decides", async () => {
  let reason = "";
  const r = await trials(async (trial) => {
    if (trial.index === 0) return;
    reason = await aborted(trial.signal);
    throw new Error("gave up");
  }, { n: 5, concurrency: 2, threshold: 0.1, earlyStop: true, seed: 1 });
  assertEquals(reason, "trials stopped: earlyStop");
  assertEquals([r.n, r.stoppedBy, r.errors], [2, "earlyStop", 1]);
});

Deno.test("trials(): a harness error aborts the trials still running, then is thrown", async () => {
  let reason = "";
  await assertRejects(
    () =>
      trials(async (trial) => {
        if (trial.index === 0) {
          await Promise.resolve();
          throw new HarnessError("the script ran out");
        }
        reason = await aborted(trial.signal);
      }, { n: 3, concurrency: 2, seed: 1 }),
    HarnessError,
    "the script ran out",
  );
  assertEquals(reason, "the script ran out");
});

Deno.test("trials(): decided on the last trial, nothing was stopped", async () => {
  const r = await trials(() => {}, { n: 4, threshold: 0.5, earlyStop: true, seed: 1 });
  assertEquals([r.n, r.stoppedBy], [4, undefined]); // 4/4: [0.510, 1] decides at the fourth
});

Deno.test("trials(): outcomes hold only what is known", async () => {
  const r = await trials((trial) => {
    if (trial.index === 1) {
      trial.charge("0.5");
      throw new AssertionError("no");
    }
    trial.charge(0); // nothing spent is no spend
  }, { n: 2, seed: 1 });
  assertEquals(Object.keys(r.trials[0]), ["index", "seed", "outcome"]);
  assertEquals(Object.keys(r.trials[1]), ["index", "seed", "outcome", "error", "spentUsd"]);
  assertEquals(r.trials[1].spentUsd, 0.5);
  const e = await evaluate([{ name: "a", input: "x", expected: "x" }], (i) => i, {
    config: false,
    trials: 1,
  });
  assertEquals(Object.keys(e.trials[0]), ["index", "seed", "case", "outcome", "answer"]);
});

Deno.test("trials(): transcripts from odd sources", async (t) => {
  await t.step(
    "a thrown null, an empty transcript, a model that is not a FakeLLM: none",
    async () => {
      const plainModel = new FakeLLM("x");
      const notFake = {
        chat: plainModel.chat.bind(plainModel),
        stream: plainModel.stream.bind(plainModel),
        complete: plainModel.complete.bind(plainModel),
      };
      const r = await trials(async (trial) => {
        if (trial.index === 0) throw null;
        if (trial.index === 1) throw Object.assign(new Error("x"), { transcript: "" });
        await agent.run("hi", trial.ctx({ llm: notFake as never }));
        throw new Error("after a run");
      }, { n: 3, seed: 1 });
      assertEquals(r.trials.map((x) => x.transcript), [undefined, undefined, undefined]);
      assertEquals(r.trials[0].error, { name: "object", message: "null" });
    },
  );
  await t.step("a record that is not transcribable says so", async () => {
    const r = await trials((trial) => {
      trial.record(42 as never);
      throw new Error("x");
    }, { n: 1, seed: 1 });
    assert(r.trials[0].transcript?.startsWith("(no transcript: "), r.trials[0].transcript);
  });
});

Deno.test("trial.ctx(): a budget wherever meter() is in the chain, none without it", async () => {
  const r = await trials(async (trial) => {
    const llm = new FakeLLM("ok", { usage: { inputTokens: 1000, outputTokens: 0 } });
    await agent.run("hi", trial.ctx({ llm, chatMiddleware: [retry(), meter()] }));
  }, { n: 2, seed: 1 });
  assert(r.spentUsd > 0 && r.trials.every((x) => x.spentUsd! > 0));
  const none = await trials(async (trial) => {
    await agent.run("hi", trial.ctx({ llm: new FakeLLM("ok"), chatMiddleware: [retry()] }));
  }, { n: 1, seed: 1 });
  assertEquals([none.passes, none.spentUsd], [1, 0]);
});

Deno.test("trials(): a returned thenable that is not a Promise is awaited; its rejection counts", async () => {
  const settled: number[] = [];
  const r = await trials((trial) => ({
    then(resolve: () => void, reject: (e: unknown) => void) {
      queueMicrotask(() => {
        settled.push(trial.index);
        if (trial.index === 1) reject(new AssertionError("late no"));
        else if (trial.index === 2) reject(new Error("late break"));
        else resolve();
      });
    },
  }), { n: 3, seed: 1 });
  assertEquals(settled, [0, 1, 2]);
  assertEquals([r.passes, r.failures, r.errors], [1, 1, 1]);
  assertEquals(r.failed.map((t) => t.error?.message), ["late no", "late break"]);
});

Deno.test("trials(): a synchronous trial and what it returns (not a promise) are not awaited", async () => {
  const order: string[] = [];
  const r = await trials((trial) => {
    order.push(`trial ${trial.index}`);
    if (trial.index === 0) queueMicrotask(() => order.push("microtask"));
    return trial.index === 1 ? { then: "not a function" } : 7;
  }, { n: 3, seed: 1 });
  // The trials ran back to back: the microtask queued by trial 0 ran after them all.
  assertEquals(order, ["trial 0", "trial 1", "trial 2", "microtask"]);
  assertEquals(r.passes, 3);
});
