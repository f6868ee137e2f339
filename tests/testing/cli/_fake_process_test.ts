// The process both CLI doubles spawn (testing/cli/_fake_process.ts), driven
// through their spawn port as a cognition drives a real one.
import { assertEquals, assertRejects } from "@std/assert";
import type { SpawnedProcess } from "@agentkit/testing/ports";
import {
  claudeTurn,
  codexTurn,
  FakeClaudeCli,
  FakeClock,
  FakeCodexCli,
  rawLine,
} from "@agentkit/testing/testing";

const encoder = new TextEncoder();
const userLine = (content: string) =>
  JSON.stringify({ type: "user", message: { role: "user", content } }) + "\n";

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
async function linesOf(proc: SpawnedProcess): Promise<string[]> {
  const text = await new Response(proc.stdout).text();
  return text.split("\n").filter((l) => l !== "");
}
async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

Deno.test("A CLI double's process writes raw lines as given, and an unterminated last one without its newline", async () => {
  const last = rawLine([0x7b, 0xff]);
  using cli = FakeCodexCli.script([{ lines: [rawLine([0x41]), last], unterminated: true }], {
    repeatLast: true,
  });
  const first = cli.spawn(["codex"]);
  const chunks = await chunksOf(first.stdout);
  assertEquals(chunks, [new Uint8Array([0x41, 10]), new Uint8Array([0x7b, 0xff])]);
  await first.exited;
  // What a reader does with the chunks it got never reaches the script.
  for (const chunk of chunks) chunk.fill(0);
  const again = cli.spawn(["codex"]);
  assertEquals(await bytesOf(again.stdout), new Uint8Array([0x41, 10, 0x7b, 0xff]));
  await again.exited;
});

Deno.test("A CLI double's process writes nothing before it is read, so a kill before the first read leaves no output", async () => {
  using cli = FakeCodexCli.script(codexTurn({ text: "never read" }));
  const proc = cli.spawn(["codex"]);
  proc.kill();
  assertEquals(await linesOf(proc), []);
  assertEquals([(await proc.exited).code, cli.spawns[0].killed], [143, true]);
});

Deno.test("A CLI double's process without lineDelayMs never waits on the clock", async () => {
  using cli = FakeCodexCli.script(codexTurn({ text: "at once" }));
  const clock = new FakeClock({ autoAdvance: false });
  const proc = cli.spawn(["codex"], { clock });
  assertEquals((await linesOf(proc)).length, 4);
  assertEquals([(await proc.exited).code, clock.sleeps], [0, []]);
});

Deno.test("A CLI double's process writes nothing to stderr unless the run has stderr", async () => {
  using cli = FakeCodexCli.script(codexTurn({ text: "quiet" }), {
    ...codexTurn({ text: "loud" }),
    stderr: "warning: slow\n",
  });
  const quiet = cli.spawn(["codex"]);
  const [quietErr] = await Promise.all([chunksOf(quiet.stderr), linesOf(quiet)]);
  assertEquals(quietErr, []);
  const loud = cli.spawn(["codex"]);
  const [loudErr] = await Promise.all([new Response(loud.stderr).text(), linesOf(loud)]);
  assertEquals(loudErr, "warning: slow\n");
});

Deno.test("A CLI double's process with no lines closes stdout at once and exits with the run's code", async () => {
  using cli = FakeCodexCli.script({ lines: [], exitCode: 7, stderr: "auth failed" });
  const proc = cli.spawn(["codex"]);
  assertEquals(await linesOf(proc), []);
  assertEquals([(await proc.exited).code, await new Response(proc.stderr).text()], [
    7,
    "auth failed",
  ]);
});

Deno.test("A CLI double's process dies with the spawn's signal", async (t) => {
  await t.step("already aborted: killed at spawn", async () => {
    using cli = FakeCodexCli.script(codexTurn({ text: "x" }));
    const proc = cli.spawn(["codex"], { signal: AbortSignal.abort() });
    assertEquals(await linesOf(proc), []);
    assertEquals([(await proc.exited).code, cli.spawns[0].killed], [143, true]);
  });
  await t.step("aborted later: killed then", async () => {
    using cli = FakeClaudeCli.script(["x"], { allowUnused: true });
    const controller = new AbortController();
    const proc = cli.spawn(["claude"], { stdin: "piped", signal: controller.signal });
    const reader = proc.stdout.getReader();
    const pending = reader.read();
    controller.abort();
    assertEquals((await pending).done, true);
    assertEquals([(await proc.exited).code, cli.spawns[0].killed], [143, true]);
  });
  await t.step("never aborted: left alone", async () => {
    using cli = FakeCodexCli.script(codexTurn({ text: "x" }));
    const controller = new AbortController();
    const proc = cli.spawn(["codex"], { signal: controller.signal });
    assertEquals((await linesOf(proc)).length, 4);
    assertEquals([(await proc.exited).code, cli.spawns[0].killed], [0, false]);
    controller.abort();
    assertEquals(cli.spawns[0].killed, false);
  });
});

Deno.test("A CLI double's process that has exited is not killed again", async () => {
  using cli = FakeCodexCli.script({ ...codexTurn({ text: "x" }), exitCode: 2 });
  const proc = cli.spawn(["codex"]);
  await linesOf(proc);
  assertEquals((await proc.exited).code, 2);
  proc.kill();
  assertEquals([cli.spawns[0].killed, cli.spawns[0].exitCode], [false, 2]);
});

Deno.test("The claude double's process without a piped stdin has nothing to do and exits at once", async () => {
  using cli = FakeClaudeCli.script(["x"], { allowUnused: true });
  const proc = cli.spawn(["claude"]);
  assertEquals(proc.stdin, undefined);
  assertEquals(await linesOf(proc), []);
  assertEquals([(await proc.exited).code, cli.turnsTaken], [0, 0]);
});

Deno.test("The codex double's process has a stdin only when asked for one, and plays no turn for a user line", async () => {
  using cli = FakeCodexCli.script(codexTurn({ text: "one" }));
  const closed = cli.spawn(["codex"], { stdin: "null" });
  assertEquals(closed.stdin, undefined);
  await linesOf(closed);
  using piped = FakeCodexCli.script(codexTurn({ text: "one" }));
  const proc = piped.spawn(["codex"], { stdin: "piped" });
  const writer = proc.stdin!.getWriter();
  const lines = linesOf(proc);
  await writer.write(encoder.encode(userLine("more")));
  assertEquals((await lines).length, 4);
  assertEquals([piped.turnsTaken, piped.spawns[0].stdin], [1, [userLine("more").trim()]]);
});

Deno.test("The claude double's process ends a session run after exitAfterLines lines", async () => {
  using cli = FakeClaudeCli.script([{ ...claudeTurn({ text: "cut" }), exitAfterLines: 1 }]);
  const proc = cli.spawn(["claude"], { stdin: "piped" });
  const writer = proc.stdin!.getWriter();
  const lines = linesOf(proc);
  await writer.write(encoder.encode(userLine("go")));
  assertEquals((await lines).map((l) => JSON.parse(l).type), ["system"]);
  assertEquals((await proc.exited).code, 0);
  await assertRejects(() => writer.write(encoder.encode(userLine("more"))), Error, "EPIPE");
});

Deno.test("The claude double's process keeps a run's exit code when its stdin closes after", async () => {
  using cli = FakeClaudeCli.script([{ ...claudeTurn({ text: "x" }), exitCode: 3 }]);
  const proc = cli.spawn(["claude"], { stdin: "piped" });
  const writer = proc.stdin!.getWriter();
  await writer.write(encoder.encode(userLine("go")));
  await writer.close();
  assertEquals((await linesOf(proc)).length, 3);
  assertEquals((await proc.exited).code, 3);
});

Deno.test("The claude double's process ends when its stdin is aborted", async () => {
  using cli = FakeClaudeCli.script(["x"], { allowUnused: true });
  const proc = cli.spawn(["claude"], { stdin: "piped" });
  await proc.stdin!.abort(new Error("gone"));
  assertEquals(await linesOf(proc), []);
  assertEquals([(await proc.exited).code, cli.spawns[0].killed], [0, false]);
});

Deno.test("The claude double's process outlives a reader that cancels its stdout", async () => {
  using cli = FakeClaudeCli.script(["x"], { allowUnused: true });
  const proc = cli.spawn(["claude"], { stdin: "piped" });
  await proc.stdout.cancel();
  assertEquals(cli.spawns[0].exitCode, undefined);
  await proc.stdin!.close();
  assertEquals([(await proc.exited).code, cli.spawns[0].exitCode], [0, 0]);
});

Deno.test("The claude double's process reads stdin as lines: split writes, blank lines, several lines a write", async () => {
  using cli = FakeClaudeCli.script(["one", "two"]);
  const proc = cli.spawn(["claude"], { stdin: "piped" });
  const writer = proc.stdin!.getWriter();
  const lines = linesOf(proc);
  const first = encoder.encode(userLine("café"));
  const cut = first.indexOf(0xc3) + 1; // inside the two bytes of "é"
  await writer.write(first.subarray(0, cut));
  await writer.write(first.subarray(cut));
  await writer.write(encoder.encode("\n  \n" + userLine("second")));
  await writer.close();
  assertEquals((await lines).filter((l) => JSON.parse(l).type === "result").length, 2);
  assertEquals(cli.spawns[0].stdin, [userLine("café").trim(), userLine("second").trim()]);
});

Deno.test("The claude double's process plays a turn only for a user line", async () => {
  using cli = FakeClaudeCli.script(["one"], { allowUnused: true });
  const proc = cli.spawn(["claude"], { stdin: "piped" });
  const writer = proc.stdin!.getWriter();
  const lines = linesOf(proc);
  await writer.write(encoder.encode('not json\nnull\n{"type":"control_request"}\n[1]\n'));
  await writer.close();
  assertEquals(await lines, []);
  assertEquals(cli.turnsTaken, 0);
  assertEquals(cli.spawns[0].stdin, ["not json", "null", '{"type":"control_request"}', "[1]"]);
});

Deno.test("A CLI double records cwd and env only when the spawn gives them", () => {
  using cli = FakeCodexCli.script([codexTurn({ text: "a" })], { repeatLast: true });
  cli.spawn(["codex"]).kill();
  cli.spawn(["codex"], { cwd: "/repo", env: { A: "1" } }).kill();
  assertEquals([Object.keys(cli.spawns[0]).sort(), Object.keys(cli.spawns[1]).sort()], [
    ["argv", "exitCode", "killed", "stdin"],
    ["argv", "cwd", "env", "exitCode", "killed", "stdin"],
  ]);
});

Deno.test("A paced CLI double's process starts a line's delay only when the reader asks for it", async () => {
  using cli = FakeCodexCli.script([codexTurn({ text: "x" })], { lineDelayMs: 100 });
  const clock = new FakeClock();
  const proc = cli.spawn(["codex"], { clock });
  // Let the stream run everything it would run on its own.
  for (let i = 0; i < 20; i++) await Promise.resolve();
  assertEquals(clock.sleeps, []);
  const reader = proc.stdout.getReader();
  await reader.read();
  assertEquals(clock.sleeps, [100]);
  await reader.cancel();
  proc.kill();
  await proc.exited;
});
