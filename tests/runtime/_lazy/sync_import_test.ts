import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import fc from "fast-check";
import {
  bareName,
  dependencyFile,
  type ModuleHost,
  requireModule,
  syncImport,
} from "../../../runtime/_lazy/sync_import.ts";

Deno.test("syncImport loads the ES module a static import would, the same instance", async () => {
  const loaded = syncImport<typeof import("zod")>("npm:zod@^4.1.0", "a test");
  assertStrictEquals(loaded.z, (await import("zod")).z);
});

Deno.test("syncImport under Deno resolves the qualified specifier, else the bare name", async () => {
  const { z } = await import("zod");
  // A range of zod the package's graph does not hold resolves to no file: the bare name is used.
  const bare = syncImport<typeof import("zod")>("npm:zod@^99.0.0", "a test");
  assertStrictEquals(bare.z, z);
});

Deno.test("dependencyFile: under Deno the qualified specifier first, elsewhere the bare name only", () => {
  const asked: string[] = [];
  const resolver = (table: Record<string, string>) => (s: string) => {
    asked.push(s);
    if (!(s in table)) throw new TypeError(`cannot resolve ${s}`);
    return table[s];
  };
  const both = resolver({ "npm:zod@^4.1.0": "file:///q/index.js", "zod": "file:///b/index.js" });
  assertEquals(dependencyFile("npm:zod@^4.1.0", true, both), "file:///q/index.js");
  assertEquals(dependencyFile("npm:zod@^4.1.0", false, both), "file:///b/index.js");
  assertEquals(asked, ["npm:zod@^4.1.0", "zod"], "Node never asks for an npm: specifier");
  // Deno answers a specifier it has not installed with the specifier itself: no file.
  const notInstalled = resolver({
    "npm:zod@^4.1.0": "npm:zod@^4.1.0",
    "zod": "file:///b/index.js",
  });
  assertEquals(dependencyFile("npm:zod@^4.1.0", true, notInstalled), "file:///b/index.js");
  assertEquals(dependencyFile("npm:zod@^4.1.0", true, resolver({})), undefined);
  assertEquals(dependencyFile("npm:zod@^4.1.0", false, resolver({ zod: "npm:zod" })), undefined);
});

Deno.test("bareName takes the package out of an npm: specifier", () => {
  assertEquals(
    [
      bareName("npm:zod@^4.1.0"),
      bareName("npm:@sinonjs/fake-timers@^15.0.0"),
      bareName("npm:zod"),
      bareName("npm:@scope/name"),
      bareName("zod"),
    ],
    ["zod", "@sinonjs/fake-timers", "zod", "@scope/name", "zod"],
  );
});

Deno.test("syncImport loads a CommonJS package by its resolved file", async () => {
  const loaded = syncImport<{ withGlobal: unknown }>("npm:@sinonjs/fake-timers@^15.0.0", "a test");
  const imported = await import("@sinonjs/fake-timers");
  assertStrictEquals(loaded.withGlobal, imported.default.withGlobal);
});

Deno.test("syncImport of what nothing resolves says who needed it, with require's error as the cause", () => {
  const error = assertThrows(
    () => syncImport("npm:agentkit-no-such-package@1", "a test"),
    Error,
  );
  assert(
    error.message.startsWith(
      "a test could not load agentkit-no-such-package (require's resolution from file:",
    ),
    error.message,
  );
  assert(error.cause instanceof Error && /agentkit-no-such-package/.test(error.cause.message));
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

Deno.test("requireModule reports a failure that is not a refused ES module, with it as the cause", () => {
  const calls: string[] = [];
  const broken = new SyntaxError("broken module");
  const host = olderNode(calls, { error: broken });
  const thrown = assertThrows(() =>
    requireModule("zod", "file:///pkg/zod/index.js", "file:///app/m.js", "a test", host)
  );
  assertEquals(
    (thrown as Error).message,
    "a test could not load zod (file:///pkg/zod/index.js): SyntaxError: broken module",
  );
  assertStrictEquals((thrown as Error).cause, broken);
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
  assertStrictEquals((caught as Error).cause, null, "a thrown null is the cause as it is");
});

Deno.test("requireModule resolves from the caller when the dependency resolved to no file", () => {
  const calls: string[] = [];
  requireModule("zod", undefined, "file:///app/m.js", "a test", olderNode(calls));
  assertEquals(calls, ["file:///app/m.js -> zod"]);
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
  const tail =
    "is not a file to require it from; load the package from its installed files (not a bundle of it), on Node 20.16 or later or Deno 2";
  const remote = assertThrows(
    () => requireModule("zod", undefined, "https://jsr.io/x/m.ts", "a zod schema", olderNode([])),
    Error,
  );
  assertEquals(
    remote.message,
    `a zod schema could not load zod: it resolved to no file, and this module (https://jsr.io/x/m.ts) ${tail}`,
  );
  // A CommonJS bundle has no import.meta.url.
  const bundled = assertThrows(
    () => requireModule("zod", undefined, undefined, "a zod schema", olderNode([])),
    Error,
  );
  assertEquals(
    bundled.message,
    `a zod schema could not load zod: it resolved to no file, and this module (undefined) ${tail}`,
  );
  const refused = assertThrows(
    () =>
      requireModule("zod", "file:///z.js", "https://jsr.io/x/m.ts", "a zod schema", olderNode([])),
    Error,
  );
  assertEquals(
    refused.message,
    `a zod schema could not load zod: it resolved to file:///z.js (Error: require() of ES Module), and this module (https://jsr.io/x/m.ts) ${tail}`,
  );
});

Deno.test("bareName: property, the package of any npm: specifier, with or without a version", () => {
  const part = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,20}$/);
  const name = fc.oneof(part, fc.tuple(part, part).map(([s, n]) => `@${s}/${n}`));
  const version = fc.option(fc.stringMatching(/^[~^]?[0-9]{1,3}(\.[0-9]{1,3}){0,2}$/), {
    nil: undefined,
  });
  fc.assert(
    fc.property(name, version, (n, v) => {
      assertEquals(bareName(v === undefined ? `npm:${n}` : `npm:${n}@${v}`), n);
      // A name that is not an npm: specifier is left as it is.
      assertEquals(bareName(n), n);
    }),
    { numRuns: 2_000 },
  );
});
