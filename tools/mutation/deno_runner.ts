// A Stryker test runner for Deno (`"testRunner": "deno"`), loaded by Stryker
// on Node 22 (which strips the types). One long-lived `deno run` of
// deno_harness.ts per Stryker worker loads the test files once; a mutant run
// tells it which mutant is active and which tests cover it, so a mutant costs
// a few test bodies instead of a `deno test` process.
//
// What a warm process cannot judge goes to a fresh one, started with the
// mutant active before any module loads and running every test, as
// `deno test` would:
// - static mutants (run while modules load, e.g. a module-level constant);
// - a mutant its covering tests never reached in the warm process (the code
//   ran once and was cached, as `PriceTable.default()` is);
// - a kill by a test that also fails without the mutant (an earlier mutant
//   left state behind); the warm process is replaced too.
// A run that times out or leaves a global replaced (FakeClock's timers, fetch)
// gets the warm process replaced before the next mutant. A process is killed
// with its process group (_harness_process.ts), so children its tests left
// running (a mutant of spawn code) go with it.
import { relative, sep } from "node:path";
import process from "node:process";
import type { Outcome } from "./_protocol.ts";
import { Exited, Expired, Harness } from "./_harness_process.ts";
import { INSTRUMENTER_CONSTANTS } from "@stryker-mutator/api/core";
import type { StrykerOptions } from "@stryker-mutator/api/core";
import type { Logger } from "@stryker-mutator/api/logging";
import { commonTokens, declareClassPlugin, PluginKind, tokens } from "@stryker-mutator/api/plugin";
import {
  DryRunStatus,
  MutantRunStatus,
  TestStatus,
  toMutantRunResult,
} from "@stryker-mutator/api/test-runner";
import type {
  DryRunOptions,
  DryRunResult,
  MutantRunOptions,
  MutantRunResult,
  TestResult,
  TestRunner,
  TestRunnerCapabilities,
} from "@stryker-mutator/api/test-runner";

/** `denoRunner` in the Stryker config. */
interface DenoRunnerOptions {
  /** Test files, relative to the project root, loaded in this order. */
  testFiles: string[];
  /** Flags for `deno run` (permissions, --unstable-*, --no-check). */
  denoArgs?: string[];
  /** The deno executable. */
  deno?: string;
  /**
   * Several modules in one run, each judged by its own tests: module path
   * (relative to the root) -> its targeted test files (a subset of
   * `testFiles`). A mutant then runs only the covering tests from its
   * module's files, and a fresh process loads only those files, so each score
   * is what a run of that module alone with its targeted tests would give.
   * A mutant no targeted test reaches survives without a run.
   */
  targets?: Record<string, string[]>;
}

interface RunReply {
  op: "result";
  tests: Outcome[];
  hitCount?: number;
  polluted: boolean;
  restoredGlobals: string[];
  stuckGlobals: string[];
  coverage?: {
    static: Record<string, number>;
    perTest: Record<string, Record<string, number>>;
  };
}

const TIMED_OUT: MutantRunResult = {
  status: MutantRunStatus.Timeout,
  reason: "the tests did not finish in time",
};

/**
 * A mutant run whose process died: as `deno test` fails a test whose promise
 * can never resolve (the event loop ran empty) or whose process crashed, it is
 * a kill by the test that was running.
 */
function killedByExit(harness: Harness, error: Exited): MutantRunResult {
  return {
    status: MutantRunStatus.Killed,
    killedBy: harness.started ? [harness.started] : [],
    failureMessage: error.message.slice(0, 2000),
    nrOfTests: harness.started ? 1 : 0,
  };
}

export class DenoTestRunner implements TestRunner {
  static inject = tokens(commonTokens.logger, commonTokens.options);

  readonly #log: Logger;
  readonly #options: Required<DenoRunnerOptions>;
  readonly #cwd = process.cwd();
  #warm: Promise<Harness> | undefined;
  #loadMs = 1000;
  #fresh: Harness | undefined;
  /** Every test of the dry run. */
  #testIds: string[] = [];
  /** Fresh processes and replaced warm ones, by reason, for the log. */
  readonly #events: Record<string, number> = {};

  constructor(log: Logger, options: StrykerOptions) {
    this.#log = log;
    const given = (options as { denoRunner?: DenoRunnerOptions }).denoRunner;
    if (!given?.testFiles?.length) {
      throw new Error(
        'The deno test runner needs "denoRunner": { "testFiles": [...] }',
      );
    }
    this.#options = {
      denoArgs: ["--no-check"],
      deno: "deno",
      targets: {},
      ...given,
    };
  }

  capabilities(): TestRunnerCapabilities {
    // A static mutant runs in a process of its own; the warm one never loads one.
    return { reloadEnvironment: true };
  }

  async dryRun(options: DryRunOptions): Promise<DryRunResult> {
    try {
      const harness = await this.#warmHarness();
      const reply = await harness.send({
        op: "run",
        coverage: options.coverageAnalysis !== "off",
        perTest: options.coverageAnalysis === "perTest",
      }) as unknown as RunReply;
      this.#testIds = reply.tests.map((test) => test.id);
      return {
        status: DryRunStatus.Complete,
        tests: reply.tests.map(toTestResult),
        mutantCoverage: reply.coverage,
      };
    } catch (error) {
      return {
        status: DryRunStatus.Error,
        errorMessage: String((error as Error).stack ?? error),
      };
    }
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    // Leave time to replace the warm process inside Stryker's own timeout.
    const start = Date.now();
    const end = start + options.timeout - 300;
    const files = this.#filesFor(options);
    const tests = files && this.#testsIn(files, options.testFilter);
    if (tests?.length === 0) {
      return { status: MutantRunStatus.Survived, nrOfTests: 0 };
    }
    if (options.mutantActivation === "static") {
      return this.#runFresh(options, end, "static");
    }
    const harness = await this.#warmHarness();
    let reply: RunReply;
    try {
      reply = await harness.send(
        {
          op: "run",
          tests: tests ?? options.testFilter,
          activeMutant: options.activeMutant.id,
          hitLimit: options.hitLimit,
          bail: !options.disableBail,
        },
        Math.max(end - this.#loadMs, start + options.timeout / 2),
      ) as unknown as RunReply;
    } catch (error) {
      this.#replaceWarm(
        error instanceof Expired
          ? "timeout"
          : error instanceof Exited
          ? "the process died"
          : "the harness failed",
      );
      if (error instanceof Expired) {
        return TIMED_OUT;
      }
      if (error instanceof Exited) return killedByExit(harness, error);
      return {
        status: MutantRunStatus.Error,
        errorMessage: String((error as Error).message),
      };
    }
    if (reply.restoredGlobals.length) {
      this.#note("globals put back after a mutant");
      this.#log.debug(
        `Mutant ${options.activeMutant.id} left globals replaced: %s`,
        reply.restoredGlobals,
      );
    }
    if (reply.stuckGlobals.length) {
      this.#replaceWarm("a global could not be put back");
    }
    if (reply.polluted) {
      this.#replaceWarm("a test failed without the mutant too", false);
      return this.#runFresh(
        options,
        end,
        "a test failed without the mutant too",
      );
    }
    const result = this.#result(reply, options);
    if (result.status === MutantRunStatus.Survived && reply.hitCount === 0) {
      return this.#runFresh(options, end, "not reached in the warm process");
    }
    return result;
  }

  #result(reply: RunReply, options: MutantRunOptions): MutantRunResult {
    if (
      reply.hitCount !== undefined && options.hitLimit !== undefined &&
      reply.hitCount > options.hitLimit
    ) {
      return {
        status: MutantRunStatus.Timeout,
        reason: `Hit limit reached (${reply.hitCount}/${options.hitLimit})`,
      };
    }
    return toMutantRunResult(
      { status: DryRunStatus.Complete, tests: reply.tests.map(toTestResult) },
      options.disableBail,
    );
  }

  /** The mutant active from the first module load, every test, as `deno test` would run it. */
  async #runFresh(
    options: MutantRunOptions,
    end: number,
    why: string,
  ): Promise<MutantRunResult> {
    this.#note(`fresh process: ${why}`);
    this.#log.debug(
      `Mutant ${options.activeMutant.id} in a fresh process: ${why}`,
    );
    const harness = this.#fresh = this.#spawn();
    const files = this.#filesFor(options);
    try {
      await harness.send({
        op: "load",
        ...this.#load(files),
        activeMutant: options.activeMutant.id,
      }, end);
      // Every test of the files, as deno test would run them; a static
      // mutant in a single-module run keeps Stryker's filter.
      const reply = await harness.send({
        op: "run",
        tests: options.mutantActivation === "static" && !files ? options.testFilter : undefined,
        activeMutant: options.activeMutant.id,
        hitLimit: options.hitLimit,
        bail: !options.disableBail,
        verify: false,
      }, end) as unknown as RunReply;
      return this.#result(reply, options);
    } catch (error) {
      if (error instanceof Expired) {
        return TIMED_OUT;
      }
      if (error instanceof Exited) return killedByExit(harness, error);
      // A static mutant can break loading itself: that is a kill, as in deno test.
      return {
        status: MutantRunStatus.Killed,
        killedBy: [],
        failureMessage: String((error as Error).message).slice(0, 2000),
        nrOfTests: 0,
      };
    } finally {
      harness.kill();
      this.#fresh = undefined;
    }
  }

  #spawn(): Harness {
    const { deno, denoArgs } = this.#options;
    return new Harness(
      deno,
      [...denoArgs, `--config=${this.#cwd}/deno.json`],
      this.#cwd,
      this.#log,
    );
  }

  #load(files = this.#options.testFiles): Record<string, unknown> {
    return {
      namespace: INSTRUMENTER_CONSTANTS.NAMESPACE,
      files: files.map((file) => `${this.#cwd}/${file}`),
    };
  }

  /** The targeted test files of the mutant's module, in targets mode. */
  #filesFor(options: MutantRunOptions): string[] | undefined {
    if (!Object.keys(this.#options.targets).length) return undefined;
    const module = relative(this.#cwd, options.sandboxFileName).replaceAll(
      sep,
      "/",
    );
    return this.#options.targets[module] ?? [];
  }

  /** Of the given test ids (every test when none), those declared in the files. */
  #testsIn(files: string[], ids: string[] | undefined): string[] {
    const prefixes = files.map((file) => `${file} > `);
    return (ids ?? this.#testIds).filter((id) => prefixes.some((p) => id.startsWith(p)));
  }

  #warmHarness(): Promise<Harness> {
    this.#warm ??= (async () => {
      const harness = this.#spawn();
      try {
        const loaded = await harness.send({ op: "load", ...this.#load() });
        this.#loadMs = Number(loaded.ms) + 200;
        return harness;
      } catch (error) {
        harness.kill();
        this.#warm = undefined;
        throw error;
      }
    })();
    return this.#warm;
  }

  /** Drops the warm process; the next mutant uses (and may wait for) a new one. */
  #replaceWarm(why: string, now = true): void {
    if (!this.#warm) return;
    this.#note(`warm process replaced: ${why}`);
    const old = this.#warm;
    this.#warm = undefined;
    void old.then((harness) => harness.kill(), () => {});
    // Load the next one while Stryker reports this mutant (unless a fresh
    // process is about to load, competing for the same CPU).
    if (now) this.#warmHarness().catch(() => {});
  }

  #note(event: string): void {
    this.#events[event] = (this.#events[event] ?? 0) + 1;
  }

  async dispose(): Promise<void> {
    this.#fresh?.kill();
    const warm = this.#warm;
    this.#warm = undefined;
    await warm?.then((harness) => harness.kill(), () => {});
    if (Object.keys(this.#events).length) {
      this.#log.info(
        "Deno processes started besides the first: %s",
        JSON.stringify(this.#events),
      );
    }
  }
}

function toTestResult(outcome: Outcome): TestResult {
  const base = {
    id: outcome.id,
    name: outcome.id,
    fileName: outcome.fileName,
    timeSpentMs: Math.round(outcome.timeSpentMs),
  };
  if (outcome.status === "failed") {
    return {
      ...base,
      status: TestStatus.Failed,
      failureMessage: outcome.failureMessage ?? "",
    };
  }
  return {
    ...base,
    status: outcome.status === "skipped" ? TestStatus.Skipped : TestStatus.Success,
  };
}

export const strykerPlugins = [
  declareClassPlugin(PluginKind.TestRunner, "deno", DenoTestRunner),
];

export const strykerValidationSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "DenoRunnerOptions",
  type: "object",
  properties: {
    denoRunner: {
      type: "object",
      description: "The deno test runner (tools/mutation/deno_runner.ts)",
      properties: {
        testFiles: { type: "array", items: { type: "string" } },
        targets: {
          type: "object",
          additionalProperties: { type: "array", items: { type: "string" } },
        },
        denoArgs: { type: "array", items: { type: "string" } },
        deno: { type: "string" },
      },
      required: ["testFiles"],
      additionalProperties: false,
    },
  },
};
