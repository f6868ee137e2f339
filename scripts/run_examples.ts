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
    console.log(`--- examples/${name}\n${text.trimEnd()}\n`);
  }
}
console.log(`${files.length} example(s) ran`);
