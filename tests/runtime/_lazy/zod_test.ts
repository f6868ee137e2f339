import { assertEquals, assertStrictEquals } from "@std/assert";
import { forgetZod, importZod, zod, ZOD_SPECIFIER } from "../../../runtime/_lazy/zod.ts";

Deno.test("zod() is the z of the user's own import, loaded once", async () => {
  const { z } = await import("zod");
  assertStrictEquals(zod(), z);
  assertStrictEquals(zod(), zod());
  assertStrictEquals((await importZod()).z, z);
  // A schema ours builds and one the user builds are one zod's: parse and JSON Schema agree.
  const ours = zod().object({ a: zod().string() });
  assertStrictEquals(ours.safeParse({ a: "x" }).success, true);
  assertStrictEquals(
    JSON.stringify(z.toJSONSchema(ours)),
    JSON.stringify(zod().toJSONSchema(ours)),
  );
});

Deno.test("zod() loads zod once, and again after forgetZod(), finding the same module", async () => {
  const { z } = await import("zod");
  zod(); // loaded before the count starts, whichever test ran first
  const host = (globalThis as { process: { getBuiltinModule(id: string): unknown } }).process;
  const real = host.getBuiltinModule;
  const asked: string[] = [];
  host.getBuiltinModule = (id: string) => {
    asked.push(id);
    return real.call(host, id);
  };
  try {
    zod();
    forgetZod();
    assertStrictEquals(zod(), z);
    assertStrictEquals(zod(), z);
  } finally {
    host.getBuiltinModule = real;
  }
  assertEquals(asked.filter((id) => id === "node:module"), ["node:module"]);
});

Deno.test("the qualified specifiers the loaders resolve under Deno are deno.json's", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../../../deno.json", import.meta.url)),
  );
  const { FAKE_TIMERS_SPECIFIER } = await import("../../../testing/_timer_engine.ts");
  assertEquals(
    [ZOD_SPECIFIER, FAKE_TIMERS_SPECIFIER],
    [config.imports["zod"], config.imports["@sinonjs/fake-timers"]],
  );
});
