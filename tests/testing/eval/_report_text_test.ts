import { assertEquals } from "@std/assert";
import { TrialReport } from "../../../testing/mod.ts";
import { escapeXml } from "../../../testing/eval/_report_junit.ts";

// A suite with every shape a row can take: all passing, mixed, k above a
// case's trials (no pass^k), more than ten failing trials, stopped early, a shard.
const t = (c: string, i: number, o: "pass" | "failure" | "error", msg = "") => ({
  index: i,
  seed: i,
  case: c,
  outcome: o,
  ...(o === "pass" ? {} : {
    error: {
      name: o === "failure" ? "AssertionError" : "TypeError",
      message: msg || `m${i}\nsecond line`,
    },
    transcript: `user: q${i}`,
  }),
});
const suite = new TrialReport({
  name: "suite",
  k: 3,
  trials: [
    ...[0, 1, 2].map((i) => t("ok", i, "pass")),
    t("mixed", 0, "pass"),
    t("mixed", 1, "failure"),
    t("mixed", 2, "error"),
    t("tiny", 0, "failure", 'a < b & "c"'),
    ...Array.from({ length: 9 }, (_, i) => t("many", i, "error")),
  ],
  cases: [
    { name: "ok", planned: 3 },
    { name: "mixed", planned: 3 },
    { name: "tiny", planned: 2 },
    { name: "many", planned: 9 },
  ],
  planned: 17,
  stoppedBy: "budget",
  shard: "1/2",
});

Deno.test("TrialReport.toString(): the whole table of a suite", () => {
  assertEquals(
    suite.toString(),
    'case   passed  failures  errors   rate          95% CI  pass^3\n-----  ------  --------  ------  -----  --------------  ------\nok        3/3         0       0  1.000  [0.439, 1.000]   1.000\nmixed     1/3         1       1  0.333  [0.061, 0.792]   0.000\ntiny      0/1         1       0  0.000  [0.000, 0.793]       -\nmany      0/9         0       9  0.000  [0.000, 0.299]   0.000\n(all)    4/16         2      10  0.250  [0.102, 0.495]   0.007\nstopped by budget after 16 of 17 trials\nshard 1/2\nfailure mixed #1 (seed 1): AssertionError: m1\nerror mixed #2 (seed 2): TypeError: m2\nfailure tiny #0 (seed 0): AssertionError: a < b & "c"\nerror many #0 (seed 0): TypeError: m0\nerror many #1 (seed 1): TypeError: m1\nerror many #2 (seed 2): TypeError: m2\nerror many #3 (seed 3): TypeError: m3\nerror many #4 (seed 4): TypeError: m4\nerror many #5 (seed 5): TypeError: m5\nerror many #6 (seed 6): TypeError: m6\n... and 2 more failing trial(s)',
  );
});

Deno.test("TrialReport.toJUnit(): the whole document of a suite", () => {
  assertEquals(
    suite.toJUnit(),
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="suite" tests="4" failures="1" errors="2">\n  <testsuite name="suite" tests="4" failures="1" errors="2" skipped="0">\n    <properties>\n      <property name="passRate" value="0.25"/>\n      <property name="wilsonLow" value="0.10182067491213048"/>\n      <property name="wilsonHigh" value="0.49498316535508774"/>\n    </properties>\n    <testcase classname="suite" name="ok">\n      <system-out>3/3 passed (0 failures, 0 errors), pass rate 1.000, 95% CI [0.439, 1.000]</system-out>\n    </testcase>\n    <testcase classname="suite" name="mixed">\n      <failure message="1 failing trial(s); 1/3 passed (1 failures, 1 errors), pass rate 0.333, 95% CI [0.061, 0.792]" type="AssertionError">trial mixed #1 (seed 1): failure\nAssertionError: m1\nsecond line\ntranscript:\nuser: q1</failure>\n      <error message="1 trial(s) broke; 1/3 passed (1 failures, 1 errors), pass rate 0.333, 95% CI [0.061, 0.792]" type="TypeError">trial mixed #2 (seed 2): error\nTypeError: m2\nsecond line\ntranscript:\nuser: q2</error>\n      <system-out>1/3 passed (1 failures, 1 errors), pass rate 0.333, 95% CI [0.061, 0.792]</system-out>\n    </testcase>\n    <testcase classname="suite" name="tiny">\n      <failure message="1 failing trial(s); 0/1 passed (1 failures, 0 errors), pass rate 0.000, 95% CI [0.000, 0.793]" type="AssertionError">trial tiny #0 (seed 0): failure\nAssertionError: a &lt; b &amp; &quot;c&quot;\ntranscript:\nuser: q0</failure>\n      <system-out>0/1 passed (1 failures, 0 errors), pass rate 0.000, 95% CI [0.000, 0.793]</system-out>\n    </testcase>\n    <testcase classname="suite" name="many">\n      <error message="9 trial(s) broke; 0/9 passed (0 failures, 9 errors), pass rate 0.000, 95% CI [0.000, 0.299]" type="TypeError">trial many #0 (seed 0): error\nTypeError: m0\nsecond line\ntranscript:\nuser: q0\n\ntrial many #1 (seed 1): error\nTypeError: m1\nsecond line\ntranscript:\nuser: q1\n\ntrial many #2 (seed 2): error\nTypeError: m2\nsecond line\ntranscript:\nuser: q2\n\ntrial many #3 (seed 3): error\nTypeError: m3\nsecond line\ntranscript:\nuser: q3\n\ntrial many #4 (seed 4): error\nTypeError: m4\nsecond line\ntranscript:\nuser: q4\n\ntrial many #5 (seed 5): error\nTypeError: m5\nsecond line\ntranscript:\nuser: q5\n\ntrial many #6 (seed 6): error\nTypeError: m6\nsecond line\ntranscript:\nuser: q6\n\ntrial many #7 (seed 7): error\nTypeError: m7\nsecond line\ntranscript:\nuser: q7\n\ntrial many #8 (seed 8): error\nTypeError: m8\nsecond line\ntranscript:\nuser: q8</error>\n      <system-out>0/9 passed (0 failures, 9 errors), pass rate 0.000, 95% CI [0.000, 0.299]</system-out>\n    </testcase>\n  </testsuite>\n</testsuites>\n',
  );
});

Deno.test("TrialReport.toJUnit(): a trials() report, a testcase per trial, under the name given", () => {
  const r = new TrialReport({
    trials: [t("x", 0, "pass"), { index: 1, seed: 1, outcome: "error" as const }],
  });
  assertEquals(
    r.toJUnit("mine"),
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mine" tests="2" failures="0" errors="1">\n  <testsuite name="mine" tests="2" failures="0" errors="1" skipped="0">\n    <properties>\n      <property name="passRate" value="0.5"/>\n      <property name="wilsonLow" value="0.09453120573423074"/>\n      <property name="wilsonHigh" value="0.9054687942657693"/>\n    </properties>\n    <testcase classname="mine" name="trial #0"></testcase>\n    <testcase classname="mine" name="trial #1">\n      <error message="1 trial(s) broke" type="Error">trial #1 (seed 1): error</error>\n    </testcase>\n  </testsuite>\n</testsuites>\n',
  );
});

Deno.test("escapeXml(): the five entities, and what XML 1.0 cannot hold dropped", () => {
  assertEquals(
    escapeXml(`<a href="x">'&'</a>`),
    "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;",
  );
  assertEquals(escapeXml("a\u0000b\u0008c\u000Bd\u000Ce\u001Ff\uFFFEg\uFFFFh"), "abcdefgh");
  assertEquals(escapeXml("tab\tLF\nCR\r"), "tab\tLF\nCR\r"); // allowed
  assertEquals(escapeXml("lone \uD800 high, lone \uDC00 low"), "lone  high, lone  low");
  assertEquals(escapeXml("pair \uD83D\uDE00 kept"), "pair \uD83D\uDE00 kept");
  assertEquals(escapeXml("\u0009\u000A\u000D\u0020\uFFFD"), "\t\n\r \uFFFD");
});
