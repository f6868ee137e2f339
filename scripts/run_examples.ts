// Runs every program in examples/ as a user would (`deno run examples/x.ts`),
// failing on the first that exits non-zero. `--quiet` hides their output.
const quiet = Deno.args.includes("--quiet");
const root = new URL("../", import.meta.url);
const files: string[] = [];
for await (const entry of Deno.readDir(new URL("examples/", root))) {
  if (entry.isFile && entry.name.endsWith(".ts")) files.push(entry.name);
}
files.sort();
if (files.length === 0) {
  console.error("No examples found in examples/");
  Deno.exit(1);
}
for (const name of files) {
  const out = await new Deno.Command(Deno.execPath(), {
    // --allow-sys: the AI SDK reads the host name as it loads, LangSmith the home directory.
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-sys=hostname,homedir",
      `examples/${name}`,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const err = new TextDecoder().decode(out.stderr);
  if (!out.success) {
    console.error(`examples/${name} failed (exit ${out.code}):\n${text}${err}`);
    Deno.exit(1);
  }
  if (quiet) {
    console.log(`examples/${name} ... ok`);
  } else {
    const title = summary(await Deno.readTextFile(new URL(`examples/${name}`, root)));
    console.log(`--- examples/${name}${title ? `: ${title}` : ""}\n${text.trimEnd()}\n`);
  }
}
console.log(`${files.length} example(s) ran`);
if (!quiet) {
  console.log(
    "\nEach line above is a value the example printed, labelled, and asserted in its source.\n" +
      "Next: docs/testing.md, the guide to read first (the doubles, scripts, budgets, clocks,\n" +
      "matchers and transcripts), then the example files themselves; docs/chaos.md lets\n" +
      "chaos() find an agent's bugs under injected faults, as examples/chaos_agent.ts does.",
  );
}

// The first sentence of an example's leading comment, as its title.
function summary(source: string): string {
  const comment = /^\s*(?:\/\*\*([\s\S]*?)\*\/|((?:\/\/.*\n)+))/.exec(source);
  if (!comment) return "";
  const text = (comment[1] ?? comment[2]).replace(/^\s*(\*|\/\/) ?/gm, "").replace(/\s+/g, " ")
    .trim();
  return text.split(/(?<=\.)\s/)[0];
}
