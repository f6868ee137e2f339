import { assertEquals, assertInstanceOf, assertRejects, assertStrictEquals } from "@std/assert";
import { pathToFileURL } from "node:url";
import { cwdUrl, env, readTextIfExists, resolveSpecifier } from "../../testing/_env.ts";

Deno.test("cwdUrl() is the working directory as a file URL ending in a slash", () => {
  const here = cwdUrl();
  assertEquals(here.href, pathToFileURL(Deno.cwd()).href + "/");
});

Deno.test("env() reads a variable, undefined when unset", () => {
  const name = "AGENTKIT_ENV_TEST_VARIABLE";
  assertEquals(env(name), undefined);
  Deno.env.set(name, "on");
  try {
    assertEquals(env(name), "on");
  } finally {
    Deno.env.delete(name);
  }
});

Deno.test("readTextIfExists() reads text, undefined for a missing file, throws otherwise", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = new URL(`${pathToFileURL(dir).href}/a.txt`);
    await Deno.writeTextFile(file, "héllo\n");
    assertStrictEquals(await readTextIfExists(file), "héllo\n");
    assertEquals(
      await readTextIfExists(new URL(`${pathToFileURL(dir).href}/missing.txt`)),
      undefined,
    );
    // A directory exists but is not a file: that is a real error, not "absent".
    await assertRejects(() => readTextIfExists(pathToFileURL(dir)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resolveSpecifier() resolves paths against the base and keeps specifiers", async (t) => {
  const base = new URL("file:///project/evals/");
  await t.step("relative paths resolve against the base, not the working directory", () => {
    for (
      const [spec, href] of [
        ["./a.ts", "file:///project/evals/a.ts"],
        ["a.ts", "file:///project/evals/a.ts"],
        ["../b.ts", "file:///project/b.ts"],
        ["sub/", "file:///project/evals/sub/"],
        ["sub/file:v2.json", "file:///project/evals/sub/file:v2.json"],
      ]
    ) {
      const url = resolveSpecifier(spec, base);
      assertInstanceOf(url, URL, spec);
      assertEquals((url as URL).href, href, spec);
    }
  });
  await t.step("absolute paths become file URLs", () => {
    assertEquals((resolveSpecifier("/abs/c.ts", base) as URL).href, "file:///abs/c.ts");
    for (const spec of ["C:\\evals\\d.ts", "c:/evals/d.ts"]) {
      const url = resolveSpecifier(spec, base);
      assertInstanceOf(url, URL, spec);
      assertEquals((url as URL).href, pathToFileURL(spec).href, spec);
    }
  });
  await t.step("specifiers with a scheme are kept as written", () => {
    for (
      const spec of [
        "npm:zod@4",
        "jsr:@std/assert",
        "https://example.com/e.ts",
        "file:///x.ts",
        "a1+b-c.d:x",
      ]
    ) {
      assertStrictEquals(resolveSpecifier(spec, base), spec);
    }
  });
});
