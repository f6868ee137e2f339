import { assertEquals, assertStrictEquals } from "@std/assert";
import { failedAfter, failedRuns, noteRunFailed } from "../../../runtime/stream/_run_failed.ts";

Deno.test("_run_failed: a run's failure is found by its context, after a double's last call", () => {
  const ctx = {};
  const before = failedRuns();
  assertEquals(failedAfter(ctx, before), undefined);
  const error = new Error("boom");
  noteRunFailed(ctx, error);
  assertEquals(failedRuns(), before + 1);
  const failure = failedAfter(ctx, before);
  assertStrictEquals(failure?.error, error);
  assertEquals(failure?.at, before + 1);
  // A double called after the failure (at = failedRuns() then) is not excused by it.
  assertEquals(failedAfter(ctx, failedRuns()), undefined);
});

Deno.test("_run_failed: another context's failure is not this one's; no context takes the last", () => {
  const mine = {};
  const theirs = {};
  const at = failedRuns();
  noteRunFailed(theirs, "their error");
  assertEquals(failedAfter(mine, at), undefined);
  assertEquals(failedAfter(null, at)?.error, "their error");
  assertEquals(failedAfter(undefined, at)?.error, "their error");
  noteRunFailed(mine, "mine, later");
  assertEquals(failedAfter(undefined, at)?.error, "mine, later");
  assertEquals(failedAfter(theirs, at)?.error, "their error");
  // The latest failure of a context is the one kept.
  noteRunFailed(theirs, "theirs again");
  assertEquals(failedAfter(theirs, at)?.error, "theirs again");
});
