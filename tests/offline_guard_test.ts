import { assertEquals } from "@std/assert";

Deno.test("offline by construction: the unit suite runs without network permission", async () => {
  assertEquals((await Deno.permissions.query({ name: "net" })).state, "prompt");
});
