// ChaosFailure's text: what broke, the faults in order, both ways to replay
// it and the run, every part masked by value (the reproduction is source
// meant to be pasted into a committed test).
import { assertEquals, assertFalse } from "@std/assert";
import { registerSecret } from "@agentkit/testing/runtime";
import { ChaosFailure } from "@agentkit/testing/testing";

Deno.test("ChaosFailure lists the faults in order, joined with '; ', and masks a registered secret everywhere", () => {
  const secret = `plainword${10_000 + Math.floor(Math.random() * 89_999)}`;
  registerSecret(secret);
  const failure = new ChaosFailure({
    seed: 7,
    path: "0:1",
    invariant: "never leaks",
    problem: `it printed ${secret}`,
    schedule: [{ label: "turn 1: rate limited" }, { label: `turn 2: error ${secret}` }] as never,
    transcript: `user: ${secret}`,
    reproduction: `FakeLLM.script([{ error: "${secret}" }])`,
    outcome: {} as never,
  });
  assertEquals(
    failure.message.split("\n").slice(0, 3),
    [
      'chaos(): invariant "never leaks" broke: it printed [REDACTED]',
      "shrunk to the faults: turn 1: rate limited; turn 2: error [REDACTED]",
      'replay it: chaos(scenario, { ...options, seed: 7, path: "0:1" })',
    ],
  );
  assertEquals(failure.faults, "turn 1: rate limited; turn 2: error [REDACTED]");
  assertEquals([failure.transcript, failure.reproduction], [
    "user: [REDACTED]",
    'FakeLLM.script([{ error: "[REDACTED]" }])',
  ]);
  assertFalse(failure.message.includes(secret), failure.message);
  const none = new ChaosFailure({
    seed: 1,
    path: "",
    invariant: "i",
    problem: "p",
    schedule: [],
    transcript: "",
    reproduction: "",
    outcome: {} as never,
  });
  assertEquals([none.faults, none.message.split("\n")[1]], ["none", "shrunk to the faults: none"]);
});
