// The Deno side of `deno task mutation`'s runner (tools/mutation/deno_harness.ts),
// driven over its JSON-lines protocol against a hand-instrumented module
// (tests/fixtures/mutation/): what it collects, what coverage it reports, and
// that a mutant switched in memory is judged as `deno test` would judge it.
import { assert, assertEquals, assertMatch } from "@std/assert";

const root = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const harnessPath = `${root}/tools/mutation/deno_harness.ts`;
const testFile = `${root}/tests/fixtures/mutation/sample_tests.ts`;
const MARKER = "\u0001stryker-deno\u0001";
const id = (name: string) => `tests/fixtures/mutation/sample_tests.ts > ${name}`;

type Reply = Record<string, unknown>;
type Outcome = { id: string; status: string; failureMessage?: string };

/** One harness process; `send` writes a command and reads replies up to its answer. */
class Harness {
  readonly #child: Deno.ChildProcess;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: AsyncIterator<string>;
  readonly seen: Reply[] = [];

  constructor() {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-check", "--allow-read", "--allow-env", harnessPath],
      cwd: root,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#stdin = this.#child.stdin.getWriter();
    this.#lines = lines(this.#child.stdout)[Symbol.asyncIterator]();
  }

  async send(command: Reply): Promise<Reply | undefined> {
    await this.#stdin.write(new TextEncoder().encode(`${JSON.stringify(command)}\n`));
    for (;;) {
      const next = await this.#lines.next();
      if (next.done) return undefined; // the process ended
      const at = next.value.indexOf(MARKER);
      if (at < 0) continue;
      const reply = JSON.parse(next.value.slice(at + MARKER.length));
      this.seen.push(reply);
      if (reply.op !== "started") return reply;
    }
  }

  /** Ends the process; its exit code. */
  async close(): Promise<number> {
    await this.#stdin.close().catch(() => {});
    while (!(await this.#lines.next()).done) { /* drain */ }
    return (await this.#child.status).code;
  }
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncIterable<string> {
  let buffered = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    buffered += text;
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
    }
  }
}

const load = (activeMutant?: string) => ({ op: "load", files: [testFile], activeMutant });
const outcomes = (reply: Reply | undefined) => (reply?.tests ?? []) as Outcome[];
const statusOf = (reply: Reply | undefined, name: string) =>
  outcomes(reply).find((o) => o.id === id(name))?.status;

Deno.test("mutation harness: collects every Deno.test form and reports coverage per test", async () => {
  const harness = new Harness();
  try {
    assertEquals((await harness.send(load()))?.tests, 10);
    const dry = await harness.send({ op: "run", coverage: true, perTest: true });
    const statuses = Object.fromEntries(outcomes(dry).map((o) => [o.id, o.status]));
    assertEquals(statuses[id("steps run inside their test")], "success");
    assertEquals(statuses[id("an options object, permissions ignored")], "success");
    assertEquals(statuses[id("an ignored test")], "skipped");
    assertEquals(Object.values(statuses).filter((s) => s === "success").length, 9);
    const coverage = dry?.coverage as {
      static: Record<string, number>;
      perTest: Record<string, Record<string, number>>;
    };
    // Mutant 0 ran while the module loaded: static. The rest belong to the
    // tests that reached them, including through a step.
    assertEquals(Object.keys(coverage.static), ["0"]);
    assertEquals(Object.keys(coverage.perTest[id("add() adds")]), ["1"]);
    assertEquals(Object.keys(coverage.perTest[id("steps run inside their test")]), ["1"]);
    assertEquals(coverage.perTest[id("an options object, permissions ignored")], { "4": 3 });
    assertEquals(Object.keys(coverage.perTest[id("table() is built once")]), ["5"]);
    assertEquals(coverage.perTest[id("table() is the same later")], undefined);
  } finally {
    assertEquals(await harness.close(), 0);
  }
});

Deno.test("mutation harness: a mutant is switched on for one run and off after it", async () => {
  const harness = new Harness();
  try {
    await harness.send(load());
    await harness.send({ op: "run", coverage: true, perTest: true });
    const tests = [id("add() adds"), id("steps run inside their test")];
    const killed = await harness.send({ op: "run", activeMutant: "1", tests, bail: false });
    assertEquals(outcomes(killed).map((o) => o.status), ["failed", "failed"]);
    assertMatch(outcomes(killed)[1].failureMessage!, /step "first" failed/);
    assertEquals(killed?.polluted, false); // the killer passes again without the mutant
    // Bail: the first failure ends the run.
    assertEquals(outcomes(await harness.send({ op: "run", activeMutant: "1", tests })).length, 1);
    const clean = await harness.send({ op: "run", tests });
    assertEquals(outcomes(clean).map((o) => o.status), ["success", "success"]);
    assertEquals(clean?.hitCount, undefined);
  } finally {
    assertEquals(await harness.close(), 0);
  }
});

Deno.test("mutation harness: leaks, hit limits and cached code are reported as deno test would see them", async () => {
  const harness = new Harness();
  try {
    await harness.send(load());
    await harness.send({ op: "run", coverage: true, perTest: true });
    await t("a timer left running fails the test, like the op sanitizer", async () => {
      const reply = await harness.send({
        op: "run",
        activeMutant: "2",
        tests: [id("tick() leaves no timer")],
      });
      assertMatch(outcomes(reply)[0].failureMessage!, /Leaking async ops: 1 timer/);
    });
    await t("an endless loop stops at the hit limit", async () => {
      const reply = await harness.send({
        op: "run",
        activeMutant: "4",
        hitLimit: 30,
        tests: [id("an options object, permissions ignored")],
      });
      assert((reply?.hitCount as number) > 30);
      assertEquals(outcomes(reply)[0].status, "failed");
    });
    await t("code cached by an earlier run is not reached: hitCount 0", async () => {
      const reply = await harness.send({
        op: "run",
        activeMutant: "5",
        tests: [id("table() is built once")],
      });
      assertEquals([outcomes(reply)[0].status, reply?.hitCount], ["success", 0]);
    });
    await t("a test whose promise nothing can resolve fails; the process goes on", async () => {
      const reply = await harness.send({
        op: "run",
        activeMutant: "3",
        tests: [id("settle() settles"), id("add() adds")],
        bail: false,
      });
      // In file order, as deno test runs them: the hang fails its own test only.
      assertEquals(outcomes(reply).map((o) => o.id), [id("add() adds"), id("settle() settles")]);
      assertEquals(statusOf(reply, "add() adds"), "success");
      assertMatch(outcomes(reply)[1].failureMessage!, /event loop ran empty/);
    });
    await t("globals a mutant left replaced are put back", async () => {
      const test = id("withFakeNow() puts Date.now back");
      const reply = await harness.send({ op: "run", activeMutant: "6", tests: [test] });
      assertEquals(outcomes(reply)[0].status, "failed");
      assertEquals([...reply?.restoredGlobals as string[]].sort(), ["Date.now", "fetch"]);
      assertEquals([reply?.stuckGlobals, reply?.polluted], [[], false]);
      assert(Date.now() > 0);
      assertEquals(
        statusOf(
          await harness.send({ op: "run", tests: [test] }),
          "withFakeNow() puts Date.now back",
        ),
        "success",
      );
    });
  } finally {
    assertEquals(await harness.close(), 0);
  }
});

Deno.test("mutation harness: a process loaded with a static mutant active runs it", async () => {
  const harness = new Harness();
  try {
    await harness.send(load("0"));
    const reply = await harness.send({ op: "run", activeMutant: "0" });
    assertEquals(statusOf(reply, "LIMIT is 10"), "failed");
    assertEquals(statusOf(reply, "add() adds"), "success");
  } finally {
    assertEquals(await harness.close(), 0);
  }
});

/** A labelled check inside a test (a plain block, so failures name it). */
async function t(label: string, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`, { cause: error });
  }
}

// The runner's side (tools/mutation/_harness_process.ts): a harness is killed
// with its process group, so a child a mutant's test left running (spawn code
// whose stop was mutated away) does not outlive the run. Killing a group and
// reading /proc take every permission, so a driver process does both
// (tests/fixtures/mutation/retire_harness.ts).
const driver = (...args: string[]) =>
  new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-check",
      "--allow-all",
      `${root}/tests/fixtures/mutation/retire_harness.ts`,
      ...args,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output().then((out) => {
    const text = new TextDecoder();
    assert(out.success, text.decode(out.stderr));
    return JSON.parse(text.decode(out.stdout).trim().split("\n").at(-1)!);
  });

for (
  const [mode, how] of [
    ["kill", "retired by the runner"],
    ["exit", "still live when Node exits"],
  ]
) {
  Deno.test({
    name: `mutation runner: a harness ${how} takes the processes its tests left running`,
    ignore: Deno.build.os !== "linux", // reads /proc
    fn: async () => {
      const report = await driver(mode);
      assertEquals(report.status, "success");
      assert(report.leftPid > 0, "the fixture test printed no child pid");
      assertEquals(await driver("running", report.leftPid, report.harnessPid), [false, false]);
    },
  });
}
