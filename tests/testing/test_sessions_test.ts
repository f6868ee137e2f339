import { assertEquals, assertRejects } from "@std/assert";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  closeTestSessions,
  InvalidScript,
  reopenSession,
  testSession,
} from "@agentkit/testing/testing";

// The resource sanitizer is on: a session these helpers handed out and the
// sweep failed to close would fail the test that opened it.
async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "test-sessions-"));
  try {
    await fn(dir);
  } finally {
    await closeTestSessions(); // before the delete, always
    await rm(dir, { recursive: true });
  }
}

Deno.test("closeTestSessions() closes every session handed out, returns how many, and clears the register", () =>
  inTempDir(async (dir) => {
    const a = await testSession({ path: join(dir, "a.jsonl"), meta: { user: "ana" } });
    const b = await testSession({ path: join(dir, "b.jsonl") });
    await a.append({ role: "user", content: "hi" });
    const again = await reopenSession({ path: join(dir, "a.jsonl") });
    assertEquals([again.meta, again.messages.length, b.meta], [{ user: "ana" }, 1, {}]);
    assertEquals(await closeTestSessions(), 3);
    assertEquals([a.closed, b.closed, again.closed], [true, true, true]);
    assertEquals(await closeTestSessions(), 0); // safe to call twice
  }));

Deno.test("closeTestSessions() does not count sessions the test already closed itself", () =>
  inTempDir(async (dir) => {
    const path = join(dir, "a.jsonl");
    const first = await testSession({ path });
    await first.close(); // reopening is the thing being tested
    const second = await reopenSession({ path });
    assertEquals(await closeTestSessions(), 1);
    assertEquals(second.closed, true);
  }));

Deno.test("closeTestSessions() sweeps up after a test that failed half-way", async () => {
  const dir = await mkdtemp(join(tmpdir(), "test-sessions-"));
  const failing = async () => {
    const s = await testSession({ path: join(dir, "a.jsonl") });
    await s.append({ role: "user", content: "hi" });
    throw new Error("assertion failed mid-test");
  };
  await assertRejects(failing, Error, "mid-test");
  assertEquals(await closeTestSessions(), 1);
  await rm(dir, { recursive: true });
});

Deno.test("testSession() sessions are AsyncDisposable", () =>
  inTempDir(async (dir) => {
    {
      await using s = await testSession({ path: join(dir, "a.jsonl") });
      await s.append({ role: "user", content: "hi" });
    }
    assertEquals(await closeTestSessions(), 0);
    await using again = await reopenSession({ path: join(dir, "a.jsonl") });
    assertEquals(again.messages, [{ role: "user", content: "hi" }]);
  }));

Deno.test("testSession() and reopenSession() validate their options", async () => {
  await assertRejects(
    // deno-lint-ignore no-explicit-any
    () => testSession({ path: "x.jsonl", metadata: {} } as any),
    InvalidScript,
    'unknown key "metadata" in testSession options; did you mean "meta"?',
  );
  await assertRejects(
    // deno-lint-ignore no-explicit-any
    () => reopenSession({ pth: "x.jsonl" } as any),
    InvalidScript,
    'unknown key "pth" in reopenSession options; did you mean "path"?',
  );
  assertEquals(await closeTestSessions(), 0);
});
