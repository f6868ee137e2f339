import { assert, assertEquals, assertThrows } from "@std/assert";
import { CollectingObserver } from "@agentkit/testing/runtime";

Deno.test("CollectingObserver keeps every observation until closed", () => {
  const observer = new CollectingObserver();
  const first = { kind: "step", text: "planning", at: 1 };
  observer.emit(first);
  observer.emit({ kind: "result", text: "done", at: 2 });
  assertEquals(observer.items.map((o) => o.kind), ["step", "result"]);
  assertEquals(observer.items[0], first);
  assertEquals(observer.closed, false);
  observer.close();
  observer.close();
  assertEquals(observer.closed, true);
});

Deno.test("CollectingObserver refuses an observation after close()", () => {
  const observer = new CollectingObserver();
  observer.close();
  const e = assertThrows(
    () => observer.emit({ kind: "late", text: "x", at: 3 }),
    TypeError,
    'Cannot emit "late": this CollectingObserver is closed',
  );
  assert(e.message.includes("emit before close()"));
  assertEquals(observer.items, []);
});
