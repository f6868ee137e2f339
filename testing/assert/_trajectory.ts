// The check behind assertTrajectory (Deno) and toHaveTrajectory (Vitest/Jest):
// the tool calls a subject made, compared with an expected list under an
// order mode and an argument mode, and a failure told as a diff of the two
// lists. The inputs are checked by `planTrajectory`, before a Run is awaited,
// so a misuse throws at the call, not as a rejected promise.
import { checkOptions, describe, is, nearest } from "../../runtime/internal.ts";
import { type Check, type Equals, toolCallsOf } from "./_agent_checks.ts";
import { Normalizer } from "./_transcript_text.ts";

/**
 * How the order of the calls counts: `"strict"` (the same calls in the same
 * order), `"unordered"` (the same calls in any order), `"subset"` (every call
 * made is among the expected) or `"superset"` (every expected call was made).
 */
export type TrajectoryOrder = "strict" | "unordered" | "subset" | "superset";

/**
 * How a call's arguments count: `"exact"` (deep equality), `"ignore"`,
 * `"subset"` (the expected arguments are contained in the actual, which may
 * have more) or `"superset"` (the actual arguments are contained in the
 * expected).
 */
export type TrajectoryArgs = "exact" | "ignore" | "subset" | "superset";

/** One expected tool call; without `args`, any arguments match. */
export interface TrajectoryCall {
  /** The tool's name. */
  readonly name: string;
  /** The arguments, compared as the `args` mode says. */
  readonly args?: unknown;
  /** Ignored, so the tool calls of another run can serve as the expected list. */
  readonly id?: string;
}

/** The modes of a trajectory comparison. */
export interface TrajectoryOptions {
  /** How the order counts; default `"strict"`. */
  readonly order?: TrajectoryOrder;
  /** How the arguments count; default `"exact"`. */
  readonly args?: TrajectoryArgs;
}

const ORDERS: readonly TrajectoryOrder[] = ["strict", "unordered", "subset", "superset"];
const ARG_MODES: readonly TrajectoryArgs[] = ["exact", "ignore", "subset", "superset"];
const RULES = { order: is.oneOf(ORDERS), args: is.oneOf(ARG_MODES) };
const CALL_KEYS = ["name", "args", "id"];

interface Wanted {
  readonly name: string;
  readonly args: unknown;
  /** False when the entry gives no `args` (or `args: undefined`): any match. */
  readonly hasArgs: boolean;
}

interface Made {
  readonly name: string;
  readonly args: unknown;
}

/** The checked inputs of one comparison. */
export interface Plan {
  readonly expected: readonly Wanted[];
  readonly order: TrajectoryOrder;
  readonly args: TrajectoryArgs;
}

/** Checks `expected` and `options` for `fn`, throwing a TypeError that names what was given. */
export function planTrajectory(expected: unknown, options: unknown, fn: string): Plan {
  checkOptions(`${fn}()`, options, RULES);
  if (!Array.isArray(expected)) {
    throw new TypeError(
      `${fn}() needs the expected trajectory as an array of { name, args? }, got ${
        describe(expected)
      }`,
    );
  }
  const opts = (options ?? {}) as TrajectoryOptions;
  return {
    expected: expected.map((entry, i) => wanted(entry, i, fn)),
    order: opts.order ?? "strict",
    args: opts.args ?? "exact",
  };
}

function wanted(entry: unknown, i: number, fn: string): Wanted {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    throw new TypeError(
      `${fn}(): expected[${i}] must be a call { name, args? }, got ${describe(entry)}`,
    );
  }
  const call = entry as Record<string, unknown>;
  for (const key of Object.keys(call)) {
    if (CALL_KEYS.includes(key)) continue;
    const near = nearest(key, CALL_KEYS);
    throw new TypeError(
      `${fn}(): expected[${i}] has an unknown key "${key}"${
        near ? `; did you mean "${near}"?` : ""
      } (a call is { name, args? })`,
    );
  }
  if (typeof call.name !== "string" || !call.name) {
    throw new TypeError(
      `${fn}(): expected[${i}] needs a tool name as a string "name", got ${describe(entry)}`,
    );
  }
  return { name: call.name, args: call.args, hasArgs: call.args !== undefined };
}

/** The tool calls of `subject` against the plan. */
export function trajectory(subject: unknown, plan: Plan, equals: Equals, fn: string): Check {
  const actual = toolCallsOf(subject, `${fn}()`);
  const outcome = compare(actual, plan.expected, plan.order, plan.args, equals);
  return {
    pass: outcome.pass,
    message: (negated) => {
      const modes = `order "${plan.order}", args "${plan.args}"`;
      const head = negated
        ? `Expected the tool calls not to follow the trajectory (${modes}), but they do.`
        : `Expected the tool calls to follow the trajectory (${modes}), but ${
          why(actual, plan, outcome, equals)
        }.`;
      return `${head}\n\n${legend(plan.order)}\n${outcome.diff}`;
    },
  };
}

interface Outcome {
  readonly pass: boolean;
  readonly missing: number;
  readonly unexpected: number;
  readonly diff: string;
}

const UNORDERED_HINT = 250_000;

// The one-line reason: what failed, and the nearest mode that would have passed.
function why(actual: readonly Made[], plan: Plan, o: Outcome, equals: Equals): string {
  const parts: string[] = [];
  if (plan.order !== "subset" && o.missing) {
    parts.push(
      o.missing === 1
        ? "1 expected call was not made"
        : `${o.missing} expected calls were not made`,
    );
  }
  if (plan.order !== "superset" && o.unexpected) {
    parts.push(
      o.unexpected === 1 ? "1 call was not expected" : `${o.unexpected} calls were not expected`,
    );
  }
  let reason = parts.join(" and ");
  // Only a strict failure can pass unordered, and only an args failure can
  // pass with the arguments ignored: the other modes would fail those again.
  // The unordered pairing is quadratic: past UNORDERED_HINT pairs, no hint.
  const small = actual.length * plan.expected.length <= UNORDERED_HINT;
  if (small && compare(actual, plan.expected, "unordered", plan.args, equals).pass) {
    reason = "the same calls were made in another order";
  } else if (
    (plan.order === "strict" || small) &&
    compare(actual, plan.expected, plan.order, "ignore", equals).pass
  ) {
    reason += ` (the names match; the arguments do not, under args "${plan.args}")`;
  }
  return reason;
}

function legend(order: TrajectoryOrder): string {
  const allowed = order === "subset"
    ? '; "- " lines are allowed under order "subset"'
    : order === "superset"
    ? '; "+ " lines are allowed under order "superset"'
    : "";
  return `Trajectory ("  " matched, "- " expected but not made, "+ " made but not expected${allowed}):`;
}

/** Pairs the two lists under the modes and lays the pairing out as a diff. */
function compare(
  actual: readonly Made[],
  expected: readonly Wanted[],
  order: TrajectoryOrder,
  args: TrajectoryArgs,
  equals: Equals,
): Outcome {
  const fit = (a: Made, e: Wanted) => fitsCall(a, e, args, equals);
  const n = new Normalizer();
  const made = (a: Made): string => `${a.name} ${n.json(a.args)}`;
  const want = (e: Wanted): string =>
    e.hasArgs ? `${e.name} ${n.json(e.args)}` : `${e.name} (any args)`;
  const lines: string[] = [];
  let paired = 0;
  if (order === "strict") {
    for (const step of strictSteps(actual, expected, fit)) {
      if (step.a >= 0 && step.e >= 0) paired++;
      lines.push(
        step.e < 0
          ? `+ ${made(actual[step.a])}`
          : step.a < 0
          ? `- ${want(expected[step.e])}`
          : `  ${made(actual[step.a])}`,
      );
    }
  } else {
    const fits = actual.map((a) => expected.map((e) => fit(a, e)));
    const partner = matching(fits, actual.length, expected.length);
    const used = new Set<number>();
    actual.forEach((a, i) => {
      const j = partner.indexOf(i);
      if (j >= 0) used.add(j);
      lines.push(`${j >= 0 ? " " : "+"} ${made(a)}`);
    });
    paired = used.size;
    expected.forEach((e, j) => {
      if (!used.has(j)) lines.push(`- ${want(e)}`);
    });
  }
  const missing = expected.length - paired;
  const unexpected = actual.length - paired;
  const pass = order === "subset"
    ? unexpected === 0
    : order === "superset"
    ? missing === 0
    : missing === 0 && unexpected === 0;
  return { pass, missing, unexpected, diff: lines.length ? compact(lines) : "  (no tool calls)" };
}

// A diff shows this many differing lines, each with this many matched calls
// around it; the rest is counted, so one wrong argument among 5,000 calls
// reads in a screen, not in 79,000 characters.
const SHOWN_DIFFERENCES = 20;
const CONTEXT = 2;

/** The diff's differences with a little context; long matched runs and the differences past the first ones counted. */
export function compact(lines: readonly string[]): string {
  const differs = (l: string) => !l.startsWith("  ");
  const total = lines.filter(differs).length;
  // Short, or nothing differs: as it is.
  if (total === 0 || lines.length <= SHOWN_DIFFERENCES + 2 * CONTEXT) return lines.join("\n");
  const near = (i: number) => {
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(lines.length - 1, i + CONTEXT); j++) {
      if (differs(lines[j])) return true;
    }
    return false;
  };
  const out: string[] = [];
  let skipped = 0;
  let shown = 0;
  const flush = () => {
    if (skipped) out.push(`  ... (${skipped} matched call${skipped === 1 ? "" : "s"})`);
    skipped = 0;
  };
  let i = 0;
  for (; i < lines.length; i++) {
    const l = lines[i];
    if (differs(l)) {
      if (shown === SHOWN_DIFFERENCES) break;
      flush();
      out.push(l);
      shown++;
    } else if (near(i)) {
      flush();
      out.push(l);
    } else skipped++;
  }
  if (i === lines.length) {
    flush();
    return out.join("\n");
  }
  out.push(
    `... and ${total - shown} more differing line(s) in the ${
      lines.length - i
    } line(s) not shown (${lines.length} in all)`,
  );
  return out.join("\n");
}

// The strict pairing: the fitting common prefix and suffix pair at once (as
// alignment() would pair them: taking a fitting pair first is optimal), and
// only the calls between them go through the quadratic alignment, so 5,000
// calls with one wrong argument cost 5,000 comparisons, not 25 million.
function strictSteps(
  actual: readonly Made[],
  expected: readonly Wanted[],
  fit: (a: Made, e: Wanted) => boolean,
): Step[] {
  const na = actual.length;
  const ne = expected.length;
  let head = 0;
  while (head < na && head < ne && fit(actual[head], expected[head])) head++;
  let tail = 0;
  while (
    tail < na - head && tail < ne - head && fit(actual[na - 1 - tail], expected[ne - 1 - tail])
  ) tail++;
  const midA = actual.slice(head, na - tail);
  const midE = expected.slice(head, ne - tail);
  const fits = midA.map((a) => midE.map((e) => fit(a, e)));
  const steps: Step[] = [];
  for (let i = 0; i < head; i++) steps.push({ a: i, e: i });
  for (const step of alignment(fits, midA.length, midE.length)) {
    steps.push({ a: step.a < 0 ? -1 : step.a + head, e: step.e < 0 ? -1 : step.e + head });
  }
  for (let i = tail; i > 0; i--) steps.push({ a: na - i, e: ne - i });
  return steps;
}

function fitsCall(a: Made, e: Wanted, args: TrajectoryArgs, equals: Equals): boolean {
  if (a.name !== e.name) return false;
  if (!e.hasArgs || args === "ignore") return true;
  if (args === "exact") return equals(a.args, e.args);
  return contained(a.args, e.args, equals, args === "subset");
}

// Plain objects are compared key by key, each key the smaller side gives
// being in the larger with a value contained in turn; anything else (arrays,
// scalars, asymmetric matchers) is compared whole. `equals` always sees
// (actual, expected), so a matcher on the expected side keeps working.
function contained(
  actual: unknown,
  expected: unknown,
  equals: Equals,
  expectedIsPart: boolean,
): boolean {
  if (!isPlain(actual) || !isPlain(expected)) return equals(actual, expected);
  const part = expectedIsPart ? expected : actual;
  const whole = expectedIsPart ? actual : expected;
  return Object.keys(part).every((k) =>
    part[k] === undefined ||
    (Object.hasOwn(whole, k) && contained(actual[k], expected[k], equals, expectedIsPart))
  );
}

function isPlain(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
  if (typeof (x as { asymmetricMatch?: unknown }).asymmetricMatch === "function") return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

interface Step {
  /** Index into actual, or -1 for an expected call not made. */
  readonly a: number;
  /** Index into expected, or -1 for a call not expected. */
  readonly e: number;
}

// The longest ordered pairing (an LCS under `fits`), walked front to back as
// a diff: a strict trajectory passes when it pairs every call of both lists.
// Taking a fitting pair at once is always optimal, even for a `fits` that is
// no equivalence (an optimal pairing of the rest can be rewired to use it).
function alignment(fits: readonly boolean[][], na: number, ne: number): Step[] {
  const best: number[][] = Array.from({ length: na + 1 }, () => new Array(ne + 1).fill(0));
  for (let i = na - 1; i >= 0; i--) {
    for (let j = ne - 1; j >= 0; j--) {
      best[i][j] = fits[i][j] ? best[i + 1][j + 1] + 1 : Math.max(best[i + 1][j], best[i][j + 1]);
    }
  }
  const steps: Step[] = [];
  let i = 0;
  let j = 0;
  while (i < na && j < ne) {
    if (fits[i][j]) steps.push({ a: i++, e: j++ });
    // Missing before unexpected, as a diff reads: "- wanted" then "+ got".
    else if (best[i][j + 1] >= best[i + 1][j]) steps.push({ a: -1, e: j++ });
    else steps.push({ a: i++, e: -1 });
  }
  while (j < ne) steps.push({ a: -1, e: j++ });
  while (i < na) steps.push({ a: i++, e: -1 });
  return steps;
}

// A maximum bipartite matching (augmenting paths): partner[j] is the actual
// call paired with expected call j, or -1. Greedy first-fit is not enough: an
// expected call without args can take the one actual call that a later,
// stricter expected call needed.
function matching(fits: readonly boolean[][], na: number, ne: number): number[] {
  const partner = new Array<number>(ne).fill(-1);
  const augment = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < ne; j++) {
      if (!fits[i][j] || seen[j]) continue;
      seen[j] = true;
      if (partner[j] < 0 || augment(partner[j], seen)) {
        partner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < na; i++) augment(i, []);
  return partner;
}
