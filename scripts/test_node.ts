// Runs tests/node/ with plain Node against dist/npm (build it first:
// `deno task build:npm`), the way a Node user gets the package: dist/npm is
// packed and installed from the tarball into a throwaway consumer project in
// a temp dir, next to typescript (the version deno.json pins), vitest and
// @types/node. Then `node --test` runs the *_test.mjs files there. npm
// reaches the registry only for the consumer's tools (with --prefer-offline);
// the tests themselves make no network calls.
//
// The output ends with node's own test summary and the exit code is node's,
// so a failing Node test fails `deno task test`.
import { TYPES_NODE } from "./build_npm.ts";

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

const tmp = await Deno.makeTempDir({ prefix: "agentkit_node_" });
let code = 1;
try {
  const consumer = `${tmp}/consumer`;
  await Deno.mkdir(consumer);
  const packed = (await exec("npm", ["pack", dist, "--pack-destination", tmp, "--silent"], tmp))
    .trim().split("\n").pop()!;
  const tests: string[] = [];
  for await (const entry of Deno.readDir(source)) {
    if (!entry.isFile) continue;
    await Deno.copyFile(`${source}/${entry.name}`, `${consumer}/${entry.name}`);
    if (entry.name.endsWith("_test.mjs")) tests.push(entry.name);
  }
  tests.sort();
  await Deno.writeTextFile(
    `${consumer}/package.json`,
    JSON.stringify(
      {
        name: "agentkit-node-consumer",
        private: true,
        type: "module",
        dependencies: { "@jsr/agentkit__testing": `file:../${packed}` },
        devDependencies: { "@types/node": TYPES_NODE, typescript: tsVersion, vitest: VITEST },
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
  const node = await new Deno.Command("node", {
    args: ["--test", "--test-reporter=spec", ...tests],
    cwd: consumer,
    env: { AGENTKIT_REPO: root },
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  code = node.code;
} finally {
  await Deno.remove(tmp, { recursive: true });
}
Deno.exit(code);
