// The one options checker. Every public constructor, factory and method that
// takes an options bag calls `checkOptions` once, where the bag is given (at
// build time, never per call), so every entry behaves alike: an unknown key is
// a TypeError with a did-you-mean and the valid keys, a wrong type a TypeError
// naming what was given and what is accepted, an out-of-range number a
// RangeError. No zod here: the runtime's build path stays dependency-light.
import { editDistance } from "./_edit_distance.ts";
import { preview } from "./_preview.ts";
import { moneyProblem, SCALE_DIGITS } from "./money/_decimal.ts";

/** Why a value failed a rule: wrong type, or the right type out of range. */
export interface Fail {
  readonly kind: "type" | "range";
  /** A full sentence replacing the generic "must be X, got Y" (for hints). */
  readonly message?: string;
}

/** One option's rule: what it accepts (for messages) and the test. */
export interface Rule {
  /** What is accepted, as a phrase: "a non-negative integer". */
  readonly accepts: string;
  /** Returns a failure, or undefined when the value is fine. */
  test(value: unknown, option: string): Fail | undefined;
}

/** Options to {@linkcode checkOptions} itself. */
export interface CheckSettings {
  /** Keys that must be given. */
  readonly required?: readonly string[];
  /** For a key that is not an option but a common mistake: where it goes instead. */
  readonly hints?: Readonly<Record<string, string>>;
  /** Accept `undefined` or `null` for the whole bag? Default: undefined only. */
  readonly optional?: boolean;
}

const TYPE: Fail = { kind: "type" };
const NO_SETTINGS: CheckSettings = {};
const NONE: readonly string[] = [];
const RANGE: Fail = { kind: "range" };

function normalise(s: string): string {
  return s.toLowerCase().replace(/[_-]/g, "");
}

/** The nearest of `known` to `key`, if it is near enough to suggest. */
export function nearest(key: string, known: readonly string[]): string | undefined {
  const n = normalise(key);
  const same = known.find((k) => normalise(k) === n);
  if (same) return same;
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(normalise(k), n);
    if (d < bestD) [best, bestD] = [k, d];
  }
  if (bestD <= Math.max(2, Math.floor(key.length / 3))) return best;
  // A shared stem ("arguments" for "args", "maxCost" for "maxCostUsd") beats no hint.
  const pre = known.filter((k) => n.length >= 3 && normalise(k).startsWith(n));
  if (pre.length === 1) return pre[0];
  const stem = known.filter((k) => n.length >= 3 && normalise(k).slice(0, 3) === n.slice(0, 3));
  return stem.length === 1 ? stem[0] : undefined;
}

/** How a value reads in a message: `-1`, `"abc"`, `a function named meter`, `null`. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "function") {
    return value.name ? `a function named ${value.name}` : "an anonymous function";
  }
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `an array (${preview(value)})`;
  if (typeof value === "object") {
    const proto = Object.getPrototypeOf(value);
    if (proto !== null && proto !== Object.prototype) {
      const name = (proto.constructor as { name?: string } | undefined)?.name;
      if (name) return `a ${name}`;
    }
    // JSON would drop methods: name the keys instead.
    const keys = Object.keys(value);
    if (keys.some((k) => typeof (value as Record<string, unknown>)[k] === "function")) {
      return `an object with ${keys.slice(0, 8).join(", ")}`;
    }
  }
  return preview(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Above 0 while a caller builds objects from options it has checked itself
// against the same or stricter rules (makeTestCtx's knobs): the inner
// constructors skip their own check.
let prechecked = 0;

/**
 * Runs `build` with the options checks of the constructors it calls turned
 * off: for a factory whose own check already covers every option it passes
 * on, so a test context is not checked three times over.
 */
export function withChecked<T>(build: () => T): T {
  prechecked++;
  try {
    return build();
  } finally {
    prechecked--;
  }
}

/**
 * What `deferServices` leaves for the next `new RunContext()`: it builds its
 * services with `make(arg)` when they are first read, and skips its own
 * check. Taken (cleared) by that constructor.
 */
export const deferral: { make: ((arg: never) => unknown) | undefined; arg: unknown } = {
  make: undefined,
  arg: undefined,
};

/**
 * Makes the next `new RunContext(options)` build its services with
 * `make(arg)` on first read: for a factory that checked every option it
 * passes (the same rules or stricter) and gives no `services`. Call it
 * right before that constructor.
 */
export function deferServices<A>(make: (arg: A) => unknown, arg: A): void {
  deferral.make = make as (arg: never) => unknown;
  deferral.arg = arg;
}

/**
 * Checks an options bag against `rules` and returns it. `where` names the
 * entry as a user wrote it: `new Budget()`, `meter()`, `agent.run()`.
 */
export function checkOptions<T>(
  where: string,
  options: T,
  rules: Readonly<Record<string, Rule>>,
  settings: CheckSettings = NO_SETTINGS,
): T {
  if (prechecked > 0) return options;
  const required = settings.required ?? NONE;
  if (options === undefined || (settings.optional && options === null)) {
    if (required.length) {
      throw new TypeError(
        `${where} needs an options object with ${required.map((k) => `"${k}"`).join(", ")}`,
      );
    }
    return options;
  }
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(
      `${where} takes an options object ({ ${Object.keys(rules).join(", ")} }), got ${
        describe(options)
      }`,
    );
  }
  const bag = options as Record<string, unknown>;
  // One pass over the given keys: most bags are small and right, so the
  // rules of absent options are not visited. An unknown key throws at once
  // (as before any value is tested); a bad value, or a required option,
  // sends the check down the ordered pass below, which reports the same
  // first failure as always.
  const keys = Object.keys(bag);
  let ordered = required.length > 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!Object.hasOwn(rules, key)) unknownOption(where, key, rules, settings);
    const value = bag[key];
    if (!ordered && value !== undefined && rules[key].test(value, key) !== undefined) {
      ordered = true;
    }
  }
  if (!ordered) return options;
  for (const key of Object.keys(rules)) {
    const value = bag[key];
    if (value === undefined) {
      if (required.includes(key)) {
        throw new TypeError(
          `${where}: option "${key}" is required (${rules[key].accepts})`,
        );
      }
      continue;
    }
    fail(where, `option "${key}"`, value, rules[key], key);
  }
  return options;
}

function unknownOption(
  where: string,
  key: string,
  rules: Readonly<Record<string, Rule>>,
  settings: CheckSettings,
): never {
  const known = Object.keys(rules);
  const hint = settings.hints?.[key];
  const near = hint ? undefined : nearest(key, known);
  throw new TypeError(
    `${where}: unknown option "${key}"${hint ? `; ${hint}` : ""}${
      near ? `; did you mean "${near}"?` : ""
    } (the options are ${known.length ? known.join(", ") : "none"})`,
  );
}

/** Throws when `value` breaks `rule`; `what` names it (`option "ms"`, `the ctx`). */
export function checkValue(where: string, what: string, value: unknown, rule: Rule): void {
  fail(where, what, value, rule, what);
}

function fail(where: string, what: string, value: unknown, rule: Rule, key: string): void {
  const f = rule.test(value, key);
  if (!f) return;
  const text = f.message ?? `${what} must be ${rule.accepts}, got ${describe(value)}`;
  throw f.kind === "range"
    ? new RangeError(`${where}: ${text}`)
    : new TypeError(`${where}: ${text}`);
}

function rule(accepts: string, test: (value: unknown, option: string) => Fail | undefined): Rule {
  return { accepts, test };
}

interface NumberBounds {
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
  /** Allow Infinity as "no limit"? */
  readonly infinite?: boolean;
}

function number(accepts: string, b: NumberBounds): Rule {
  return rule(accepts, (v) => {
    if (typeof v !== "number") return TYPE;
    if (Number.isNaN(v)) return RANGE;
    if (!Number.isFinite(v)) return b.infinite && v > 0 ? undefined : RANGE;
    if (b.integer && !Number.isInteger(v)) return RANGE;
    if (b.min !== undefined && v < b.min) return RANGE;
    if (b.max !== undefined && v > b.max) return RANGE;
    return undefined;
  });
}

/** The rules options are made of. */
export const is = {
  /** Anything at all (a value the callee checks itself). */
  any: rule("any value", () => undefined) as Rule,
  /** A string. */
  string: rule("a string", (v) => typeof v === "string" ? undefined : TYPE) as Rule,
  /** A string with at least one character. */
  text: rule(
    "a non-empty string",
    (v) => typeof v !== "string" ? TYPE : v ? undefined : RANGE,
  ) as Rule,
  /** `true` or `false`. */
  boolean: rule("true or false", (v) => typeof v === "boolean" ? undefined : TYPE) as Rule,
  /** A function. */
  function: rule("a function", (v) => typeof v === "function" ? undefined : TYPE) as Rule,
  /** A plain object. */
  object: rule("an object", (v) => isPlainObject(v) ? undefined : TYPE) as Rule,
  /** An Error instance. */
  error: rule("an Error instance", (v) => v instanceof Error ? undefined : TYPE) as Rule,
  /** A duration: a finite number of milliseconds, 0 or more. */
  ms: number("a finite number of milliseconds, 0 or more", { min: 0 }) as Rule,
  /** A positive duration: a finite number of milliseconds above 0. */
  positiveMs: number("a positive number of milliseconds", { min: Number.MIN_VALUE }) as Rule,
  /** A count: an integer, 0 or more. */
  count: number("an integer, 0 or more", { min: 0, integer: true }) as Rule,
  /** A fraction: a number from 0 to 1. */
  fraction: number("a number from 0 to 1", { min: 0, max: 1 }) as Rule,
  /** An amount of USD: a non-negative finite decimal, as a number or a string. */
  money: rule(
    `a non-negative decimal amount with at most ${SCALE_DIGITS} decimals (0.10 or "0.10")`,
    (v, option) => {
      if (typeof v !== "number" && typeof v !== "string") return TYPE;
      const problem = moneyProblem(v);
      return problem === undefined ? undefined : {
        kind: problem.kind,
        message: `${option} ${
          describe(v)
        } ${problem.text}; pass a non-negative decimal like "0.10"`,
      };
    },
  ) as Rule,
  /** A number within bounds. */
  number: (bounds: NumberBounds = {}): Rule => {
    const parts: string[] = [bounds.integer ? "an integer" : "a finite number"];
    if (bounds.min !== undefined && bounds.max !== undefined) {
      parts.push(`from ${bounds.min} to ${bounds.max}`);
    } else if (bounds.min !== undefined) parts.push(`${bounds.min} or more`);
    else if (bounds.max !== undefined) parts.push(`${bounds.max} or less`);
    if (bounds.infinite) parts.push("(or Infinity)");
    return number(parts.join(" "), bounds);
  },
  /** One of a few literal values. */
  oneOf: (values: readonly unknown[]): Rule =>
    rule(
      `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`,
      (v) => values.includes(v) ? undefined : TYPE,
    ),
  /** An array whose every element passes `element`; `accepts` names it in the plural. */
  arrayOf: (element: Rule, min = 0, accepts?: string): Rule =>
    rule(
      accepts ??
        `an array of ${element.accepts.replace(/^an? /, "")}${min ? ` (at least ${min})` : ""}`,
      (v, option) => {
        if (!Array.isArray(v)) return TYPE;
        if (v.length < min) return RANGE;
        for (let i = 0; i < v.length; i++) {
          const f = element.test(v[i], `${option}[${i}]`);
          if (f) {
            return {
              kind: f.kind,
              message: f.message ??
                `${option}[${i}] must be ${element.accepts}, got ${describe(v[i])}`,
            };
          }
        }
        return undefined;
      },
    ),
  /** A plain object whose every value passes `value`. */
  recordOf: (value: Rule): Rule =>
    rule(`an object of ${value.accepts.replace(/^an? /, "")} values`, (v, option) => {
      if (!isPlainObject(v)) return TYPE;
      for (const [k, x] of Object.entries(v)) {
        const f = value.test(x, `${option}.${k}`);
        if (f) {
          return {
            kind: f.kind,
            message: f.message ?? `${option}.${k} must be ${value.accepts}, got ${describe(x)}`,
          };
        }
      }
      return undefined;
    }),
  /** Either rule. */
  either: (a: Rule, b: Rule, accepts = `${a.accepts} or ${b.accepts}`): Rule =>
    rule(accepts, (v, option) => {
      const fa = a.test(v, option);
      if (!fa) return undefined;
      const fb = b.test(v, option);
      if (!fb) return undefined;
      // The range failure is the more telling one ("-1" for a count, not "not a string").
      return fa.kind === "range" ? fa : fb.kind === "range" ? fb : { kind: "type" };
    }),
  /** An instance of a class. */
  instance: (ctor: abstract new (...args: never[]) => unknown, name = ctor.name): Rule =>
    rule(`a ${name}`, (v) => v instanceof ctor ? undefined : TYPE),
  /**
   * A port: an object with these methods (`port("a clock", ["now", "sleep"])`).
   * A function with the methods as properties counts too.
   */
  port: (name: string, methods: readonly string[]): Rule =>
    rule(`${name} (an object with ${methods.map((m) => `${m}()`).join(", ")})`, (v, option) => {
      if (v === null || (typeof v !== "object" && typeof v !== "function")) return TYPE;
      let all = true;
      for (let i = 0; all && i < methods.length; i++) {
        all = typeof (v as Record<string, unknown>)[methods[i]] === "function";
      }
      if (all) return undefined;
      const missing = methods.filter((m) =>
        typeof (v as Record<string, unknown>)[m] !== "function"
      );
      if (!missing.length) return undefined;
      return {
        kind: "type",
        message: `${option} must be ${name}, got ${describe(v)} without ${
          missing.map((m) => `${m}()`).join(", ")
        }`,
      };
    }),
  /**
   * A middleware object: `{ name, <one of methods>() }`. An uncalled factory
   * (`meter` for `meter()`) gets a one-line message saying to call it.
   */
  middleware: (kind: "chat" | "tool"): Rule => {
    const methods = kind === "chat" ? ["chat", "stream"] : ["call"];
    return rule(
      `a ${kind} middleware (an object with ${methods.map((m) => `${m}()`).join(" or ")})`,
      (v, option) => {
        if (typeof v === "function") {
          const message = v.name
            ? `${option} is the function ${v.name}, not a middleware; call it: ${v.name}(), as in ${kind}Middleware: [${v.name}()]`
            : `${option} is a function, not a middleware; call the factory (retry(), not retry)`;
          return { kind: "type", message };
        }
        if (v === null || typeof v !== "object") return TYPE;
        const m = v as Record<string, unknown>;
        if (methods.some((k) => typeof m[k] === "function")) return undefined;
        return misplaced(kind, m, option) ?? TYPE;
      },
    );
  },
} as const;

// A chat middleware given as a tool middleware, or the other way round: say
// which list it goes in (and, for retry(), how to retry a tool instead).
function misplaced(kind: "chat" | "tool", m: Record<string, unknown>, option: string) {
  const other = kind === "chat" ? "tool" : "chat";
  const fits = other === "chat"
    ? typeof m.chat === "function" || typeof m.stream === "function"
    : typeof m.call === "function";
  if (!fits) return undefined;
  const name = typeof m.name === "string" && m.name ? m.name : "";
  let message = `${option} is the ${other} middleware${name ? ` "${name}"` : ""}: it wraps ${
    other === "chat" ? "model" : "tool"
  } calls, not ${kind === "chat" ? "model" : "tool"} calls; give it in ${other}Middleware instead`;
  if (name === "retry") {
    message =
      `${option} is retry(), which retries model calls: it is a chat middleware, so it goes in ` +
      `chatMiddleware: [retry()]. To retry a tool, give toolMiddleware a middleware of your own, e.g. ` +
      `{ name: "retryTool", call: (inv, ctx, next) => next(inv, ctx).catch(() => next(inv, ctx)) }; ` +
      `to script a flaky tool in a test, use FakeTool's own options ({ failTimes, failWith })`;
  }
  return { kind: "type" as const, message };
}

/** The limits a `Budget` and a `Quota` take. */
export const LIMITS: Readonly<Record<string, Rule>> = {
  maxCostUsd: is.money,
  maxCalls: is.count,
  maxTokens: is.count,
};

type TokenKey = "inputTokens" | "outputTokens" | "cachedInputTokens";

/**
 * One token count of a usage, checked: a safe integer, 0 or more (a NaN,
 * negative, fractional or unsafe count would make a garbled cost, or fail
 * deep as "Cannot mix BigInt and other types"). The optional cached count
 * reads as 0 when absent.
 */
export function tokenCount(where: string, usage: unknown, key: TokenKey): number {
  if (usage === null || typeof usage !== "object" || Array.isArray(usage)) {
    throw new TypeError(
      `${where}: usage must be a Usage object ({ inputTokens, outputTokens }), got ${
        describe(usage)
      }`,
    );
  }
  const n = (usage as Record<string, unknown>)[key];
  if (n === undefined && key === "cachedInputTokens") return 0;
  if (Number.isSafeInteger(n) && (n as number) >= 0) return n as number;
  const text = `${where}: usage.${key} must be ${TOKEN_COUNT}, got ${describe(n)}`;
  throw typeof n === "number" ? new RangeError(text) : new TypeError(text);
}

const TOKEN_COUNT = "a safe integer, 0 or more (a count of tokens)";

/**
 * The port-shaped arguments, checked for the methods the package calls on
 * them, so a wrong object fails where it is given, not deep inside a run.
 */
export const ports = {
  llm: is.port("an LLMPort", ["chat", "stream"]) as Rule,
  clock: is.port("a ClockPort", ["now", "sleep"]) as Rule,
  meter: is.port("a Budget or Meter", ["check", "charge"]) as Rule,
  kvStore: is.port("a KVStore", ["get", "set", "delete"]) as Rule,
  vector: is.port("a VectorStore", ["upsert", "query", "delete"]) as Rule,
  checkpointer: is.port("a CheckpointStore", ["save", "load", "list"]) as Rule,
  sessionStore: is.port("a SessionStore", ["load", "save"]) as Rule,
  asker: is.port("an AskerPort", ["ask"]) as Rule,
  observer: is.port("an ObserverPort", ["emit"]) as Rule,
  trace: is.port("a TracePort", ["span"]) as Rule,
  cognition: is.port("a Cognition", ["stream"]) as Rule,
  provider: is.port("a ToolProvider", ["listTools", "executeToolCalls"]) as Rule,
  tool: is.port("a ToolPort", ["call"]) as Rule,
  ctx: is.port("a RunContext (makeTestCtx() in tests)", ["checkCancelled", "emit"]) as Rule,
  signal: is.instance(AbortSignal) as Rule,
} as const;
