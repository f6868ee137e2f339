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
// (tsc, vitest) run on it too. The README's Node example is copied verbatim
// into the consumer as a test file, importing the package by the name
// `npx jsr add` gives it (`@agentkit/testing`).
//
// Each line's run ends with node's own test summary; the exit code is the
// first failing run's, so a failing Node test fails `deno task test`.
import { TYPES_NODE } from "./build_npm.ts";

/** The Node lines tested: the machine's node (20 here) and the two LTS lines. */
const NODE_LINES = ["system", "22", "24"];

/** Jest's standalone `expect`, to run the matchers the way Jest does. */
const JEST_EXPECT = "30.2.0";

const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const dist = `${root}/dist/npm`;
const source = `${root}/tests/node`;

// The consumer's test runner: Vitest 3 runs on Node 20 (vite 8 wants npm 11).
const VITEST = "3.2.4";

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
  ["ai", "@openai/agents", "openai"].map((name) => [name, pinned(name)]),
);

const tmp = await Deno.makeTempDir({ prefix: "agentkit_node_" });
let code = 1;
try {
  const consumer = `${tmp}/consumer`;
  await Deno.mkdir(consumer);
  const packed = (await exec("npm", ["pack", dist, "--pack-destination", tmp, "--silent"], tmp))
    .trim().split("\n").pop()!;
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
  await Deno.writeTextFile(
    `${consumer}/readme_node_test.mjs`,
    readmeNodeExample(await Deno.readTextFile(`${root}/README.md`)),
  );
  tests.push("readme_node_test.mjs");
  tests.sort();
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
          "@types/node": TYPES_NODE,
          typescript: tsVersion,
          vitest: VITEST,
          expect: JEST_EXPECT,
          ...FRAMEWORKS,
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
    `Installed ${packed} into a consumer project (${
      Math.round(performance.now() - started)
    } ms); node ${(await exec("node", ["--version"], consumer)).trim()}`,
  );
  code = 0;
  for (const line of NODE_LINES) {
    const bin = line === "system" ? undefined : await nodeBin(line, tmp);
    const path = bin ? `${bin}:${Deno.env.get("PATH") ?? ""}` : Deno.env.get("PATH") ?? "";
    const version = (await exec(bin ? `${bin}/node` : "node", ["--version"], consumer)).trim();
    console.log(`\n# node ${version}${line === "system" ? " (this machine's)" : ""}`);
    const node = await new Deno.Command(bin ? `${bin}/node` : "node", {
      args: ["--test", "--test-reporter=spec", ...tests],
      cwd: consumer,
      env: { AGENTKIT_REPO: root, PATH: path },
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
