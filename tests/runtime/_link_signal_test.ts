import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import { linkSignal } from "../../runtime/_link_signal.ts";

Deno.test("linkSignal() aborts its controller with the reason of the first parent to abort", () => {
  const a = new AbortController();
  const b = new AbortController();
  const seen: unknown[] = [];
  const link = linkSignal([a.signal, undefined, b.signal], (reason) => seen.push(reason));
  assert(!link.controller.signal.aborted);
  const reason = new Error("b first");
  b.abort(reason);
  assertStrictEquals(link.controller.signal.reason, reason);
  a.abort("a later");
  assertStrictEquals(link.controller.signal.reason, reason, "the first reason stays");
  assertEquals(seen, [reason, "a later"]);
  link.unlink();
});

Deno.test("linkSignal() calls onAbort before the controller's listeners see the abort", () => {
  const parent = new AbortController();
  const order: string[] = [];
  const link = linkSignal([parent.signal], () => order.push("onAbort"));
  link.controller.signal.addEventListener("abort", () => order.push("listener"));
  parent.abort();
  assertEquals(order, ["onAbort", "listener"]);
  link.unlink();
});

Deno.test("linkSignal() is aborted at once when a parent already is", () => {
  const seen: unknown[] = [];
  const link = linkSignal([undefined, AbortSignal.abort("early")], (r) => seen.push(r));
  assert(link.controller.signal.aborted);
  assertEquals(link.controller.signal.reason, "early");
  assertEquals(seen, ["early"]);
  link.unlink();
});

Deno.test("linkSignal() with no parents is a plain controller", () => {
  const link = linkSignal([undefined, undefined]);
  assert(!link.controller.signal.aborted);
  link.controller.abort("by hand");
  assertEquals(link.controller.signal.reason, "by hand");
  link.unlink();
});

Deno.test("linkSignal(): after unlink() a parent's abort no longer reaches the controller", () => {
  const a = new AbortController();
  const b = new AbortController();
  let calls = 0;
  const link = linkSignal([a.signal, b.signal, a.signal], () => calls++);
  link.unlink();
  a.abort();
  b.abort();
  assert(!link.controller.signal.aborted);
  assertEquals(calls, 0);
});
