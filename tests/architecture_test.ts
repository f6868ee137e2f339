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
    `import { FakeLLM } from "../testing/llm/fake_llm.ts";\nexport * from "./x.ts";\nconst m = import("../testing/mod.ts");`;
  assertEquals(importsOf(text), ["../testing/llm/fake_llm.ts", "./x.ts", "../testing/mod.ts"]);
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

// A room is a folder of runtime/ or testing/; its mod.ts is the room's public face.
async function roomsOf(dir: string): Promise<string[]> {
  const rooms: string[] = [];
  for await (const e of Deno.readDir(new URL(`${dir}/`, root_dir))) {
    if (e.isDirectory && !e.name.startsWith("_")) rooms.push(e.name);
  }
  return rooms.sort();
}

for (
  const [dir, expected] of [
    ["testing", [
      "assert",
      "chaos",
      "cli",
      "contracts",
      "eval",
      "hooks",
      "http",
      "llm",
      "mcp",
      "ports",
      "tools",
    ]],
    ["runtime", ["cognition", "hooks", "middleware", "money", "providers", "sessions", "stores"]],
  ] as const
) {
  Deno.test(`architecture: each room of ${dir}/ has a mod.ts that ${dir}/mod.ts re-exports`, async () => {
    const entry = stripComments(await Deno.readTextFile(new URL(`${dir}/mod.ts`, root_dir)));
    const rooms = await roomsOf(dir);
    assert(
      expected.every((r) => rooms.includes(r)),
      `the rooms are there: ${rooms.join(", ")}`,
    );
    const missing = rooms.filter((r) => !importsOf(entry).includes(`./${r}/mod.ts`));
    assertEquals(missing, [], `re-export each room's mod.ts from ${dir}/mod.ts`);
    for (const room of rooms) {
      const text = await Deno.readTextFile(new URL(`${dir}/${room}/mod.ts`, root_dir));
      assert(
        /@module/.test(text) && /@example/.test(text),
        `${dir}/${room}/mod.ts has a module doc with an example`,
      );
    }
  });
}

Deno.test("architecture: the root folders stay small (testing/ at most 12 files, runtime/ at most 30)", async () => {
  for (const [dir, max] of [["testing", 12], ["runtime", 30]] as const) {
    const files: string[] = [];
    for await (const e of Deno.readDir(new URL(`${dir}/`, root_dir))) {
      if (e.isFile) files.push(e.name);
    }
    assert(files.length <= max, `${dir}/ has ${files.length} files; give the new ones a room`);
    assert(files.includes("mod.ts"), "the count sees the folder's files");
  }
});

// Which file a resolved import lands in, as a repository path.
function targetOf(file: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const url = new URL(spec, new URL(file, root_dir));
  return url.pathname.slice(root_dir.pathname.length);
}

// The imports of every file under `dir` that land outside what `allowed` accepts.
async function importsOutside(
  dir: string,
  allowed: (target: string) => boolean,
): Promise<string[]> {
  const offenders: string[] = [];
  for (const file of await sourceFiles(dir)) {
    const text = await Deno.readTextFile(new URL(file, root_dir));
    for (const spec of importsOf(text)) {
      const target = targetOf(file, spec);
      if (target !== undefined && !allowed(target)) offenders.push(`${file} imports ${target}`);
    }
  }
  return offenders;
}

// runtime/'s shared helpers: the private modules at its root and in its
// private rooms (`_secrets/`), and the error classes.
const RUNTIME_HELPER = /^runtime\/(_[a-z_]+|_[a-z_]+\/[a-z_]+|errors|harness_error)\.ts$/;

Deno.test("architecture: runtime/money/, sessions/ and stores/ import nothing of the agent core", async () => {
  for (const room of ["money", "sessions", "stores"]) {
    const offenders = await importsOutside(
      `runtime/${room}`,
      (t) => t.startsWith("ports/") || t.startsWith(`runtime/${room}/`) || RUNTIME_HELPER.test(t),
    );
    assertEquals(offenders, [], `runtime/${room}/ is a leaf: ports/ and runtime's helpers only`);
  }
});

Deno.test("architecture: runtime/providers/ reaches the runtime only through its helpers and stream/", async () => {
  const offenders = await importsOutside(
    "runtime/providers",
    (t) =>
      t.startsWith("ports/") || t.startsWith("runtime/providers/") ||
      t.startsWith("runtime/stream/") || RUNTIME_HELPER.test(t),
  );
  assertEquals(offenders, [], "a real port is a port: it knows no Agent, RunContext or middleware");
});

Deno.test("architecture: the doubles' rooms never import the harness (assert/, eval/, cassette/, http/, frameworks/, contracts/, chaos/)", async () => {
  const harness = /^testing\/(assert|eval|cassette|http|frameworks|contracts|chaos)\//;
  for (const room of ["llm", "tools", "ports", "hooks"]) {
    const offenders = await importsOutside(`testing/${room}`, (t) => !harness.test(t));
    assertEquals(offenders, [], `testing/${room}/ holds doubles; the harness builds on them`);
  }
  const fromPorts = await importsOutside(
    "testing/ports",
    (t) => !/^testing\/(llm|tools|hooks)\//.test(t),
  );
  assertEquals(fromPorts, [], "the ports' doubles stand alone");
});

Deno.test("architecture: chaos/ loads fast-check only when chaos() runs, never at module top level", async () => {
  const offenders: string[] = [];
  for (const file of await sourceFiles("testing/chaos")) {
    const code = stripComments(await Deno.readTextFile(new URL(file, root_dir)));
    // A type-only import is erased; a value import would load fast-check with the package.
    for (const m of code.matchAll(/^\s*import\s+(?!type\b)[^;]*?from\s*["']fast-check["']/gm)) {
      offenders.push(`${file}: ${m[0].trim()}`);
    }
  }
  assertEquals(offenders, [], 'use `await import("fast-check")` inside chaos()');
  const chaos = await Deno.readTextFile(new URL("testing/chaos/chaos.ts", root_dir));
  assert(chaos.includes('await import("fast-check")'), "the check sees the dynamic import");
});

Deno.test("architecture: the room rules see the imports they police", () => {
  // Guards the guard: a target outside the room must be reported.
  assertEquals(targetOf("runtime/money/budget.ts", "../context.ts"), "runtime/context.ts");
  assert(!RUNTIME_HELPER.test("runtime/context.ts") && RUNTIME_HELPER.test("runtime/_options.ts"));
  assertEquals(targetOf("runtime/money/budget.ts", "npm:zod"), undefined);
});

Deno.test("architecture: tests/ mirrors the source tree", async () => {
  const sources = new Set([...await sourceFiles("runtime"), ...await sourceFiles("testing")]);
  const stems = new Map<string, string[]>();
  for (const s of sources) {
    const stem = s.slice(s.lastIndexOf("/") + 1, -3);
    stems.set(stem, [...stems.get(stem) ?? [], s]);
  }
  const misplaced: string[] = [];
  for (const dir of ["runtime", "testing"]) {
    for (const test of await sourceFiles(`tests/${dir}`)) {
      const m = /^tests\/(.*\/)([^/]+)_test\.ts$/.exec(test);
      if (!m) continue;
      const [, folder, stem] = m;
      const homes = stems.get(stem);
      // A test named after a module sits in that module's mirrored folder.
      if (homes && !homes.includes(`${folder}${stem}.ts`)) {
        misplaced.push(`${test} (its module is ${homes.join(" or ")})`);
      }
    }
  }
  assertEquals(misplaced, [], "move the test next to its module's mirror");
  assert(stems.has("fake_llm"), "the check sees the modules");
});

// A static `node:` import of fs, process, child_process or stream starts
// Deno's Node layer in every test file that loads the package (about 20 ms of
// its cold start, bench/cold_start.ts); those load on first use instead
// (runtime/spawn/_builtin.ts, or `await import` on async paths).
// node:async_hooks is the exception: AsyncLocalStorage has no web-standard
// equivalent, and it loads without starting that layer.
const STATIC_NODE =
  /(?:^|[;\n])\s*(?:import|export)\s+(?!type\b)[^;]*?from\s*["'](node:[^"']+)["']|(?:^|[;\n])\s*import\s*["'](node:[^"']+)["']/g;

Deno.test("architecture: no static node: import but node:async_hooks in the package", async () => {
  const scan = (text: string) =>
    [...stripComments(text).matchAll(STATIC_NODE)].map((m) => m[1] ?? m[2]);
  // Guards the guard: a value import and a bare one are seen, a type-only one is not.
  assertEquals(
    scan(
      'import { readFile } from "node:fs/promises";\nimport type * as Url from "node:url";\nimport "node:process";',
    ),
    ["node:fs/promises", "node:process"],
  );
  const offenders: string[] = [];
  for (const dir of ["ports", "runtime", "testing"]) {
    for (const file of await sourceFiles(dir)) {
      for (const spec of scan(await Deno.readTextFile(new URL(file, root_dir)))) {
        if (spec !== "node:async_hooks") offenders.push(`${file} imports ${spec}`);
      }
    }
  }
  assertEquals(offenders, []);
});

// The modules a test file that imports the root entry should not load: each
// is loaded on first use, by an `await import` in a thin module the package
// loads statically (bench/cold_start.ts: on Node every module of the static
// graph costs a few tenths of a millisecond to resolve, read and compile).
const LAZY = ["testing/chaos/chaos.ts"];

// Value imports and re-exports, with or without bindings; `import type`,
// `export type` and `await import(...)` are not part of the static graph.
const STATIC_IMPORT =
  /(?:^|[;\n])\s*(?:import|export)\s+(?!type\b)(?:[^;]*?from\s*)?["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["']([^"']+)["']\s*\)/g;

async function graphOf(entry: string, dynamic: boolean): Promise<Set<string>> {
  const seen = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = stripComments(await Deno.readTextFile(new URL(file, root_dir)));
    const specs = [...code.matchAll(STATIC_IMPORT)].map((m) => m[1]);
    if (dynamic) specs.push(...[...code.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]));
    for (const spec of specs) {
      const target = targetOf(file, spec);
      if (target?.endsWith(".ts")) await visit(target);
    }
  };
  await visit(entry);
  return seen;
}

Deno.test("architecture: the root entry's static graph leaves out what loads on first use", async () => {
  const eager = await graphOf("mod.ts", false);
  assertEquals(LAZY.filter((m) => eager.has(m)), [], "a static import reaches a lazy module");
  // Guards the guard: the walk sees the package, and each lazy module is really loaded somewhere.
  assert(eager.has("testing/llm/fake_llm.ts") && eager.has("testing/chaos/_chaos_entry.ts"));
  assert(!eager.has("ports/llm.ts"), "a type-only re-export is not followed");
  const all = await graphOf("mod.ts", true);
  assertEquals(LAZY.filter((m) => !all.has(m)), [], "each lazy module is imported on first use");
});

// zod and @sinonjs/fake-timers load on first use (runtime/_sync_import.ts):
// a static value import of either puts it back into every test file's cold
// start (on Node 22 about 45 and 35 ms, under Deno fake-timers about 30 ms).
const STATIC_DEPENDENCY =
  /(?:^|[;\n])\s*(?:import|export)\s+(?!type\b)(?:[^;]*?from\s*)?["'](zod|@sinonjs\/fake-timers)(?:\/[^"']*)?["']/g;

Deno.test("architecture: no module of the package imports zod or fake-timers statically", async () => {
  const scan = (text: string) =>
    [...stripComments(text).matchAll(STATIC_DEPENDENCY)].map((m) => m[1]);
  // Guards the guard: value and bare imports are seen, type-only ones and dynamic ones are not.
  assertEquals(
    scan(
      'import { z } from "zod";\nimport type { z as Z } from "zod";\nimport "@sinonjs/fake-timers";\nexport { z } from "zod/mini";\nconst m = await import("zod");',
    ),
    ["zod", "@sinonjs/fake-timers", "zod"],
  );
  const offenders: string[] = [];
  for (const dir of ["ports", "runtime", "testing"]) {
    for (const file of await sourceFiles(dir)) {
      const text = await Deno.readTextFile(new URL(file, root_dir));
      for (const spec of scan(text)) offenders.push(`${file} imports ${spec}`);
    }
  }
  assertEquals(offenders, []);
  // Each is still in the graph through one literal dynamic import, which is what makes Deno
  // install it for a JSR user (nothing imports it statically).
  const all = await graphOf("mod.ts", true);
  assert(all.has("runtime/_lazy/zod.ts") && all.has("testing/_timer_engine.ts"));
});
