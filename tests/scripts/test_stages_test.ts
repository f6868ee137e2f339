import { assertEquals } from "@std/assert";
import { errorBlock, failingTests, stagesOf, summarize } from "../../scripts/test.ts";

Deno.test("stagesOf() expands nested tasks and makes each plain command of a chain a stage", () => {
  const tasks = {
    "test:all": { command: "deno task gates && deno task test:unit && deno task test:node" },
    gates: "deno fmt --check && deno lint && deno doc --lint mod.ts",
    "test:unit": "deno test tests/",
    "build:npm": "deno run -A scripts/build_npm.ts",
    "test:node": "deno task build:npm && deno run -A scripts/test_node.ts",
  };
  assertEquals(stagesOf(tasks, "test:all").map((s) => [s.label, s.command]), [
    ["gates: fmt", "deno fmt --check"],
    ["gates: lint", "deno lint"],
    ["gates: doc --lint", "deno doc --lint mod.ts"],
    ["test:unit", "deno test tests/"],
    ["build:npm", "deno run -A scripts/build_npm.ts"],
    ["test:node: test_node", "deno run -A scripts/test_node.ts"],
  ]);
});

Deno.test("the test:all chain in deno.json is what `deno task test` runs", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  const stages = stagesOf(config.tasks, "test:all");
  assertEquals(stages.some((s) => s.label === "test:unit"), true);
  assertEquals(stages.some((s) => s.label === "publish:check"), true);
  assertEquals(config.tasks.test.command.includes("scripts/test.ts"), true);
});

Deno.test("summarize() counts what each kind of stage reports", async (t) => {
  const cases: Array<[string, string, string, [number, number]?]> = [
    [
      "deno test",
      "...\nok | 281 passed (208 steps) | 0 failed (1m0s)\n",
      "281 passed (208 steps), 0 failed",
      [281, 0],
    ],
    ["deno test failing", "FAILED | 9 passed | 1 failed (2s)", "9 passed, 1 failed", [9, 1]],
    [
      "node --test",
      "# node v20.1.0\nℹ pass 15\nℹ fail 0\n# node v22.2.0\nℹ pass 15\nℹ fail 1\n",
      "30 passed, 1 failed on node v20, v22",
      [30, 1],
    ],
    ["fmt", "Checked 312 files\n", "312 files"],
    ["check", "Check mod.ts\nCheck tests/a.ts\n", "2 entry points type-checked"],
    ["examples", "examples/a.ts ... ok\n6 example(s) ran\n", "6 examples ran"],
    [
      "mcp conformance",
      "server scenarios (...): 32/32 scenarios pass\nMCP conformance: server 32/32, client 4/4 scenarios pass (64.8 s)\n",
      "server 32/32, client 4/4 scenarios pass (64.8 s)",
    ],
    ["score", "JSR score ok: 6 of 6 checkable factors hold\n", "ok: 6 of 6 checkable factors hold"],
    [
      "publish",
      "warning[unanalyzable-dynamic-import]: x\nwarning[unanalyzable-dynamic-import]: y\nSuccess Dry run complete\n",
      "dry run ok, 2 warning(s) (unanalyzable-dynamic-import: expected, testing/eval/_load_export.ts and testing/eval/agent_test_harness.ts import the agent module a test names at run time; there is nothing to rewrite at publish)",
    ],
    [
      "publish, a new warning",
      "warning[banned-triple-slash-directives]: x\nDry run complete",
      "dry run ok, 1 warning(s) (banned-triple-slash-directives: NOT EXPECTED)",
    ],
  ];
  for (const [name, output, summary, tests] of cases) {
    await t.step(
      name,
      () => assertEquals(summarize(output), tests ? { summary, tests } : { summary }),
    );
  }
});

Deno.test("failingTests() names the tests a failed run reported, deno test's and node --test's", () => {
  const deno = [
    "running 3 tests from ./tests/a_test.ts",
    "one ... ok (1ms)",
    "two ... FAILED (2ms)",
    "",
    " ERRORS ",
    "",
    "two => ./tests/a_test.ts:5:6",
    "error: AssertionError: Values are not equal.",
    "",
    " FAILURES ",
    "",
    "two => ./tests/a_test.ts:5:6",
    "group ... step => ./tests/b_test.ts:9:11",
    "",
    "FAILED | 1 passed | 2 failed (5ms)",
  ].join("\n");
  assertEquals(failingTests(deno), ["two", "group ... step"]);
  const node =
    "✔ fine (1.2ms)\n✖ the analyst explains (4.06ms)\n  AssertionError\n✖ failing tests:\n\n✖ the analyst explains (4.06ms)\n";
  assertEquals(failingTests(node), ["the analyst explains"]);
  assertEquals(failingTests("error: Found 1 not formatted file in 3 files"), []);
});

Deno.test("errorBlock() starts at what failed and leaves out the type checker's Check lines", () => {
  const checkFailed =
    "Check mod.ts\nCheck tests/a.ts\nTS2304 [ERROR]: Cannot find name 'x'.\n    at file:///a.ts:1:1\n\nerror: Type checking failed.";
  assertEquals(
    errorBlock(checkFailed),
    "TS2304 [ERROR]: Cannot find name 'x'.\n    at file:///a.ts:1:1\n\nerror: Type checking failed.",
  );
  const testFailed =
    "Check tests/a_test.ts\nrunning 1 test\ntwo ... FAILED\n\n ERRORS \n\ntwo => a:1:1\nerror: boom\n\nFAILED | 0 passed | 1 failed";
  assertEquals(
    errorBlock(testFailed),
    " ERRORS \n\ntwo => a:1:1\nerror: boom\n\nFAILED | 0 passed | 1 failed",
  );
  assertEquals(errorBlock("nothing marked\nat all"), "nothing marked\nat all");
  const fmt =
    "\nfrom /a.ts:\n1 | -x  =1\n1 | +x = 1\n\nerror: Found 1 not formatted file in 3 files";
  assertEquals(errorBlock(fmt), fmt.trim());
});
