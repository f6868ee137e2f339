// ChaosTool, what world.tool(t) hands the agent: the same tool as far as
// the agent can tell, every call going through the world's runner.
import { assertEquals, assertRejects, assertStrictEquals } from "@std/assert";
import type { Ctx, ToolPort } from "@agentkit/testing/ports";
import { makeTestCtx } from "@agentkit/testing/testing";
import { ChaosTool } from "../../../testing/chaos/_chaos_tool.ts";

const bare: ToolPort = {
  name: "bare",
  description: "a ToolPort that claims neither approval nor idempotency",
  parameters: { type: "object" },
  call: () => Promise.resolve("inner"),
};
const charge: ToolPort = {
  ...bare,
  name: "charge",
  requiresApproval: false,
  idempotent: false,
};

Deno.test("ChaosTool has the inner tool's own properties, and no flag the inner tool leaves unset", () => {
  for (const inner of [bare, charge]) {
    const wrapped = new ChaosTool(inner, () => "x");
    const own = Object.keys(inner).filter((k) => k !== "call").sort();
    assertEquals(Object.keys(wrapped).sort(), own);
    for (const key of own) {
      assertStrictEquals(
        (wrapped as unknown as Record<string, unknown>)[key],
        (inner as unknown as Record<string, unknown>)[key],
      );
    }
  }
  // Unset means not claimed either way: `in` sees no flag on the bare tool's wrapper.
  const wrapped = new ChaosTool(bare, () => "x");
  assertEquals(["requiresApproval" in wrapped, "idempotent" in wrapped], [false, false]);
  // A flag set to false is kept as false.
  const flagged = new ChaosTool(charge, () => "x");
  assertEquals([flagged.requiresApproval, flagged.idempotent], [false, false]);
});

Deno.test("ChaosTool.call hands the runner the wrapper, the inner tool, the arguments and the context", async () => {
  const seen: unknown[] = [];
  const ctx: Ctx = makeTestCtx();
  const wrapped = new ChaosTool(bare, (w, inner, args, c) => {
    seen.push(w, inner, args, c);
    return "ran";
  });
  const args = { q: 1 };
  assertEquals(await wrapped.call(args, ctx), "ran");
  assertEquals(seen.length, 4);
  assertStrictEquals(seen[0], wrapped);
  assertStrictEquals(seen[1], bare);
  assertStrictEquals(seen[2], args);
  assertStrictEquals(seen[3], ctx);
});

Deno.test("ChaosTool.call is a promise whatever the runner does: a value, a promise, or a throw", async () => {
  const ctx = makeTestCtx();
  const plain = new ChaosTool(bare, () => 42).call({}, ctx);
  assertEquals(await plain, 42);
  assertEquals(await new ChaosTool(bare, () => Promise.resolve(7)).call({}, ctx), 7);
  class ToolBroke extends Error {
    override name = "ToolBroke";
  }
  // A runner that throws at once still fails the call as a rejection, never a throw at the caller.
  const failing = new ChaosTool(bare, () => {
    throw new ToolBroke("injected");
  }).call({}, ctx);
  await assertRejects(() => failing, ToolBroke, "injected");
});
