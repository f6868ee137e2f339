import { assertEquals, assertRejects, assertStrictEquals } from "@std/assert";
import { untilAborted } from "../../runtime/_until_aborted.ts";
import { NEVER } from "../../runtime/_never.ts";
import { trackedSignal as tracked } from "../fixtures/tracked_signal.ts";

Deno.test("untilAborted() settles as the promise does, and removes its listener", async (t) => {
  await t.step("fulfilled", async () => {
    const s = tracked();
    assertEquals(await untilAborted(Promise.resolve(7), s.signal), 7);
    assertEquals(s.live(), 0);
  });
  await t.step("rejected", async () => {
    const s = tracked();
    const boom = new Error("boom");
    const err = await assertRejects(() => untilAborted(Promise.reject(boom), s.signal));
    assertStrictEquals(err, boom);
    assertEquals(s.live(), 0);
  });
});

Deno.test("untilAborted() rejects with the abort reason while the work still runs", async () => {
  const s = tracked();
  const { promise, resolve } = Promise.withResolvers<string>();
  const raced = untilAborted(promise, s.signal);
  const reason = new Error("stop");
  s.controller.abort(reason);
  const err = await assertRejects(() => raced);
  assertStrictEquals(err, reason);
  resolve("late"); // the work ends later; its value goes nowhere
});

Deno.test("untilAborted() swallows a late failure of work it stopped waiting for", async () => {
  const s = tracked();
  const { promise, reject } = Promise.withResolvers<string>();
  const raced = untilAborted(promise, s.signal);
  s.controller.abort("stop");
  assertEquals(await raced.catch((e) => e), "stop");
  reject(new Error("late failure")); // no unhandled rejection may follow
  for (let i = 0; i < 3; i++) await Promise.resolve();
});

Deno.test("untilAborted() on an aborted signal rejects at once and swallows the work's failure", async () => {
  const c = new AbortController();
  c.abort("already");
  const { promise, reject } = Promise.withResolvers<string>();
  let settled = false;
  const raced = untilAborted(promise, c.signal).finally(() => settled = true);
  await Promise.resolve();
  await Promise.resolve();
  assertEquals(settled, true, "no wait on the work");
  assertEquals(await raced.catch((e) => e), "already");
  reject(new Error("late failure"));
  for (let i = 0; i < 3; i++) await Promise.resolve();
});

Deno.test("untilAborted() on the never-aborting signal returns the work itself", () => {
  const work = Promise.resolve(1);
  const add = NEVER.addEventListener;
  let added = 0;
  NEVER.addEventListener = ((...args: Parameters<typeof add>) => {
    added++;
    add.apply(NEVER, args);
  }) as typeof add;
  try {
    assertStrictEquals(untilAborted(work, NEVER), work);
    assertEquals(added, 0, "nothing to race, so no listener");
  } finally {
    delete (NEVER as { addEventListener?: unknown }).addEventListener;
  }
});
