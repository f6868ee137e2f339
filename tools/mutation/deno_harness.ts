// The Deno side of the `deno` Stryker test runner (deno_runner.ts): one
// long-lived process that loads the sandbox's test files once and then runs
// them again and again, switching the active mutant in memory. Stryker's
// instrumented code asks the namespace object on globalThis which mutant is
// active, so a mutant run is "set activeMutant, run the tests that cover it",
// with no process start, no module graph and no type check in between.
//
// It speaks JSON lines: commands on stdin, replies on stdout behind a marker
// (a test may print too). It replaces Deno.test with a collector before it
// imports the test files, runs what was collected (steps, ignore, only, the
// sanitizer switches; `permissions` is ignored), and stands in for the parts
// of `deno test` a mutant can trip: leaked timers (the op sanitizer), leaked
// resources, Deno.exit, uncaught errors and unhandled rejections.

import type { Outcome } from "./_protocol.ts";
const MARKER = "\u0001stryker-deno\u0001";

type Json = Record<string, unknown>;
type StepFn = (t: Context) => void | Promise<void>;
type StepOptions = {
  name?: string;
  fn?: StepFn;
  ignore?: boolean;
  sanitizeOps?: boolean;
  sanitizeResources?: boolean;
  sanitizeExit?: boolean;
};
type TestOptions = StepOptions & { only?: boolean; permissions?: unknown };

interface Test {
  id: string;
  name: string;
  file: string;
  fn: StepFn;
  ignore: boolean;
  only: boolean;
  sanitizeOps: boolean;
  sanitizeResources: boolean;
  sanitizeExit: boolean;
}

type Schedule = (cb: unknown, delay?: number, ...args: unknown[]) => number;

interface Namespace {
  activeMutant?: string;
  currentTestId?: string;
  hitCount?: number;
  hitLimit?: number;
  mutantCoverage?: {
    static: Record<string, number>;
    perTest: Record<string, unknown>;
  };
}

// Everything the harness itself needs is captured before a test can replace it
// (FakeClock installs fake timers and a fake performance.now on globalThis).
const real = {
  setTimeout: globalThis.setTimeout as unknown as Schedule,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval as unknown as Schedule,
  clearInterval: globalThis.clearInterval,
  setImmediate: (globalThis as unknown as { setImmediate: (fn: () => void) => unknown })
    .setImmediate,
  now: performance.now.bind(performance),
  exit: Deno.exit,
  stringify: JSON.stringify,
};
const encoder = new TextEncoder();
const stdout = Deno.stdout;
const core = (Deno as unknown as Record<symbol, { core: CoreApi }>)[
  (Deno as unknown as { internal: symbol }).internal
].core;
interface CoreApi {
  resources(): Record<string, string>;
  tryClose(rid: number): void;
}

/** Fails the innermost running test or step when the event loop runs empty. */
let onIdle: (() => void) | undefined;
addEventListener("beforeunload", (event) => {
  if (!onIdle) return;
  event.preventDefault();
  onIdle();
});

const turn = () => new Promise<void>((resolve) => real.setImmediate(resolve));

// ---------------------------------------------------------------------------
// Leaks a mutant can cause that `deno test` would fail a test for.

/** The test (or step) that owns what is started now; undefined between tests. */
let owner: object | undefined;
const liveTimers = new Map<
  number,
  { owner: object | undefined; interval: boolean }
>();
const uncaught: unknown[] = [];

function trackTimers(): void {
  const g = globalThis as unknown as Record<string, unknown>;
  g.setTimeout = function setTimeout(
    cb: unknown,
    delay?: number,
    ...args: unknown[]
  ): number {
    const id: number = real.setTimeout(
      typeof cb === "function"
        ? (...a: unknown[]) => {
          liveTimers.delete(id);
          return cb(...a);
        }
        : cb,
      delay,
      ...args,
    );
    liveTimers.set(id, { owner, interval: false });
    return id;
  };
  g.setInterval = function setInterval(
    cb: unknown,
    delay?: number,
    ...args: unknown[]
  ): number {
    const id: number = real.setInterval(cb, delay, ...args);
    liveTimers.set(id, { owner, interval: true });
    return id;
  };
  g.clearTimeout = function clearTimeout(id?: number): void {
    if (id !== undefined) liveTimers.delete(id);
    real.clearTimeout(id);
  };
  g.clearInterval = function clearInterval(id?: number): void {
    if (id !== undefined) liveTimers.delete(id);
    real.clearInterval(id);
  };
  addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    uncaught.push(event.reason);
  });
  addEventListener("error", (event) => {
    event.preventDefault();
    uncaught.push(event.error ?? event.message);
  });
  (Deno as unknown as { exit: (code?: number) => never }).exit = (
    code?: number,
  ): never => {
    if (owner) {
      throw new Error(`Deno.exit(${code ?? ""}) was called during a test`);
    }
    return real.exit(code);
  };
}

function timersOf(token: object): number[] {
  const ids: number[] = [];
  for (const [id, timer] of liveTimers) if (timer.owner === token) ids.push(id);
  return ids;
}

function newResources(before: Set<string>): string[] {
  return Object.entries(core.resources())
    .filter(([rid]) => !before.has(rid))
    .map(([rid, name]) => `${name} (rid ${rid})`);
}

/** What `deno test` checks after a test: no timer or resource it started is still open. */
async function leaks(
  token: object,
  before: Set<string>,
  test: StepOptions,
): Promise<string[]> {
  let timers = test.sanitizeOps === false ? [] : timersOf(token);
  let resources = test.sanitizeResources === false ? [] : newResources(before);
  // Like deno test, give work that is about to finish a few turns of the event loop.
  for (let i = 0; i < 4 && (timers.length || resources.length); i++) {
    await turn();
    timers = test.sanitizeOps === false ? [] : timersOf(token);
    resources = test.sanitizeResources === false ? [] : newResources(before);
  }
  const problems: string[] = [];
  if (timers.length) {
    problems.push(
      `Leaking async ops: ${timers.length} timer(s) started in this test still pending`,
    );
    for (const id of timers) {
      real.clearTimeout(id);
      real.clearInterval(id);
      liveTimers.delete(id);
    }
  }
  if (resources.length) {
    problems.push(`Leaking resources: ${resources.join(", ")}`);
    for (const entry of resources) {
      core.tryClose(Number(/rid (\d+)/.exec(entry)![1]));
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------
// Deno.test, collected.

const tests: Test[] = [];
let loadingFile = "";

function parseArgs(
  args: unknown[],
): TestOptions & { fn: StepFn; name: string } {
  const [a, b, c] = args;
  let options: TestOptions;
  if (typeof a === "function") options = { name: a.name, fn: a as StepFn };
  else if (typeof a === "string") {
    options = typeof b === "function"
      ? { name: a, fn: b as StepFn }
      : { ...(b as TestOptions), name: a, fn: c as StepFn };
  } else {
    options = typeof b === "function"
      ? { ...(a as TestOptions), fn: b as StepFn }
      : { ...(a as TestOptions) };
    if (typeof b === "function" && !options.name) {
      options.name = (b as StepFn).name;
    }
  }
  if (typeof options.fn !== "function") {
    throw new TypeError("Deno.test needs a function");
  }
  if (!options.name) throw new TypeError("Deno.test needs a name");
  return options as TestOptions & { fn: StepFn; name: string };
}

function register(extra: TestOptions, args: unknown[]): void {
  const options = { ...parseArgs(args), ...extra };
  const base = `${loadingFile.slice(Deno.cwd().length + 1)} > ${options.name}`;
  let id = base;
  for (let n = 2; tests.some((t) => t.id === id); n++) id = `${base} (${n})`;
  tests.push({
    id,
    name: options.name,
    file: loadingFile,
    fn: options.fn,
    ignore: options.ignore ?? false,
    only: options.only ?? false,
    sanitizeOps: options.sanitizeOps ?? true,
    sanitizeResources: options.sanitizeResources ?? true,
    sanitizeExit: options.sanitizeExit ?? true,
  });
}

function unsupported(what: string) {
  return () => {
    throw new Error(
      `${what} is not supported by the mutation harness; use the command runner`,
    );
  };
}

function collectTests(): void {
  const test = (...args: unknown[]) => register({}, args);
  Object.assign(test, {
    ignore: (...args: unknown[]) => register({ ignore: true }, args),
    only: (...args: unknown[]) => register({ only: true }, args),
    beforeAll: unsupported("Deno.test.beforeAll"),
    beforeEach: unsupported("Deno.test.beforeEach"),
    afterEach: unsupported("Deno.test.afterEach"),
    afterAll: unsupported("Deno.test.afterAll"),
    each: unsupported("Deno.test.each"),
    sanitizer: unsupported("Deno.test.sanitizer"),
  });
  (Deno as unknown as { test: unknown }).test = test;
}

// ---------------------------------------------------------------------------
// Running a test: the TestContext with its steps.

class Context {
  readonly name: string;
  readonly origin: string;
  readonly parent: Context | undefined;
  readonly failures: string[] = [];
  readonly #pending = new Set<Promise<unknown>>();

  constructor(name: string, origin: string, parent?: Context) {
    this.name = name;
    this.origin = origin;
    this.parent = parent;
  }

  step(a: string | StepFn | StepOptions, b?: StepFn): Promise<boolean> {
    const options: StepOptions = typeof a === "string"
      ? { name: a, fn: b }
      : typeof a === "function"
      ? { name: a.name, fn: a }
      : a;
    const run = this.#step(options);
    this.#pending.add(run);
    return run.finally(() => this.#pending.delete(run));
  }

  async #step(options: StepOptions): Promise<boolean> {
    if (options.ignore) return false;
    const child = new Context(options.name ?? "", this.origin, this);
    const failure = await execute(child, options);
    if (failure === undefined) return true;
    this.failures.push(`step "${options.name}" failed: ${failure}`);
    return false;
  }

  /** Steps the test started and did not await fail it, as in deno test. */
  unfinishedSteps(): number {
    return this.#pending.size;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    return error.stack ?? `${error.name}: ${error.message}`;
  }
  try {
    return Deno.inspect(error);
  } catch {
    return String(error);
  }
}

/** Runs a test or step body with its sanitizers; the failure text, or undefined. */
async function execute(
  context: Context,
  options: StepOptions,
): Promise<string | undefined> {
  const token = {};
  const outer = owner;
  const before = new Set(Object.keys(core.resources()));
  owner = token;
  const problems: string[] = [];
  const idle = Promise.withResolvers<never>();
  const outerIdle = onIdle;
  onIdle = () =>
    idle.reject(
      new Error(
        "The test can never finish: the event loop ran empty while it waited on a promise",
      ),
    );
  try {
    await Promise.race([options.fn!(context), idle.promise]);
  } catch (error) {
    problems.push(describe(error));
  }
  onIdle = outerIdle;
  if (context.unfinishedSteps()) {
    problems.push(
      `${context.unfinishedSteps()} step(s) were not awaited before the test ended`,
    );
  }
  problems.push(...context.failures, ...await leaks(token, before, options));
  owner = outer;
  return problems.length ? problems.join("\n") : undefined;
}

async function runOne(
  test: Test,
  ns: Namespace,
  perTest: boolean,
): Promise<Outcome> {
  const outcome = {
    id: test.id,
    name: test.name,
    fileName: test.file,
    timeSpentMs: 0,
  };
  if (test.ignore) return { ...outcome, status: "skipped" };
  ns.currentTestId = perTest ? test.id : undefined;
  const start = real.now();
  let failure = await execute(new Context(test.name, test.file), test);
  ns.currentTestId = undefined;
  if (uncaught.length) {
    const errors = uncaught.splice(0).map(describe).join("\n");
    failure = `${failure ?? ""}\nUncaught error during the test: ${errors}`
      .trim();
  }
  const timeSpentMs = real.now() - start;
  return failure === undefined ? { ...outcome, timeSpentMs, status: "success" } : {
    ...outcome,
    timeSpentMs,
    status: "failed",
    failureMessage: failure.slice(0, 4000),
  };
}

// ---------------------------------------------------------------------------
// Commands.

let namespace: Namespace = {};
let snapshot: Map<string, PropertyDescriptor | undefined> = new Map();

/**
 * The globals a mutant can leave replaced (a FakeClock never uninstalled
 * leaves fake timers, Date and performance.now behind), as they were after
 * loading: the property descriptors of globalThis and of a few objects whose
 * methods fakes patch.
 */
function globalsNow(): Map<string, PropertyDescriptor | undefined> {
  const found = new Map<string, PropertyDescriptor | undefined>();
  for (const [prefix, object] of patched()) {
    const names = new Set([
      ...Object.getOwnPropertyNames(object),
      ...(snapshot.size ? [...snapshot.keys()].filter((k) => k.startsWith(prefix)) : [])
        .map((k) => k.slice(prefix.length)),
    ]);
    for (const name of names) {
      found.set(prefix + name, Object.getOwnPropertyDescriptor(object, name));
    }
  }
  return found;
}

function patched(): [string, object][] {
  return [["", globalThis], ["Date.", Date], ["performance.", performance], [
    "Math.",
    Math,
  ]];
}

function same(
  a: PropertyDescriptor | undefined,
  b: PropertyDescriptor | undefined,
): boolean {
  return Object.is(a?.value, b?.value) && Object.is(a?.get, b?.get) &&
    Object.is(a?.set, b?.set);
}

/**
 * Puts back every global a run replaced or added a patch over; the names it
 * restored, and those it could not (then the process is no longer clean).
 */
function restoreGlobals(): { restored: string[]; stuck: string[] } {
  const restored: string[] = [];
  const stuck: string[] = [];
  // globalThis first: restoring Date brings its own statics back.
  for (const [prefix, object] of patched()) {
    const now = globalsNow();
    for (const [key, before] of snapshot) {
      if (!key.startsWith(prefix) || key.slice(prefix.length).includes(".")) {
        continue;
      }
      if (key === nsName || same(now.get(key), before)) continue;
      const name = key.slice(prefix.length);
      try {
        const ok = before
          ? Reflect.defineProperty(object, name, before)
          : Reflect.deleteProperty(object, name);
        (ok ? restored : stuck).push(key);
      } catch {
        stuck.push(key);
      }
    }
    // Own properties a patch added over a prototype method (performance.now).
    for (const key of now.keys()) {
      if (key.startsWith(prefix) && !snapshot.has(key) && prefix !== "") {
        const deleted = Reflect.deleteProperty(
          object,
          key.slice(prefix.length),
        );
        (deleted ? restored : stuck).push(key);
      }
    }
  }
  return { restored, stuck };
}

let nsName = "__stryker__";

async function load(command: Json): Promise<Json> {
  nsName = String(command.namespace ?? nsName);
  const g = globalThis as unknown as Record<string, Namespace>;
  namespace = g[nsName] ??= {};
  if (command.activeMutant !== undefined) {
    namespace.activeMutant = String(command.activeMutant);
  }
  trackTimers();
  collectTests();
  const start = real.now();
  for (const file of command.files as string[]) {
    loadingFile = file;
    await import(new URL(`file://${file}`).href);
  }
  loadingFile = "";
  await turn();
  snapshot = globalsNow();
  const loadErrors = uncaught.splice(0).map(describe);
  if (loadErrors.length) {
    throw new Error(`Uncaught error while loading: ${loadErrors.join("\n")}`);
  }
  return { op: "loaded", tests: tests.length, ms: real.now() - start };
}

async function run(command: Json): Promise<Json> {
  const ns = namespace;
  const coverage = command.coverage === true;
  const perTest = command.perTest === true;
  const bail = command.bail !== false;
  const only = tests.some((t) => t.only);
  // In the order the files declare them, as deno test runs them: a mutant can
  // leave state behind that a later test trips over (or hides from it).
  const wanted = Array.isArray(command.tests) ? new Set(command.tests as string[]) : undefined;
  const selected = wanted ? tests.filter((t) => wanted.has(t.id)) : tests;
  const active = command.activeMutant === undefined ? undefined : String(command.activeMutant);
  const hitLimit = typeof command.hitLimit === "number" ? command.hitLimit : Infinity;
  ns.activeMutant = active;
  ns.hitCount = active === undefined ? undefined : 0;
  ns.hitLimit = active === undefined ? undefined : hitLimit;
  const outcomes: Outcome[] = [];
  let polluted = false;
  for (const test of selected) {
    // If the process dies in this test (a promise nothing can resolve empties
    // the event loop, and Deno exits as deno test would fail the test), the
    // runner knows which test it was.
    if (active !== undefined) await reply({ op: "started", id: test.id });
    const outcome = only && !test.only ? { ...skip(test) } : await runOne(test, ns, perTest);
    outcomes.push(outcome);
    if ((ns.hitCount ?? 0) > hitLimit) break;
    if (outcome.status === "failed" && bail) break;
  }
  await turn(); // an unhandled rejection surfaces on the next turn of the event loop
  if (uncaught.length && outcomes.length) {
    const last = outcomes[outcomes.length - 1];
    outcomes[outcomes.length - 1] = {
      ...last,
      status: "failed",
      failureMessage: `Uncaught error after the test: ${uncaught.splice(0).map(describe)}`,
    };
  }
  const hitCount = ns.hitCount;
  ns.activeMutant = undefined;
  ns.hitCount = undefined;
  ns.hitLimit = undefined;
  const globals = restoreGlobals();
  // A kill only counts if the killing test still passes without the mutant:
  // otherwise an earlier run left this process in a state no test expects.
  const killer = outcomes.find((o) => o.status === "failed");
  if (active !== undefined && killer && command.verify !== false) {
    const again = await runOne(
      tests.find((t) => t.id === killer.id)!,
      ns,
      false,
    );
    polluted = again.status === "failed";
  }
  return {
    op: "result",
    tests: outcomes,
    hitCount,
    polluted,
    restoredGlobals: globals.restored,
    stuckGlobals: globals.stuck,
    coverage: coverage ? ns.mutantCoverage ?? { static: {}, perTest: {} } : undefined,
  };
}

function skip(test: Test): Outcome {
  return {
    id: test.id,
    name: test.name,
    fileName: test.file,
    status: "skipped",
    timeSpentMs: 0,
  };
}

async function reply(message: Json): Promise<void> {
  let bytes = encoder.encode(`\n${MARKER}${real.stringify(message)}\n`);
  while (bytes.length) bytes = bytes.subarray(await stdout.write(bytes));
}

async function main(): Promise<void> {
  let buffered = "";
  const decoder = new TextDecoder();
  for await (const chunk of Deno.stdin.readable) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (!line.trim()) continue;
      const command = JSON.parse(line) as Json;
      try {
        if (command.op === "load") await reply(await load(command));
        else if (command.op === "run") await reply(await run(command));
        else throw new Error(`Unknown command: ${command.op}`);
      } catch (error) {
        await reply({ op: "error", message: describe(error) });
      }
    }
  }
  real.exit(0);
}

// Not awaited at the top: when a test waits on a promise nothing can resolve,
// the event loop runs empty and "beforeunload" says so (see onIdle), where a
// top-level await would end the process.
main();
