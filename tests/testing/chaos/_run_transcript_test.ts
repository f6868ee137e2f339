// ChaosFailure.transcript: the conversation as the model last saw it (an
// agent's result, else the last request and the turn played), the faults,
// the counts, and how the run ended, secrets redacted.
import { assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { Agent, ReActCognition } from "@agentkit/testing/runtime";
import { type Message, RateLimitError, toolCall } from "@agentkit/testing/ports";
import {
  chaos,
  ChaosFailure,
  type ChaosOptions,
  type ChaosWorld,
  FakeTool,
} from "@agentkit/testing/testing";

const lookup = new FakeTool({ name: "lookup", responder: "42" });
const fail = () => {
  throw new Error("always");
};
const failing = (
  scenario: (w: ChaosWorld) => unknown,
  options: Partial<ChaosOptions> = {},
): Promise<ChaosFailure> =>
  assertRejects(
    () =>
      chaos(scenario, {
        script: ["hi"],
        seed: 1,
        runs: 1,
        maxFaults: 0,
        invariants: fail,
        ...options,
      }),
    ChaosFailure,
  );

Deno.test("an agent's result: its transcript, the faults, the counts, returned", async () => {
  const f = await failing(
    (w) =>
      new Agent("a", {
        model: "fake-model",
        cognition: new ReActCognition({ tools: [w.tool(lookup)] }),
      })
        .run("What is it?", w.ctx()),
    { script: [{ toolCalls: [toolCall("c1", "lookup", {})] }, "It is 42."] },
  );
  assertEquals(
    f.transcript,
    [
      "user: What is it?",
      // The result's own transcript: ReAct's call ids, its stop reason and usage.
      "assistant calls lookup [call_1] {}",
      "tool lookup [call_1]: 42",
      "assistant: It is 42.",
      "stop reason: stop",
      "usage: 20 input tokens, 0 output tokens",
      "faults: none",
      "model calls: 2; tool calls: 1; virtual time: 0 ms",
      "ended: returned",
    ].join("\n"),
  );
});

Deno.test("any other result: the last request and the turn played after it", async () => {
  const f = await failing(async (w) => {
    const messages: Message[] = [{ role: "system", content: "be brief" }, {
      role: "user",
      content: "q",
    }];
    return (await w.llm.chat({ model: "fake-model", messages })).content;
  });
  assertEquals(f.transcript.split("\n").slice(0, 3), [
    "system: be brief",
    "user: q",
    "assistant: hi",
  ]);
  assertStringIncludes(f.transcript, "\nmodel calls: 1; tool calls: 0; virtual time: 0 ms\n");
});

Deno.test("a fault's turn is not shown as the model's answer; the faults are listed", async () => {
  const f = await failing(async (w) => {
    await w.clock.sleep(250);
    return await w.llm.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] });
  }, {
    faults: ["rateLimit"],
    maxFaults: 1,
    runs: 30,
    invariants: (o) => {
      if (o.faults.length) throw new Error("a fault fired");
    },
  });
  const lines = f.transcript.split("\n");
  assertEquals(lines[0], "user: q");
  assertEquals(lines[1], `faults: ${f.outcome.faults[0].label}`);
  assertStringIncludes(lines.at(-1)!, "ended: threw RateLimitError: ");
  assertStringIncludes(f.transcript, "virtual time: 250 ms");
});

Deno.test("two faults are listed in the order they fired, joined by a semicolon", async () => {
  const f = await failing(async (w) => {
    for (let i = 0; i < 3; i++) {
      await w.llm.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] }).catch(
        () => {},
      );
    }
    return "done";
  }, {
    script: ["a", "b", "c"],
    faults: ["rateLimit"],
    maxFaults: 2,
    runs: 50,
    skip: ["noHarnessError"],
    invariants: (o) => {
      if (o.faults.length >= 2) throw new Error("two faults fired");
    },
  });
  assertEquals(f.outcome.faults.length, 2);
  assertStringIncludes(
    f.transcript,
    `\nfaults: ${f.outcome.faults[0].label}; ${f.outcome.faults[1].label}\n`,
  );
});

Deno.test("a run that threw: its error's name and message, with a secret redacted", async () => {
  const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
  const f = await failing(async (w) => {
    await w.llm.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] });
    throw new RateLimitError(`quota for ${secret}`);
  });
  assertStringIncludes(f.transcript, "ended: threw RateLimitError: quota for ");
  assertEquals(f.transcript.includes(secret), false, "the key is redacted");
  const text = await failing(async (w) => {
    await w.llm.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] });
    throw "a string";
  });
  assertEquals(text.transcript.split("\n").at(-1), "ended: threw a string");
});

Deno.test("a stopped run: what it did after the stop; a hung one: left", async () => {
  const loop = async (w: ChaosWorld) => {
    for (;;) await w.llm.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] });
  };
  const stopped = await failing(loop, {
    script: () => "again",
    maxSteps: 3,
    skip: ["typedFailure"],
  });
  assertEquals(stopped.outcome.status, "stopped");
  assertStringIncludes(stopped.transcript, "\nended: stopped by chaos(), then threw ");
  const returned = await failing(async (w) => {
    await w.llm.chat({ model: "fake-model", messages: [] }).catch(() => {});
    await w.clock.sleep(120_000).catch(() => {});
    return "late";
  }, { maxVirtualMs: 60_000 });
  assertEquals(returned.outcome.status, "stopped");
  assertEquals(returned.transcript.split("\n").at(-1), "ended: stopped by chaos(), then returned");
  const hung = await failing(async (w) => {
    await w.llm.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] });
    await new Promise(() => {});
  }, { hangMs: 5 });
  assertEquals(
    hung.transcript.split("\n").at(-1),
    "ended: hung (did not settle even after chaos() stopped it)",
  );
});
