// The regression check of the hot paths (bench/check.ts): its verdict, and
// the proof that it catches a regression: the tool loop made 3x slower on
// purpose fails it against the committed baseline. (That an unslowed run
// passes is not asserted here: on a loaded machine that is what the 20-run
// proof in bench/RESULTS.md is for, not a unit test.)
import { assert, assertEquals } from "@std/assert";
import { compare, THRESHOLD } from "../../bench/check/_paths.ts";
import { floorRun } from "../../bench/check/_ratio.ts";

const path = (id: string, ratio: number) => ({ id, ratio, us: 1, floorUs: 1, medianRatio: ratio });
const baseline = { deno: { single_turn: 2, react_2_steps: 4 } };

Deno.test("bench:check compare(): a path fails past 2x its committed ratio, and with none committed", () => {
  assertEquals(THRESHOLD, 2);
  const verdicts = compare("deno", [
    path("single_turn", 4), // exactly 2x, as its neighbour: still ok
    path("react_2_steps", 8.1), // past 2x
    path("stream_3_chunks", 1), // nothing committed to compare with
  ], baseline);
  assertEquals(verdicts.map((v) => [v.id, v.ok, v.slower]), [
    ["single_turn", true, 2],
    ["react_2_steps", false, 2.025],
    ["stream_3_chunks", false, undefined],
  ]);
  // A runtime with no baseline fails every path.
  assert(compare("node", [path("single_turn", 1)], baseline).every((v) => !v.ok));
  // Faster is fine.
  assert(compare("deno", [path("react_2_steps", 1)], baseline)[0].ok);
});

Deno.test("bench:check compare(): one path 2x slower than its neighbours fails, even when the floor makes every ratio read low", () => {
  const three = { deno: { single_turn: 2, stream_3_chunks: 4, react_2_steps: 8 } };
  // A busy floor: every ratio at 0.6x its committed one, the loop 3x slower than that.
  const verdicts = compare("deno", [
    path("single_turn", 1.2),
    path("stream_3_chunks", 2.4),
    path("react_2_steps", 8 * 0.6 * 3),
  ], three);
  assertEquals(verdicts.map((v) => [v.id, v.ok]), [
    ["single_turn", true],
    ["stream_3_chunks", true],
    ["react_2_steps", false],
  ]);
  const loop = verdicts[2];
  assertEquals([loop.slower!.toFixed(2), loop.relative!.toFixed(2)], ["1.80", "3.00"]);
  // All three alike, even 1.9x: no path stands out, none past 2x.
  assert(
    compare("deno", [
      path("single_turn", 3.8),
      path("stream_3_chunks", 7.6),
      path("react_2_steps", 15.2),
    ], three).every((v) => v.ok),
  );
});

Deno.test("bench:check: the floor answers as a double does, through a promise", async () => {
  const pending = floorRun();
  assert(pending instanceof Promise);
  assertEquals(await pending, { content: "expired" });
});

Deno.test("bench:check: the 2-step tool loop made 3x slower on purpose fails the check against the committed baseline", async () => {
  // The check itself, as `deno task bench:check --slow-tool=3` runs it (on
  // Deno only: a unit test does not start Node): it must exit 1 and name the loop.
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-run",
      "--allow-env",
      new URL("../../bench/check.ts", import.meta.url).pathname,
      "--slow-tool=3",
      "--runtimes=deno",
    ],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const printed = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 1, printed);
  assert(/deno react_2_steps: .*this path got slower/.test(printed), printed);
  assert(!/deno (single_turn|stream_3_chunks): /.test(printed), printed);
});
