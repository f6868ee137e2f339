import { assertRejects } from "@std/assert";

Deno.test("offline by construction: the loopback suite cannot reach a non-loopback host", async () => {
  // Permission is checked before any packet leaves, so this needs no network.
  await assertRejects(() => fetch("http://192.0.2.1/"), Deno.errors.NotCapable);
});
