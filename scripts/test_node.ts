// Runs tests/node/ with plain Node against dist/npm (build it first:
// `deno task build:npm`), the way a Node user gets the package: dist/npm is
// packed and installed from the tarball into a throwaway consumer project in
// a temp dir, next to typescript (the version deno.json pins), vitest and
// @types/node. Then `node --test` runs the *_test.mjs files there. npm
// reaches the registry only for the consumer's tools (with --prefer-offline);
// the tests themselves make no network calls.
//
// The same tests run on every Node line the package supports (NODE_LINES):
// the machine's node, and Node 22 and 24 from the npm package `node`
// (`npx --yes node@22`), each first on PATH so that the tools the tests start
// (tsc, vitest) run on it too. Vitest 5, what `npm i -D vitest` installs on
// Node 22 and 24, wants Node 22 or later, so there are two consumers: one with
// Vitest 5 for Node 22 and 24, one with Vitest 3 for Node 20, each given the
// form of the matchers' type merge docs/testing.md gives for its major.
//
// Copied verbatim from the docs: the README's Node example (a node:test file,
// importing the package by the name `npx jsr add` gives it,
// `@agentkit/testing`), the README's node:test and Vitest files into a folder
// of their own (readme_layout/, where each runner is started with no file
// named, to show that neither collects the other's), and docs/testing.md's
// Vitest test file with that major's merge.
//
// Each line's run ends with node's own test summary; the exit code is the
// first failing run's, so a failing Node test fails `deno task test`.
import { TYPES_NODE } from "./build_npm.ts";

/**
 * The Node lines tested, the machine's node (20 here) and the two LTS lines,
 * each with the Vitest its consumer project has: 5 wants Node 22 or later.
 */
const NODE_LINES: ReadonlyArray<{ readonly line: string; readonly vitest: string }> = [
  { line: "system", vitest: "3.2.4" },
  { line: "22", vitest: "5.1.2" },
  { line: "24", vitest: "5.1.2" },
];

/**
 * The Node types each Vitest major's project gets: Vitest 5 declares a peer
 * `@types/node` of `^22.0.0 || >=24.0.0`, and npm refuses the Node 20 types
 * beside it (ERESOLVE).
 */
function typesNodeFor(vitest: string): string {
  return vitest.startsWith("5.") ? "^22.12.0" : TYPES_NODE;
}

/**
 * Jest's standalone `expect`, to run the matchers the way Jest does: the
 * version Jest itself depends on (`@jest/expect` pins `expect` exactly), so
 * the project has one `expect` and the docs' `declare module "expect"` merge
 * reaches the `expect` of `@jest/globals` (with two copies it merged into
 * the other one: TS2339).
 */
const JEST_EXPECT = "30.5.2";

/**
 * What docs/frameworks.md's recipes run on, at what `npm i` installed on
 * 2026-12-07 (`npm view <pkg> version engines`): Jest 30.5.2 (Node 18, 20,
 * 22, 24), Bun 1.4.5 (the npm package `bun` brings its binary in a
 * platform package), `@types/bun` for `bun:test`'s types. LangChain's
 * packages are the ones deno.json pins (langchain 1.5.14 and @langchain/core
 * 1.4.0 want Node 20; @langchain/openai 1.6.0 says 22 but runs on 20).
 * `@mastra/core` 1.71.0 wants Node 22.13, so only the Vitest 5 project
 * (Node 22 and 24) has it.
 */
const RECIPE_TOOLS: Readonly<Record<string, string>> = {
  jest: JEST_EXPECT,
  bun: "1.4.5",
  "@types/bun": "1.4.5",
};
const MASTRA = "1.71.0";

const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const dist = `${root}/dist/npm`;
const source = `${root}/tests/node`;

async function exec(cmd: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) {
    console.error(`${cmd} ${args.join(" ")} failed (exit ${out.code}) in ${cwd}:\n${text}`);
    Deno.exit(1);
  }
  return text;
}

// The folder holding a `node` binary of the given major line, installed from
// npm's `node` package (npx caches it).
async function nodeBin(major: string, cwd: string): Promise<string> {
  const execPath = (await exec("npx", ["--yes", `node@${major}`, "-p", "process.execPath"], cwd))
    .trim().split("\n").pop()!;
  return execPath.replace(/\/node$/, "");
}

/**
 * The README's Node example: the first ```js block under "## Node", which
 * must import node:test and the package by the name `npx jsr add` gives it.
 */
function readmeNodeExample(readme: string): string {
  const section = readme.split(/^## /m).find((s) => s.startsWith("Node"));
  const block = section && /^```js[^\n]*\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (!block || !block.includes('from "node:test"') || !block.includes('"@agentkit/testing')) {
    throw new Error(
      'README.md needs a "## Node" section whose first ```js block is a node:test file importing "@agentkit/testing"',
    );
  }
  return block;
}

/**
 * The README's node:test file and its Vitest file: the first ```js and the
 * first ```ts block under "## Node", which say their file names
 * (agent_test.mjs, agent.spec.ts) in the text above them.
 */
function readmeLayout(readme: string): { node: string; vitest: string } {
  const section = readme.split(/^## /m).find((s) => s.startsWith("Node")) ?? "";
  const node = /^```js[^\n]*\n([\s\S]*?)^```$/m.exec(section)?.[1];
  const vitest = /^```ts[^\n]*\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (
    !node || !vitest || !section.includes("`agent_test.mjs`") ||
    !section.includes("`agent.spec.ts`") || !vitest.includes('from "vitest"')
  ) {
    throw new Error(
      'README.md\'s "## Node" section needs a ```js node:test block saved as `agent_test.mjs` and a ```ts Vitest block saved as `agent.spec.ts`',
    );
  }
  return { node, vitest };
}

/**
 * docs/testing.md's Vitest test file, with the `declare module "vitest"`
 * merge for the given Vitest major: the file as written for Vitest 5, or
 * with its merge replaced by the block the page gives for Vitest 3 and 4.
 */
function docsVitestFile(doc: string, vitest: string): string {
  const blocks = [...doc.matchAll(/^```ts ignore\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  const MERGE = /^declare module "vitest" \{\n[\s\S]*?^\}\n/m;
  const file = blocks.find((b) =>
    b.includes("interface Matchers<R, T> extends AgentMatchers<R>") && b.includes("test(")
  );
  const older = blocks.find((b) =>
    b.startsWith('declare module "vitest"') && b.includes("interface Assertion<T = any>")
  );
  if (!file || !older || !MERGE.test(file)) {
    throw new Error(
      "docs/testing.md needs a ```ts ignore Vitest 5 test file merging AgentMatchers into Matchers<R, T>, and a ```ts ignore block with the Vitest 3/4 merge into Assertion<T = any>",
    );
  }
  return vitest.startsWith("5.") ? file : file.replace(MERGE, older);
}

try {
  await Deno.stat(`${dist}/package.json`);
} catch {
  console.error(`${dist} has no package.json: run \`deno task build:npm\` first`);
  Deno.exit(1);
}

const deno = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
const tsVersion = /^npm:typescript@(.+)$/.exec(deno.imports?.typescript ?? "")?.[1];
if (!tsVersion) {
  console.error('deno.json must pin "typescript": "npm:typescript@X.Y.Z" in "imports"');
  Deno.exit(1);
}

// The frameworks tests/node/frameworks_test.mjs drives, at the exact versions
// deno.json pins for the Deno interop tests.
function pinned(name: string): string {
  const spec = deno.imports?.[name] ?? "";
  const version = /^npm:(?:@[^/@]+\/)?[^/@]+@([^/]+)$/.exec(spec)?.[1];
  if (!version) throw new Error(`deno.json must pin "${name}": "npm:${name}@X.Y.Z" in "imports"`);
  return version;
}
const FRAMEWORKS = Object.fromEntries(
  ["ai", "@openai/agents", "openai", "langchain", "@langchain/openai"].map((
    name,
  ) => [name, pinned(name)]),
);
// deno.json pins @langchain/core as a path prefix ("npm:/@langchain/core@1.4.0/").
const LANGCHAIN_CORE = /@langchain\/core@([^/]+)\//.exec(deno.imports?.["@langchain/core/"] ?? "")
  ?.[1];
if (!LANGCHAIN_CORE) throw new Error('deno.json must pin "@langchain/core/"');

/**
 * docs/frameworks.md's recipe files: each ```js ignore / ```ts ignore block
 * right under a `<!-- file: recipes/... -->` line, copied verbatim to that
 * path in the consumer project.
 */
function recipeFiles(doc: string): Map<string, string> {
  const files = new Map<string, string>();
  const pattern = /^<!-- file: (recipes\/[\w./-]+) -->\n\n```(?:js|ts) ignore\n([\s\S]*?)^```$/gm;
  for (const [, path, code] of doc.matchAll(pattern)) files.set(path, code);
  for (
    const need of [
      "recipes/node/langchain_agent.test.mjs",
      "recipes/node/langchain_model_string.test.mjs",
      "recipes/node/openai_agents.test.mjs",
      "recipes/node/mastra_agent.test.mjs",
      "recipes/jest/jest.config.mjs",
      "recipes/jest/agent_matchers.d.ts",
      "recipes/jest/agent.test.mjs",
      "recipes/bun/agent.test.ts",
    ]
  ) {
    if (!files.has(need)) {
      throw new Error(`docs/frameworks.md needs a <!-- file: ${need} --> block`);
    }
  }
  return files;
}

const readme = await Deno.readTextFile(`${root}/README.md`);
const testingDoc = await Deno.readTextFile(`${root}/docs/testing.md`);
const layout = readmeLayout(readme);
const recipes = recipeFiles(await Deno.readTextFile(`${root}/docs/frameworks.md`));

// The recipes, and the tsconfigs that type-check them with tsc --strict (the
// JavaScript ones through checkJs; Bun's file with bun:test's types). The
// Mastra recipe only where Mastra is installed.
async function writeRecipes(consumer: string, mastra: boolean): Promise<void> {
  for (const [path, code] of recipes) {
    if (!mastra && path.includes("mastra")) continue;
    await Deno.mkdir(`${consumer}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${consumer}/${path}`, code);
  }
  const strict = {
    strict: true,
    noEmit: true,
    target: "ES2022",
    lib: ["ES2022", "ESNext.Disposable", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    skipLibCheck: true,
  };
  const node = [...recipes.keys()].filter((p) =>
    !p.startsWith("recipes/bun/") && p !== "recipes/jest/jest.config.mjs" &&
    (mastra || !p.includes("mastra"))
  );
  await Deno.writeTextFile(
    `${consumer}/tsconfig.recipes.json`,
    JSON.stringify(
      {
        compilerOptions: { ...strict, allowJs: true, checkJs: true, types: ["node"] },
        files: node,
      },
      null,
      2,
    ),
  );
  await Deno.writeTextFile(
    `${consumer}/tsconfig.recipes_bun.json`,
    JSON.stringify(
      {
        compilerOptions: { ...strict, types: ["bun"] },
        files: [...recipes.keys()].filter((p) => p.startsWith("recipes/bun/")),
      },
      null,
      2,
    ),
  );
}

// One consumer project with the given Vitest: tests/node's files, the
// docs' files, the package from the tarball and the tools. Returns the
// test files `node --test` is given.
async function makeConsumer(consumer: string, packed: string, vitest: string): Promise<string[]> {
  await Deno.mkdir(consumer);
  const tests: string[] = [];
  for await (const entry of Deno.readDir(source)) {
    if (entry.isDirectory) {
      // __snapshots__: the committed snapshots Vitest compares against.
      await Deno.mkdir(`${consumer}/${entry.name}`);
      for await (const inner of Deno.readDir(`${source}/${entry.name}`)) {
        const at = `${entry.name}/${inner.name}`;
        await Deno.copyFile(`${source}/${at}`, `${consumer}/${at}`);
      }
      continue;
    }
    if (!entry.isFile) continue;
    await Deno.copyFile(`${source}/${entry.name}`, `${consumer}/${entry.name}`);
    if (entry.name.endsWith("_test.mjs")) tests.push(entry.name);
  }
  await Deno.writeTextFile(`${consumer}/readme_node_test.mjs`, readmeNodeExample(readme));
  tests.push("readme_node_test.mjs");
  tests.sort();
  await Deno.mkdir(`${consumer}/readme_layout`);
  await Deno.writeTextFile(`${consumer}/readme_layout/agent_test.mjs`, layout.node);
  await Deno.writeTextFile(`${consumer}/readme_layout/agent.spec.ts`, layout.vitest);
  await Deno.writeTextFile(`${consumer}/docs_agent.spec.ts`, docsVitestFile(testingDoc, vitest));
  const mastra = vitest.startsWith("5.");
  await writeRecipes(consumer, mastra);
  await Deno.writeTextFile(
    `${consumer}/package.json`,
    JSON.stringify(
      {
        name: "agentkit-node-consumer",
        private: true,
        type: "module",
        // Both names: the one npm gives the package, and the one `npx jsr add`
        // maps it to (what the README imports).
        dependencies: {
          "@jsr/agentkit__testing": `file:../${packed}`,
          "@agentkit/testing": `file:../${packed}`,
        },
        devDependencies: {
          "@types/node": typesNodeFor(vitest),
          typescript: tsVersion,
          vitest,
          expect: JEST_EXPECT,
          ...FRAMEWORKS,
          "@langchain/core": LANGCHAIN_CORE,
          ...RECIPE_TOOLS,
          ...(mastra ? { "@mastra/core": MASTRA } : {}),
        },
      },
      null,
      2,
    ),
  );
  const started = performance.now();
  await exec("npm", [
    "install",
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
  ], consumer);
  console.log(
    `Installed ${packed} with vitest ${vitest} into a consumer project (${
      Math.round(performance.now() - started)
    } ms)`,
  );
  return tests;
}

const tmp = await Deno.makeTempDir({ prefix: "agentkit_node_" });
let code = 1;
try {
  const packed = (await exec("npm", ["pack", dist, "--pack-destination", tmp, "--silent"], tmp))
    .trim().split("\n").pop()!;
  const consumers = new Map<string, { dir: string; tests: string[] }>();
  for (const { vitest } of NODE_LINES) {
    if (consumers.has(vitest)) continue;
    const dir = `${tmp}/consumer-vitest${vitest.split(".")[0]}`;
    consumers.set(vitest, { dir, tests: await makeConsumer(dir, packed, vitest) });
  }
  console.log(`node ${(await exec("node", ["--version"], tmp)).trim()} on this machine`);
  // AGENTKIT_NODE_TESTS=a_test.mjs,b_test.mjs runs only those files (while working on them).
  const only = Deno.env.get("AGENTKIT_NODE_TESTS")?.split(",").filter(Boolean);
  code = 0;
  for (const { line, vitest } of NODE_LINES) {
    const { dir, tests: all } = consumers.get(vitest)!;
    const tests = only ? all.filter((t) => only.includes(t)) : all;
    const bin = line === "system" ? undefined : await nodeBin(line, tmp);
    const path = bin ? `${bin}:${Deno.env.get("PATH") ?? ""}` : Deno.env.get("PATH") ?? "";
    const version = (await exec(bin ? `${bin}/node` : "node", ["--version"], dir)).trim();
    console.log(
      `\n# node ${version}${line === "system" ? " (this machine's)" : ""}, vitest ${vitest}`,
    );
    const node = await new Deno.Command(bin ? `${bin}/node` : "node", {
      args: ["--test", "--test-reporter=spec", ...tests],
      cwd: dir,
      env: { AGENTKIT_REPO: root, AGENTKIT_VITEST: vitest, PATH: path },
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (node.code !== 0) {
      console.error(`node ${version}: the Node tests failed (exit ${node.code})`);
      if (code === 0) code = node.code;
    }
  }
} finally {
  await Deno.remove(tmp, { recursive: true });
}
Deno.exit(code);
