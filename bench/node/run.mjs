// Runs every case for every implementation on Node, one process per
// implementation, case and pass (case_runner.mjs), and prints one JSON line
// each. The passes are interleaved: every implementation of a case runs once,
// then again, so a busy spell on the machine falls on all of them alike.
//
//   node run.mjs [--impls=ours,ai_sdk,...] [--cases=single_turn,...] [--passes=3]
//
// Run build_ours.mjs first: "ours" is the bundle it writes.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const IMPLS = {
  ours: join(here, "node_modules", ".bench", "ours_cases.mjs"),
  ai_sdk: join(here, "peers", "ai_sdk.mjs"),
  langchain: join(here, "peers", "langchain.mjs"),
  openai_agents: join(here, "peers", "openai_agents.mjs"),
  floor: join(here, "peers", "floor.mjs"),
};

const option = (name) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
    .split(",");
const impls = option("impls") ?? Object.keys(IMPLS);
const ours = await import(pathToFileURL(IMPLS.ours).href);
const cases = option("cases") ?? ours.allCases().map((c) => c.id);
const passes = Number(option("passes")?.[0] ?? 3);

for (const id of cases) {
  for (let pass = 1; pass <= passes; pass++) {
    for (const impl of impls) {
      const { available } = await import(pathToFileURL(IMPLS[impl]).href).then(
        (m) => ({ available: m.allCases().some((c) => c.id === id) }),
      );
      if (!available) continue;
      const r = spawnSync(
        process.execPath,
        // A bigger heap than the default: a peer's 1,000-step loop holds gigabytes.
        [
          "--expose-gc",
          "--max-old-space-size=12288",
          join(here, "case_runner.mjs"),
          IMPLS[impl],
          impl,
          id,
          String(pass),
        ],
        { encoding: "utf8", cwd: here, timeout: 600_000 },
      );
      const line = r.stdout.trim().split("\n").at(-1);
      if (r.status !== 0 || !line) {
        console.log(
          JSON.stringify({
            impl,
            id,
            error: (r.stderr || r.error?.message || "").trim(),
          }),
        );
      } else {
        console.log(line);
      }
    }
  }
}
