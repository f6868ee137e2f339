// trials() over a plain loop, each side alone in its own process: pairs of
// processes, one a side, run back to back with the order swapped every
// pair; each times `batches` batches of 1,000 runs of the 5-step scripted
// agent (bench/deno/_trials_case.ts) after ten untimed ones, and the pair's
// ratio is trials()' mean batch over the plain loop's.
//
// Why apart as well as interleaved (trials_ratio.ts): in one process the two
// sides run the same agent code, so each one's calls shape how V8 compiles
// it for the other, and which side that favours changes from run to run
// (trials_ratio.ts's medians gave 0.95 and 1.24 a minute apart). A test
// suite runs trials() or its own loop, not both over the same functions in
// turn; alone in a process, each side gets the code its own calls make.
//
//   deno run --allow-read --allow-env --allow-run --allow-sys=loadavg bench/deno/trials_processes.ts [pairs] [batches] [cpu]
//   (cpu: pin each child to that CPU with taskset)
const pairs = Number(Deno.args[0] ?? 9);
const batches = Number(Deno.args[1] ?? 60);
const cpu = Deno.args[2];
const child = new URL("./_trials_side.ts", import.meta.url).pathname;

async function side(name: "plain" | "trials"): Promise<number> {
  const deno = [Deno.execPath(), "run", "--allow-read", "--allow-env", child, name, `${batches}`];
  const [cmd, ...args] = cpu === undefined ? deno : ["taskset", "-c", cpu, ...deno];
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "inherit" }).output();
  if (!out.success) throw new Error(`${name}: the child failed (${out.code})`);
  return JSON.parse(new TextDecoder().decode(out.stdout)).msPerBatch;
}

const load = () => {
  try {
    return Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
  } catch {
    return "unknown (run with --allow-sys=loadavg)";
  }
};
const loadBefore = load();
const ratios: number[] = [];
for (let p = 0; p < pairs; p++) {
  let plain: number, ours: number;
  if (p % 2 === 0) {
    plain = await side("plain");
    ours = await side("trials");
  } else {
    ours = await side("trials");
    plain = await side("plain");
  }
  ratios.push(ours / plain);
  console.log(
    `pair ${p + 1}: plain loop ${plain.toFixed(2)} ms, trials() ${
      ours.toFixed(2)
    } ms a batch; ratio ${(ours / plain).toFixed(3)}`,
  );
}
const sorted = [...ratios].sort((a, b) => a - b);
console.log(
  `${pairs} pairs of ${batches} batches; load average before ${loadBefore}, after ${load()}; ` +
    `trials() over the plain loop: median ${sorted[Math.floor(pairs / 2)].toFixed(3)}, ` +
    `range ${sorted[0].toFixed(3)}–${sorted[pairs - 1].toFixed(3)}`,
);
