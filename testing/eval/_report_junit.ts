// A trial report as JUnit XML, the format CI systems read (the schema of
// the Ant JUnit task's reports, as jenkins' junit plugin and GitHub's test
// reporters take it: testsuite > testcase > failure | error, with system-out).
import type { TrialOutcome, TrialReport } from "./trial_report.ts";

// XML 1.0 §2.2: characters a document may not hold at all (C0 controls other
// than tab, LF and CR, lone surrogates, U+FFFE/U+FFFF) are dropped.
const ILLEGAL =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for an XML attribute or element (XML 1.0 §2.4). */
export function escapeXml(s: string): string {
  return s.replace(ILLEGAL, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

function details(trials: readonly TrialOutcome[]): string {
  return trials.map((t) =>
    [
      `trial ${t.case ? `${t.case} ` : ""}#${t.index} (seed ${t.seed}): ${t.outcome}`,
      t.error ? `${t.error.name}: ${t.error.message}` : "",
      t.transcript ? `transcript:\n${t.transcript}` : "",
    ].filter(Boolean).join("\n")
  ).join("\n\n");
}

function testcase(suite: string, name: string, r: TrialReport | TrialOutcome[]): string {
  const trials = Array.isArray(r) ? r : r.trials;
  const failures = trials.filter((t) => t.outcome === "failure");
  const errors = trials.filter((t) => t.outcome === "error");
  const summary = Array.isArray(r) ? "" : r.summary();
  let body = "";
  if (failures.length) {
    body += `\n      <failure message="${
      escapeXml(`${failures.length} failing trial(s)${summary ? `; ${summary}` : ""}`)
    }" type="${escapeXml(failures[0].error?.name ?? "AssertionError")}">${
      escapeXml(details(failures))
    }</failure>`;
  }
  if (errors.length) {
    body += `\n      <error message="${
      escapeXml(`${errors.length} trial(s) broke${summary ? `; ${summary}` : ""}`)
    }" type="${escapeXml(errors[0].error?.name ?? "Error")}">${escapeXml(details(errors))}</error>`;
  }
  if (summary) body += `\n      <system-out>${escapeXml(summary)}</system-out>`;
  return `    <testcase classname="${escapeXml(suite)}" name="${escapeXml(name)}">${body}${
    body ? "\n    " : ""
  }</testcase>`;
}

/** The text of `report.toJUnit()`. */
export function reportJUnit(report: TrialReport, suiteName?: string): string {
  const suite = suiteName ?? report.name ?? "trials";
  // A case is one testcase; without cases, every trial is one.
  const cases = report.cases.length
    ? report.cases.map((c) => testcase(suite, c.name!, c))
    : report.trials.map((t) => testcase(suite, `trial #${t.index}`, [t]));
  const failing = report.cases.length
    ? report.cases.filter((c) => c.failures > 0 && c.errors === 0).length
    : report.failures;
  const erring = report.cases.length
    ? report.cases.filter((c) => c.errors > 0).length
    : report.errors;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${
      escapeXml(suite)
    }" tests="${cases.length}" failures="${failing}" errors="${erring}">`,
    `  <testsuite name="${
      escapeXml(suite)
    }" tests="${cases.length}" failures="${failing}" errors="${erring}" skipped="0">`,
    `    <properties>`,
    `      <property name="passRate" value="${report.passRate}"/>`,
    `      <property name="wilsonLow" value="${report.interval.low}"/>`,
    `      <property name="wilsonHigh" value="${report.interval.high}"/>`,
    `    </properties>`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
