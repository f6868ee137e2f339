import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { type ModuleHost, requireModule, syncImport } from "../../../runtime/_lazy/sync_import.ts";

Deno.test("syncImport loads the ES module a static import would, the same instance", async () => {
  const loaded = syncImport<typeof import("zod")>("zod", "a test");
  assertStrictEquals(loaded.z, (await import("zod")).z);
});

Deno.test("syncImport loads a CommonJS package by its resolved file", async () => {
  const loaded = syncImport<{ withGlobal: unknown }>("@sinonjs/fake-timers", "a test");
  const imported = await import("@sinonjs/fake-timers");
  assertStrictEquals(loaded.withGlobal, imported.default.withGlobal);
});

Deno.test("syncImport of what nothing resolves fails with require's own error", () => {
  const error = assertThrows(() => syncImport("agentkit-no-such-package", "a test"), Error);
  assert(/agentkit-no-such-package/.test(error.message), error.message);
});

// A fake `process` whose require refuses ES modules (as Node before 20.19
// does) and resolves a bare name to a record of the call.
function olderNode(calls: string[], fails?: { readonly error: unknown }): ModuleHost {
  return {
    getBuiltinModule(id: string): unknown {
      if (id === "node:url") return { fileURLToPath: (u: string) => `path(${u})` };
      if (id !== "node:module") throw new Error(`unexpected builtin ${id}`);
      return {
        createRequire: (from: string) => (spec: string) => {
          calls.push(`${from} -> ${spec}`);
          if (spec.startsWith("path(")) {
            if (fails) throw fails.error;
            throw Object.assign(new Error("require() of ES Module"), { code: "ERR_REQUIRE_ESM" });
          }
          return { from, spec };
        },
      };
    },
  };
}

Deno.test("requireModule falls back to the CommonJS entry where require(esm) is refused", () => {
  const calls: string[] = [];
  const got = requireModule(
    "zod",
    "file:///pkg/zod/index.js",
    "file:///app/m.js",
    "a test",
    olderNode(calls),
  );
  assertEquals(got, { from: "file:///app/m.js", spec: "zod" });
  assertEquals(calls, [
    "file:///pkg/zod/index.js -> path(file:///pkg/zod/index.js)",
    "file:///app/m.js -> zod",
  ]);
});

Deno.test("requireModule passes on a failure that is not a refused ES module", () => {
  const calls: string[] = [];
  const broken = new SyntaxError("broken module");
  const host = olderNode(calls, { error: broken });
  const thrown = assertThrows(() =>
    requireModule("zod", "file:///pkg/zod/index.js", "file:///app/m.js", "a test", host)
  );
  assertStrictEquals(thrown, broken);
  assertEquals(calls.length, 1, "no second try");
  let caught: unknown = "nothing";
  try {
    requireModule(
      "zod",
      "file:///pkg/zod/index.js",
      "file:///app/m.js",
      "a test",
      olderNode([], { error: null }),
    );
  } catch (error) {
    caught = error;
  }
  assertStrictEquals(caught, null, "a thrown null is passed on as it is");
});

Deno.test("requireModule resolves from the caller when the dependency did not resolve to a file", () => {
  const calls: string[] = [];
  requireModule("zod", "npm:zod@4", "file:///app/m.js", "a test", olderNode(calls));
  requireModule("zod", undefined, "file:///app/m.js", "a test", olderNode(calls));
  assertEquals(calls, ["file:///app/m.js -> zod", "file:///app/m.js -> zod"]);
});

Deno.test("requireModule says what it needed and why it could not load", () => {
  const lacks =
    'a zod schema needs zod, loaded on first use through process.getBuiltinModule("node:module"), which this runtime lacks; use Node 20.16 or later, or Deno 2';
  for (const host of [undefined, {}]) {
    const error = assertThrows(
      () => requireModule("zod", "file:///z.js", "file:///m.js", "a zod schema", host),
      Error,
    );
    assertEquals([error.constructor, error.message], [Error, lacks]);
  }
  const remote = assertThrows(
    () => requireModule("zod", "npm:zod@4", "https://jsr.io/x/m.ts", "a zod schema", olderNode([])),
    Error,
  );
  assertEquals(
    remote.message,
    "a zod schema could not load zod: it resolved to npm:zod@4 from https://jsr.io/x/m.ts, and neither is a file require() can load; import zod once before this call, or report the runtime you use",
  );
  const refused = assertThrows(
    () =>
      requireModule("zod", "file:///z.js", "https://jsr.io/x/m.ts", "a zod schema", olderNode([])),
    Error,
  );
  assert(refused.message.includes("(Error: require() of ES Module)"), refused.message);
  assert(
    refused.message.startsWith("a zod schema could not load zod: it resolved to file:///z.js"),
  );
  const unresolved = assertThrows(
    () => requireModule("zod", undefined, "https://jsr.io/x/m.ts", "a zod schema", olderNode([])),
    Error,
  );
  assert(unresolved.message.includes("it resolved to nothing from"), unresolved.message);
});
