// The ambient request policy: set around a piece of code, seen by everything
// it starts, gone after it.
import { assertEquals } from "@std/assert";
import { ambientPolicy, underPolicy } from "../../runtime/_ambient.ts";

Deno.test("underPolicy(): the policy is ambient inside, across awaits, and gone after", async () => {
  assertEquals(ambientPolicy(), undefined);
  const refusing = { allowModelRequests: false };
  const seen = await underPolicy(refusing, async () => {
    const before = ambientPolicy();
    await Promise.resolve();
    await new Promise<void>((r) => queueMicrotask(r));
    return [before, ambientPolicy()];
  });
  assertEquals(seen, [refusing, refusing]);
  assertEquals(ambientPolicy(), undefined);
  // Nested: the inner one wins inside it, the outer one after it.
  underPolicy(refusing, () => {
    underPolicy(
      { allowModelRequests: true },
      () => assertEquals(ambientPolicy()?.allowModelRequests, true),
    );
    assertEquals(ambientPolicy(), refusing);
  });
  assertEquals(underPolicy(refusing, () => 42), 42);
});
