import { assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import * as path from "node:path";
import { builtin } from "../../../runtime/spawn/_builtin.ts";

Deno.test("builtin() returns the node: module itself, loaded through process.getBuiltinModule", () => {
  const loaded = builtin<typeof path>("node:path", "A test");
  assertStrictEquals(loaded.join, path.join);
  assertEquals(loaded.join("a", "b"), `a${path.sep}b`);
});

Deno.test("builtin() names who needs the module and the Node it takes when the runtime lacks getBuiltinModule", () => {
  const real = Object.getOwnPropertyDescriptor(globalThis, "process");
  for (const host of [undefined, {}, { getBuiltinModule: () => undefined }]) {
    Object.defineProperty(globalThis, "process", {
      value: host,
      configurable: true,
      writable: true,
    });
    try {
      assertThrows(
        () => builtin("node:fs", "A Cassette"),
        Error,
        "A Cassette needs node:fs, loaded through process.getBuiltinModule, which this runtime lacks; use Node 20.16 or later (or Deno 2)",
      );
    } finally {
      if (real) Object.defineProperty(globalThis, "process", real);
      else delete (globalThis as { process?: unknown }).process;
    }
  }
});
