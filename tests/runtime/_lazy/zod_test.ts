import { assertStrictEquals } from "@std/assert";
import { loadZod, zod } from "../../../runtime/_lazy/zod.ts";

Deno.test("zod() is the z of the user's own import, loaded once", async () => {
  const { z } = await import("zod");
  assertStrictEquals(zod(), z);
  assertStrictEquals(zod(), zod());
  assertStrictEquals(await loadZod(), z);
  // A schema ours builds and one the user builds are one zod's: parse and JSON Schema agree.
  const ours = zod().object({ a: zod().string() });
  assertStrictEquals(ours.safeParse({ a: "x" }).success, true);
  assertStrictEquals(
    JSON.stringify(z.toJSONSchema(ours)),
    JSON.stringify(zod().toJSONSchema(ours)),
  );
});
