import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { type ModuleHost, syncImport } from "../../../runtime/_lazy/sync_import.ts";

const zodUrl = import.meta.resolve("zod");

Deno.test("syncImport loads the ES module a static import would, the same instance", async () => {
  const loaded = syncImport<typeof import("zod")>("zod", zodUrl, import.meta.url, "a test");
  assertStrictEquals(loaded.z, (await import("zod")).z);
});

Deno.test("syncImport loads a CommonJS package by its resolved file", async () => {
  const url = import.meta.resolve("@sinonjs/fake-timers");
  const loaded = syncImport<{ withGlobal: unknown }>(
    "@sinonjs/fake-timers",
    url,
    import.meta.url,
    "a test",
  );
  const imported = await import("@sinonjs/fake-timers");
  assertStrictEquals(loaded.withGlobal, imported.default.withGlobal);
});

// A fake `process` whose require refuses ES modules, as Node before 20.19 does.
function olderNode(calls: string[]): ModuleHost {
  return {
    getBuiltinModule(id: string): unknown {
      if (id === "node:url") return { fileURLToPath: (u: string) => `path(${u})` };
      if (id !== "node:module") throw new Error(`unexpected builtin ${id}`);
      return {
        createRequire: (from: string) => (spec: string) => {
          calls.push(`${from} -> ${spec}`);
          if (spec.startsWith("path(")) {
            throw Object.assign(new Error("require() of ES Module"), { code: "ERR_REQUIRE_ESM" });
          }
          return { from, spec };
        },
      };
    },
  };
}

Deno.test("syncImport falls back to the CommonJS entry where require(esm) is refused", () => {
  const calls: string[] = [];
  const got = syncImport(
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

Deno.test("syncImport passes on a failure that is not a refused ES module", () => {
  const host: ModuleHost = {
    getBuiltinModule: (id: string) =>
      id === "node:url" ? { fileURLToPath: (u: string) => u } : {
        createRequire: () => () => {
          throw new SyntaxError("broken module");
        },
      },
  };
  assertThrows(
    () => syncImport("zod", "file:///pkg/zod/index.js", "file:///app/m.js", "a test", host),
    SyntaxError,
    "broken module",
  );
});

Deno.test("syncImport resolves from the caller when the dependency did not resolve to a file", () => {
  const calls: string[] = [];
  syncImport("zod", "npm:zod@4", "file:///app/m.js", "a test", olderNode(calls));
  syncImport("zod", undefined, "file:///app/m.js", "a test", olderNode(calls));
  assertEquals(calls, ["file:///app/m.js -> zod", "file:///app/m.js -> zod"]);
});

Deno.test("syncImport says what it needed and why it could not load", () => {
  const none = assertThrows(
    () => syncImport("zod", zodUrl, import.meta.url, "a zod schema", {}),
    Error,
    'a zod schema needs zod, loaded on first use through process.getBuiltinModule("node:module"), which this runtime lacks; use Node 20.16 or later, or Deno 2',
  );
  assertEquals(none.constructor, Error);
  const remote = assertThrows(
    () => syncImport("zod", "npm:zod@4", "https://jsr.io/x/m.ts", "a zod schema", olderNode([])),
    Error,
  );
  assertEquals(
    remote.message,
    "a zod schema could not load zod: it resolved to npm:zod@4 from https://jsr.io/x/m.ts, and neither is a file require() can load; import zod once before this call, or report the runtime you use",
  );
  const refused = assertThrows(
    () => syncImport("zod", "file:///z.js", "https://jsr.io/x/m.ts", "a zod schema", olderNode([])),
    Error,
  );
  assert(refused.message.includes("(Error: require() of ES Module)"), refused.message);
  assert(
    refused.message.startsWith("a zod schema could not load zod: it resolved to file:///z.js"),
  );
  const unresolved = assertThrows(
    () => syncImport("zod", undefined, "https://jsr.io/x/m.ts", "a zod schema", olderNode([])),
    Error,
  );
  assert(unresolved.message.includes("it resolved to nothing from"), unresolved.message);
});
