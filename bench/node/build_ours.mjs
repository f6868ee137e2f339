// Puts @agentkit/testing where the Node harness imports it from, and bundles
// the shared cases (bench/deno/_cases.ts) against it.
//
//   node build_ours.mjs [--from=<an npm build directory> | --transpile]
//
// The package comes from, in order: --from (bench/run.ts passes a fresh
// `deno task build:npm --out=...`), the repository's dist/npm, or (always
// with --transpile) a local transpile of the sources with esbuild (zod, @sinonjs/fake-timers and eventsource-parser stay
// external, resolved from this harness's node_modules like a consumer's).
// It is installed as node_modules/@agentkit/testing; the cases bundle, which
// keeps `@agentkit/testing/*` and `zod` external, goes to
// node_modules/.bench/ours_cases.mjs. Prints where the package came from.
import { build } from "esbuild";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const target = join(here, "node_modules", "@agentkit", "testing");
const out = join(here, "node_modules", ".bench");
const from = process.argv.find((a) => a.startsWith("--from="))?.slice("--from=".length);
const transpile = process.argv.includes("--transpile");

rmSync(target, { recursive: true, force: true });
mkdirSync(dirname(target), { recursive: true });
mkdirSync(out, { recursive: true });

let source;
const dist = join(repo, "dist", "npm");
if (from) {
  cpSync(resolve(from), target, { recursive: true });
  source = `npm build (${from})`;
} else if (!transpile && existsSync(join(dist, "package.json"))) {
  cpSync(dist, target, { recursive: true });
  source = "dist/npm";
} else {
  // One ES module per export with shared chunks, so a class is one class
  // whichever entry point it is imported through.
  const entries = { mod: "mod.ts", ports: "ports/mod.ts", runtime: "runtime/mod.ts" };
  entries.testing = "testing/mod.ts";
  await build({
    absWorkingDir: repo,
    entryPoints: Object.entries(entries).map(([out, input]) => ({ in: input, out })),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir: target,
    external: ["zod", "@sinonjs/fake-timers", "eventsource-parser"],
    logLevel: "warning",
  });
  const exports = {};
  for (const name of Object.keys(entries)) {
    exports[name === "mod" ? "." : `./${name}`] = `./${name}.js`;
  }
  writeFileSync(
    join(target, "package.json"),
    JSON.stringify({ name: "@agentkit/testing", type: "module", exports }, null, 2),
  );
  source = "a local esbuild transpile of the sources";
}

await build({
  absWorkingDir: repo,
  entryPoints: [join(repo, "bench", "deno", "_cases.ts")],
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outfile: join(out, "ours_cases.mjs"),
  external: ["@agentkit/testing", "@agentkit/testing/*", "zod"],
  logLevel: "warning",
});
console.log(source);
