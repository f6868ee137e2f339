import { assert, assertEquals, assertThrows } from "@std/assert";
import type { SpawnPort } from "@agentkit/testing/ports";
import { Agent, Budget, ClaudeCliCognition, systemSpawn } from "@agentkit/testing/runtime";
import { makeTestCtx } from "@agentkit/testing/testing";
import { nodeSpawn } from "../../../runtime/spawn/_node_spawn.ts";
import { denoSpawn } from "../../../runtime/spawn/_deno_spawn.ts";

// The children run with no permission flags at all (so no network), and
// without the repository's config, so they start fast and fetch nothing.
const fixture = (name: string) => new URL(`../../fixtures/${name}`, import.meta.url).href;
const child = (name: string, ...args: string[]) => [
  Deno.execPath(),
  "run",
  "--no-config",
  "--quiet",
  fixture(name),
  ...args,
];

const adapters: ReadonlyArray<readonly [string, SpawnPort]> = [
  ["systemSpawn (Deno.Command)", systemSpawn],
  ["deno adapter", denoSpawn],
  ["node:child_process adapter", nodeSpawn],
];

const text = (s: ReadableStream<Uint8Array>) => new Response(s).text();

Deno.test("systemSpawn() runs a real process: its JSON lines, exit code and stderr", async (t) => {
  for (const [name, spawn] of adapters) {
    await t.step(name, async () => {
      const proc = spawn(child("print_jsonl.ts", "lines"));
      const [stdout, stderr, exit] = await Promise.all([
        text(proc.stdout),
        text(proc.stderr),
        proc.exited,
      ]);
      assertEquals(stdout.trim().split("\n").map((l) => JSON.parse(l)), [
        { type: "line", n: 1 },
        { type: "line", n: 2 },
        { type: "line", n: 3 },
      ]);
      assertEquals([stderr, exit.code], ["oops\n", 3]);
      assertEquals(proc.stdin, undefined);
    });
  }
});

Deno.test("systemSpawn() pipes stdin when asked, and the process ends at the end of input", async (t) => {
  for (const [name, spawn] of adapters) {
    await t.step(name, async () => {
      const proc = spawn(child("print_jsonl.ts", "echo"), { stdin: "piped" });
      const writer = proc.stdin!.getWriter();
      await writer.write(new TextEncoder().encode("one\ntwo\n"));
      await writer.close();
      const [stdout, , exit] = await Promise.all([
        text(proc.stdout),
        text(proc.stderr),
        proc.exited,
      ]);
      assertEquals(stdout, '{"type":"echo","text":"one"}\n{"type":"echo","text":"two"}\n');
      assertEquals(exit.code, 0);
    });
  }
});

Deno.test("systemSpawn() kill() and an aborted signal end a running process", async (t) => {
  for (const [name, spawn] of adapters) {
    await t.step(`${name}: kill()`, async () => {
      const proc = spawn(child("print_jsonl.ts", "hang"));
      const reader = proc.stdout.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      assertEquals(JSON.parse(first), { type: "ready" });
      proc.kill();
      proc.kill(); // twice is harmless
      const exit = await proc.exited;
      assertEquals(exit.code, 143);
      while (!(await reader.read()).done) { /* drain */ }
      await proc.stderr.cancel();
      proc.kill(); // after exit too
    });
    await t.step(`${name}: signal`, async () => {
      const controller = new AbortController();
      const proc = spawn(child("print_jsonl.ts", "hang"), { signal: controller.signal });
      const reader = proc.stdout.getReader();
      await reader.read();
      controller.abort();
      assertEquals((await proc.exited).code, 143);
      while (!(await reader.read()).done) { /* drain */ }
      await proc.stderr.cancel();
    });
  }
});

Deno.test("systemSpawn() passes cwd and env to the process", async () => {
  const proc = systemSpawn(
    [
      Deno.execPath(),
      "eval",
      "--no-config",
      "console.log(JSON.stringify([Deno.cwd(), Deno.env.get('AGENTKIT_PROBE')]))",
    ],
    { cwd: new URL("../../fixtures/", import.meta.url).pathname, env: { AGENTKIT_PROBE: "yes" } },
  );
  const [stdout, , exit] = await Promise.all([text(proc.stdout), text(proc.stderr), proc.exited]);
  assertEquals(exit.code, 0);
  const [cwd, probe] = JSON.parse(stdout);
  assert(cwd.endsWith("fixtures"), cwd);
  assertEquals(probe, "yes");
});

Deno.test("every adapter passes cwd and env, the env on top of the parent's", async (t) => {
  Deno.env.set("AGENTKIT_PARENT", "inherited");
  try {
    for (const [name, spawn] of adapters) {
      await t.step(name, async () => {
        const probe =
          "console.log(JSON.stringify([Deno.cwd(), Deno.env.get('AGENTKIT_PROBE'), Deno.env.get('AGENTKIT_PARENT')]))";
        const argv = [Deno.execPath(), "eval", "--no-config", probe];
        const fixtures = new URL("../../fixtures/", import.meta.url).pathname;
        const given = spawn(argv, { cwd: fixtures, env: { AGENTKIT_PROBE: "yes" } });
        const [out, , exit] = await Promise.all([
          text(given.stdout),
          text(given.stderr),
          given.exited,
        ]);
        assertEquals(exit.code, 0);
        const [cwd, probe_, parent] = JSON.parse(out);
        assert(cwd.endsWith("fixtures"), cwd);
        assertEquals([probe_, parent], ["yes", "inherited"]);
        // Neither given: the parent's directory and environment.
        const plain = spawn(argv);
        const [out2] = await Promise.all([text(plain.stdout), text(plain.stderr), plain.exited]);
        assertEquals(JSON.parse(out2), [Deno.cwd(), null, "inherited"]); // JSON has no undefined
      });
    }
  } finally {
    Deno.env.delete("AGENTKIT_PARENT");
  }
});

Deno.test("every adapter: without stdin piped, the process reads the end of input at once", async (t) => {
  for (const [name, spawn] of adapters) {
    await t.step(name, async () => {
      const proc = spawn(child("print_jsonl.ts", "echo"));
      const [stdout, , exit] = await Promise.all([
        text(proc.stdout),
        text(proc.stderr),
        proc.exited,
      ]);
      assertEquals([stdout, exit.code, proc.stdin], ["", 0, undefined]);
    });
  }
});

Deno.test("every adapter: a signal aborted before the start ends the process at once", async (t) => {
  for (const [name, spawn] of adapters) {
    await t.step(name, async () => {
      const proc = spawn(child("print_jsonl.ts", "hang"), { signal: AbortSignal.abort() });
      const [, , exit] = await Promise.all([text(proc.stdout), text(proc.stderr), proc.exited]);
      assertEquals(exit.code, 143);
    });
  }
});

Deno.test("every adapter: a process that cannot start fails the caller, at once or through exited", async (t) => {
  const missing = new URL("../../fixtures/no/such/dir/", import.meta.url).pathname;
  for (const [name, spawn] of adapters) {
    await t.step(name, async () => {
      let proc;
      try {
        proc = spawn([Deno.execPath(), "--version"], { cwd: missing });
      } catch (error) {
        // Deno.Command throws at once (the port allows it).
        assert(name !== "node:child_process adapter", String(error));
        return;
      }
      // node:child_process reports it as an "error" event: exited rejects.
      assertEquals(name, "node:child_process adapter", "under Deno, Deno.Command throws at once");
      const [exit] = await Promise.allSettled([proc.exited, text(proc.stdout), text(proc.stderr)]);
      assertEquals(exit.status, "rejected");
      assertEquals((exit as PromiseRejectedResult).reason.code, "ENOENT");
    });
  }
});

Deno.test("every adapter: a signal that is never aborted leaves the process alone", async (t) => {
  for (const [name, spawn] of adapters) {
    await t.step(name, async () => {
      const controller = new AbortController();
      const proc = spawn(child("print_jsonl.ts", "lines"), { signal: controller.signal });
      const [, , exit] = await Promise.all([text(proc.stdout), text(proc.stderr), proc.exited]);
      assertEquals(exit.code, 3);
      controller.abort(); // after the exit: nothing left to end
    });
  }
});

Deno.test("systemSpawn() rejects an argv that names no program before spawning anything", () => {
  for (const argv of [[], "deno", [42], [""], { 0: "deno", length: 1 }]) {
    assertThrows(
      () => systemSpawn(argv as never),
      TypeError,
      "Cannot spawn: argv must be a non-empty array",
    );
  }
});

Deno.test("ClaudeCliCognition over systemSpawn: a real process serves two turns, then close() ends it", async () => {
  // The stand-in takes claude's flags and ignores them; the real adapter,
  // pipes, line reader and charging all run.
  const spawn: SpawnPort = (argv, options) =>
    systemSpawn([...child("claude_like.ts"), ...argv.slice(1)], options);
  await using claude = new ClaudeCliCognition({ spawn });
  const agent = new Agent("a", { model: "fake-model", cognition: claude });
  const budget = new Budget({ maxCostUsd: "1" });
  const ctx = makeTestCtx({ budget });
  assertEquals((await agent.run("hello", ctx)).output, "you said: hello");
  assertEquals((await agent.run("again", ctx)).output, "you said: again");
  assertEquals([budget.spent(), budget.calls, claude.sessionId], ["0.002000", 2, "real-1"]);
});
