/**
 * The evaluation harness on an agent module: start it, hold a conversation
 * in one session, and check each reply offline (no model, no network).
 *
 * Run it: `deno run --allow-read --allow-env examples/agent_test_harness.ts`
 */
import { AgentTest, EvaluationFailed } from "@agentkit/testing";
import { assertEquals, assertRejects } from "@std/assert";

const moduleUrl = new URL("./agents/support_agent.ts", import.meta.url);

// `await using` stops the harness at the end of the block.
await using test = await AgentTest.start(moduleUrl, { config: false });

const first = await test.send("Where is my order A-17?");
console.log("first answer:", first); // first answer: Order A-17 has been shipped.
assertEquals(first, "Order A-17 has been shipped.");
await test.expect(["Order A-17 has been shipped."]);

// A follow-up that only makes sense with the first turn: the session carries it.
const second = await test.send("When will it arrive?");
console.log("second answer:", second); // second answer: Order A-17 should arrive Friday.
assertEquals(second, "Order A-17 should arrive Friday.");
await test.expect(["Order A-17 should arrive Friday"]);

// A fuzzy comparison for answers whose wording may drift.
const fuzzy = await test.expect(["Order A-17 should arrive on Friday."], {
  evaluator: "levenshtein",
  threshold: 0.8,
});
console.log("levenshtein score:", fuzzy.metrics[0].score.toFixed(2)); // levenshtein score: 0.91
assertEquals(fuzzy.metrics[0].score.toFixed(2), "0.91");

// The guardrail hook halts before the model sees a card number.
const halted = await test.send("My card is 4111 1111 1111 1111, refund me");
assertEquals(test.results.at(-1)?.stopReason, "halted");
console.log("halted reply:", halted); // halted reply: Please never share card numbers here; our team will not ask for them.
assertEquals(halted, "Please never share card numbers here; our team will not ask for them.");

// A wrong expectation fails with an AssertionError that shows the scores.
const failure = await assertRejects(() => test.expect(["Refund issued."]), EvaluationFailed);
console.log("failure:", failure.message.split("\n")[0]); // failure: The answer did not pass (mode score, evaluator quasiExact)
assertEquals(
  failure.message.split("\n")[0],
  "The answer did not pass (mode score, evaluator quasiExact)",
);
assertEquals(failure.result.code, "no_match");

assertEquals(test.session.transcript.length, 6);
