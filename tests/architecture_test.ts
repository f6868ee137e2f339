import { assert, assertEquals } from "@std/assert";
import * as ports from "@agentkit/testing/ports";
import * as runtime from "@agentkit/testing/runtime";
import * as testing from "@agentkit/testing/testing";
import * as root from "@agentkit/testing";

const root_dir = new URL("../", import.meta.url);

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(new URL(rel, root_dir))) {
      const path = `${rel}${e.name}`;
      if (e.isDirectory) await walk(`${path}/`);
      else if (e.name.endsWith(".ts")) out.push(path);
    }
  };
  await walk(`${dir}/`);
  return out.sort();
}

// Matches static imports, re-exports and dynamic imports of a specifier.
const IMPORT = /(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

// JSDoc examples legitimately import the doubles; only code counts.
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

function importsOf(text: string): string[] {
  return [...stripComments(text).matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
}

Deno.test("architecture: runtime/ and ports/ never import testing/", async () => {
  const offenders: string[] = [];
  for (const dir of ["runtime", "ports"]) {
    for (const file of await sourceFiles(dir)) {
      const text = await Deno.readTextFile(new URL(file, root_dir));
      for (const spec of importsOf(text)) {
        if (
          /(^|\/)testing(\/|\.ts$|$)/.test(spec) || spec.startsWith("@agentkit/testing/testing")
        ) {
          offenders.push(`${file} imports ${spec}`);
        }
      }
    }
  }
  assertEquals(offenders, []);
});

Deno.test("architecture: ports/ imports nothing of ours outside ports/", async () => {
  const offenders: string[] = [];
  for (const file of await sourceFiles("ports")) {
    const text = await Deno.readTextFile(new URL(file, root_dir));
    for (const spec of importsOf(text)) {
      if (spec.startsWith("../") || spec.startsWith("@agentkit/")) {
        offenders.push(`${file} imports ${spec}`);
      }
    }
  }
  assertEquals(offenders, []);
});

Deno.test("architecture: the import scanner sees the imports it must police", () => {
  // Guards the guard: if the pattern stopped matching, the tests above would pass vacuously.
  const text =
    `import { FakeLLM } from "../testing/fake_llm.ts";\nexport * from "./x.ts";\nconst m = import("../testing/mod.ts");`;
  assertEquals(importsOf(text), ["../testing/fake_llm.ts", "./x.ts", "../testing/mod.ts"]);
});

Deno.test("architecture: no Fake* name is exported from ./runtime or ./ports", () => {
  const fakes = [...Object.keys(runtime), ...Object.keys(ports)].filter((k) => /^Fake/.test(k));
  assertEquals(fakes, []);
  assert(Object.keys(testing).some((k) => k === "FakeLLM"), "the check can see testing's exports");
});

Deno.test("architecture: the root entry re-exports ports, runtime and testing", () => {
  for (const mod of [ports, runtime, testing]) {
    for (const key of Object.keys(mod)) assert(key in root, `root is missing ${key}`);
  }
});

Deno.test("architecture: testing/ reaches into runtime/ only through its public modules and runtime/internal.ts", async () => {
  const offenders: string[] = [];
  for (const file of await sourceFiles("testing")) {
    const text = await Deno.readTextFile(new URL(file, root_dir));
    for (const spec of importsOf(text)) {
      const target = new URL(spec, new URL(file, root_dir)).pathname;
      const inRuntime = target.includes("/runtime/");
      // A private module is a file or folder whose name starts with "_".
      if (inRuntime && /\/_[^/]*/.test(target.slice(target.indexOf("/runtime/")))) {
        offenders.push(`${file} imports ${spec}`);
      }
    }
  }
  assertEquals(
    offenders,
    [],
    "import it through runtime/internal.ts, where the handshake is listed",
  );
});

Deno.test("architecture: runtime/internal.ts is not public, and it is only re-exports", async () => {
  const internal = await import("../runtime/internal.ts");
  const leaked = Object.keys(internal).filter((k) => k in runtime || k in root);
  assertEquals(leaked, []);
  const text = stripComments(await Deno.readTextFile(new URL("runtime/internal.ts", root_dir)));
  const code = text.split("\n").filter((l) => l.trim() !== "");
  assert(
    code.every((l) => l.startsWith("export {")),
    "internal.ts lists handshakes; code lives elsewhere",
  );
  assert(Object.keys(internal).includes("isAppendOnly"), "the check can see the module's exports");
});

// Deno's default test glob ({*_,*.,}test.{ts,...}), and the Jest/Vitest ones.
const TEST_FILE = /(^|[_.])test\.[cm]?[jt]sx?$|\.spec\.[cm]?[jt]sx?$/;

Deno.test("architecture: no product file is named like a test file", async () => {
  const offenders = [];
  for (const dir of ["ports", "runtime", "testing"]) {
    for (const file of await sourceFiles(dir)) {
      if (TEST_FILE.test(file.slice(file.lastIndexOf("/") + 1))) offenders.push(file);
    }
  }
  assertEquals(offenders, [], "a test runner given the folder would run these as tests");
  // Guards the guard.
  for (const name of ["agent_test.ts", "x.test.ts", "test.ts", "x.spec.ts"]) {
    assert(TEST_FILE.test(name), `${name} is a test-file name`);
  }
  for (const name of ["test_config.ts", "make_test_ctx.ts", "api_test_client.ts", "attest.ts"]) {
    assert(!TEST_FILE.test(name), `${name} is not a test-file name`);
  }
});

Deno.test("architecture: each room of testing/ has a mod.ts that testing/mod.ts re-exports", async () => {
  const entry = stripComments(await Deno.readTextFile(new URL("testing/mod.ts", root_dir)));
  const rooms: string[] = [];
  for await (const e of Deno.readDir(new URL("testing/", root_dir))) {
    if (e.isDirectory && !e.name.startsWith("_")) rooms.push(e.name);
  }
  assert(
    ["cli", "contracts", "eval", "http"].every((r) => rooms.includes(r)),
    `the rooms are there: ${rooms.sort().join(", ")}`,
  );
  const missing = rooms.filter((r) => !importsOf(entry).includes(`./${r}/mod.ts`));
  assertEquals(missing, [], "re-export each room's mod.ts from testing/mod.ts");
  for (const room of rooms) {
    await Deno.stat(new URL(`testing/${room}/mod.ts`, root_dir));
  }
});
