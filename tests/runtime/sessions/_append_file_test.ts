import { assertEquals, assertInstanceOf, assertRejects } from "@std/assert";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAppend, readText } from "../../../runtime/sessions/_append_file.ts";

// openAppend() runs on Deno.open where there is one (so Deno's resource
// sanitizer sees a handle left open) and on node:fs elsewhere; each test runs
// on both, the second by hiding Deno.open for its duration.
const open = Deno.open;
const adapters: [string, () => void][] = [
  ["Deno.open", () => {}],
  ["node:fs", () => (Deno as { open?: unknown }).open = undefined],
];

async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "append-file-"));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true });
  }
}

for (const [adapter, choose] of adapters) {
  const run = (fn: (dir: string) => Promise<void>) => async () => {
    choose();
    try {
      await inTempDir(fn);
    } finally {
      Deno.open = open;
    }
  };

  Deno.test(
    `openAppend() on ${adapter}: "create" makes a new file, writes go at its end`,
    run(async (dir) => {
      const path = join(dir, "log.jsonl");
      const file = await openAppend(path, "create");
      await file.write("one\n");
      await file.write("twø ✓\n");
      const synced = file.datasync();
      assertInstanceOf(synced, Promise);
      await synced;
      const closed = file.close();
      assertInstanceOf(closed, Promise);
      await closed;
      assertEquals(await readText(path), "one\ntwø ✓\n");
    }),
  );

  Deno.test(
    `openAppend() on ${adapter}: "create" on an existing file fails with code EEXIST`,
    run(async (dir) => {
      const path = join(dir, "log.jsonl");
      await writeFile(path, "kept\n");
      const e = await assertRejects(() => openAppend(path, "create"));
      assertEquals((e as { code?: string }).code, "EEXIST");
      assertEquals(await readText(path), "kept\n");
    }),
  );

  Deno.test(
    `openAppend() on ${adapter}: "append" adds to an existing file`,
    run(async (dir) => {
      const path = join(dir, "log.jsonl");
      await writeFile(path, "abc\n");
      const file = await openAppend(path, "append");
      await file.write("d\n");
      await file.close();
      assertEquals(await readText(path), "abc\nd\n");
    }),
  );

  Deno.test(
    `openAppend() on ${adapter}: "append" never creates a file`,
    run(async (dir) => {
      const path = join(dir, "missing.jsonl");
      await assertRejects(() => openAppend(path, "append"));
      await assertRejects(() => readText(path));
    }),
  );
}

Deno.test("openAppend() on Deno holds a Deno file, so the resource sanitizer sees it", async () => {
  let opened = 0;
  Deno.open = ((...args: Parameters<typeof open>) => {
    opened++;
    return open(...args);
  }) as typeof open;
  try {
    await inTempDir(async (dir) => {
      const file = await openAppend(join(dir, "x"), "create");
      await file.close();
    });
  } finally {
    Deno.open = open;
  }
  assertEquals(opened, 1);
});
