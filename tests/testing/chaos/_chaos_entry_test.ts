// chaos() loads its implementation on its first call. In a fresh process
// that first call can come under a FakeClock a test installed over the
// global timers; the watchdog must still run on real time, or a hung run
// would never be reported.
import { assertEquals, assertStrictEquals } from "@std/assert";
import { Agent } from "@agentkit/testing/runtime";
import * as testing from "@agentkit/testing/testing";
import { chaos as entry } from "../../../testing/chaos/_chaos_entry.ts";

const child = `
import { Agent } from "@agentkit/testing/runtime";
import { chaos, ChaosFailure, FakeClock } from "@agentkit/testing/testing";
const clock = new FakeClock({ autoAdvance: false });
using _installed = clock.install();
try {
  await chaos(async (w) => {
    await new Agent("a", { model: "fake-model" }).run("q", w.ctx());
    await new Promise(() => {});
  }, { script: ["ok"], seed: 1, runs: 1, maxFaults: 0, hangMs: 5 });
  console.log("passed");
} catch (e) {
  console.log(e instanceof ChaosFailure ? \`\${e.invariant} \${e.outcome.status}\` : String(e));
}
`;

Deno.test("chaos(): first loaded under an installed FakeClock, a hung run is still reported as hung", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--config",
      new URL("../../../deno.json", import.meta.url).pathname,
      "--ext=ts",
      child,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  assertEquals([text, new TextDecoder().decode(out.stderr)], ["terminates hung", ""]);
});

Deno.test("chaos(): the public function is the thin entry, and it hands back the implementation's summary", async () => {
  assertStrictEquals(testing.chaos, entry);
  const summary = await entry(
    (w) => new Agent("a", { model: "fake-model" }).run("q", w.ctx()),
    { script: ["ok"], seed: 3, runs: 2, maxFaults: 0 },
  );
  assertEquals(summary, { runs: 2, faultsInjected: 0, byKind: {}, seed: 3 });
});
