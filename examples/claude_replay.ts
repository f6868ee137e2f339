// Replays a recorded claude session (examples/sessions/adds_endpoint.jsonl)
// through the real ClaudeCliCognition: its parsing, event mapping and budget
// charging all run, with no binary and no spend.
//
//   deno run --allow-read examples/claude_replay.ts
import {
  Agent,
  Budget,
  ClaudeCliCognition,
  CollectingObserver,
  FakeClaudeCli,
  makeTestCtx,
} from "@agentkit/testing";
import { assertEquals } from "@std/assert";

const cli = FakeClaudeCli.replay(new URL("./sessions/adds_endpoint.jsonl", import.meta.url));
await using claude = new ClaudeCliCognition({ spawn: cli, model: "claude-sonnet-4-5" });
const agent = new Agent("coder", { model: "claude-sonnet-4-5", cognition: claude });
const budget = new Budget({ maxCostUsd: "0.50" });
const observer = new CollectingObserver();
const ctx = makeTestCtx({ budget, observer });

const first = await agent.run("Add a GET /health endpoint that returns status ok", ctx);
console.log("first answer:", first.output); // first answer: Added GET /health to src/routes.ts; it returns {"status":"ok"}.
assertEquals(first.output, 'Added GET /health to src/routes.ts; it returns {"status":"ok"}.');

// claude's input_tokens exclude the cache; cache writes are billed input.
console.log("first usage:", first.usage); // first usage: { inputTokens: 3228, outputTokens: 203, cachedInputTokens: 41894, costUsd: 0.0273 }
assertEquals(first.usage, {
  inputTokens: 3228,
  outputTokens: 203,
  cachedInputTokens: 41894,
  costUsd: 0.0273,
});

const second = await agent.run("Add a test for it", ctx);
console.log("second answer:", second.output); // second answer: Added tests/health_test.ts; it passes.
assertEquals(second.output, "Added tests/health_test.ts; it passes.");

// Both turns were charged from total_cost_usd, exactly.
console.log("spent:", budget.spent(), "calls:", budget.calls); // spent: 0.046200 calls: 2
assertEquals([budget.spent(), budget.calls], ["0.046200", 2]);

// One process served the whole session; each turn was one line on its stdin.
console.log("spawns:", cli.spawns.length, "stdin lines:", cli.spawns[0].stdin.length); // spawns: 1 stdin lines: 2
assertEquals([cli.spawns.length, cli.spawns[0].stdin.length], [1, 2]);

// The tools the CLI ran are observations (and tool_call events when streamed).
const tools = observer.items.filter((o) => o.kind === "cli.tool_use")
  .map((o) => (o.payload as { name: string }).name);
console.log("tools used:", tools); // tools used: [ "Read", "Edit", "Write", "Bash" ]
assertEquals(tools, ["Read", "Edit", "Write", "Bash"]);

console.log("session id:", claude.sessionId); // session id: 5f2c9a1e-8d4b-4c3a-9e61-2b7d0c4f8a13
assertEquals(claude.sessionId, "5f2c9a1e-8d4b-4c3a-9e61-2b7d0c4f8a13");

cli.verify(); // every recorded turn was used
