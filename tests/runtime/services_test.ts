import { assertInstanceOf, assertStrictEquals, assertThrows } from "@std/assert";
import { PriceTable, Services, SystemClock } from "@agentkit/testing/runtime";
import { FakeClock } from "@agentkit/testing/testing";

Deno.test("new Services(): real defaults, or the adapters given", () => {
  const defaults = new Services();
  assertInstanceOf(defaults.clock, SystemClock);
  assertStrictEquals(defaults.prices, PriceTable.default());
  const clock = new FakeClock();
  assertStrictEquals(new Services({ clock }).clock, clock);
});

Deno.test("new Services() checks its options by name", () => {
  assertThrows(
    () => new Services({ clok: new FakeClock() } as never),
    TypeError,
    "new Services():",
  );
  assertThrows(() => new Services({ clock: {} as never }), TypeError, "new Services():");
});
