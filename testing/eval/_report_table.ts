// A trial report as a table a terminal reads.
import type { TrialReport } from "./trial_report.ts";

function pct(x: number): string {
  return x.toFixed(3);
}

function row(r: TrialReport, name: string, k: number | undefined): string[] {
  return [
    name,
    `${r.passes}/${r.n}`,
    String(r.failures),
    String(r.errors),
    pct(r.passRate),
    `[${pct(r.interval.low)}, ${pct(r.interval.high)}]`,
    k !== undefined && k <= r.n ? pct(r.passHatK(k)) : "-",
  ];
}

/** The text of `report.toString()`. */
export function reportTable(report: TrialReport): string {
  const k = report.k;
  const head = ["case", "passed", "failures", "errors", "rate", "95% CI", `pass^${k ?? "k"}`];
  const rows = report.cases.map((c) => row(c, c.name!, k));
  rows.push(row(report, report.cases.length ? "(all)" : report.name ?? "trials", k));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const show = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ")
      .trimEnd();
  const lines = [show(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(show)];
  if (report.stoppedBy) {
    lines.push(`stopped by ${report.stoppedBy} after ${report.n} of ${report.planned} trials`);
  }
  if (report.shard) lines.push(`shard ${report.shard}`);
  for (const t of report.failed.slice(0, 10)) {
    const where = t.case ? `${t.case} #${t.index}` : `#${t.index}`;
    const error = t.error ? `${t.error.name}: ${t.error.message.split("\n")[0]}` : "";
    lines.push(`${t.outcome} ${where} (seed ${t.seed}): ${error}`);
  }
  if (report.failed.length > 10) {
    lines.push(`... and ${report.failed.length - 10} more failing trial(s)`);
  }
  return lines.join("\n");
}
