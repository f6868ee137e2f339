/**
 * The configuration of the `AgentTest` harness: an `agentkit.test.json`
 * file, found in the working directory or named by `AGENTKIT_TEST_CONFIG`.
 *
 * @module
 */
import { zod } from "../../runtime/internal.ts";
import { cwdUrl, env, readTextIfExists, resolveSpecifier } from "../_env.ts";
import { nearest } from "../_validate.ts";
import type { EvaluationMode } from "./evaluation_result.ts";

/** The file name looked for in the working directory. */
export const TEST_CONFIG_FILE = "agentkit.test.json";

/** The environment variable that names a config file instead. */
export const TEST_CONFIG_ENV = "AGENTKIT_TEST_CONFIG";

/**
 * What `agentkit.test.json` may set; options passed in code win over it.
 *
 * @example
 * ```ts
 * import type { AgentTestConfig } from "@agentkit/testing/testing";
 * const config: AgentTestConfig = { mode: "score", evaluator: "levenshtein", threshold: 0.85 };
 * ```
 */
export interface AgentTestConfig {
  /** `"score"`, `"llm"` or `"fallback"`. */
  readonly mode?: EvaluationMode;
  /** `"quasiExact"`, `"levenshtein"`, or `"./module.ts#ExportName"`. */
  readonly evaluator?: string;
  /** The score needed to pass in score mode. */
  readonly threshold?: number;
  /** The judge's model port, as `"./module.ts#ExportName"`. */
  readonly judge?: string;
  /** The model the judge is asked as. */
  readonly judgeModel?: string;
  /** The judge's score needed to pass. */
  readonly judgeThreshold?: number;
}

/**
 * A loaded configuration and where relative specifiers in it resolve from.
 *
 * @example
 * ```ts
 * import type { LoadedTestConfig } from "@agentkit/testing/testing";
 * const loaded: LoadedTestConfig = { config: {}, base: new URL("file:///work/") };
 * ```
 */
export interface LoadedTestConfig {
  /** The settings. */
  readonly config: AgentTestConfig;
  /** The folder of the file (or the working directory). */
  readonly base: URL;
  /** The file read, if any. */
  readonly source?: string;
}

/** Options for {@linkcode loadTestConfig}. */
export interface LoadTestConfigOptions {
  /**
   * Read this file instead of looking (relative to the working directory).
   * @default {the file named by AGENTKIT_TEST_CONFIG, else ./agentkit.test.json if present}
   */
  readonly path?: string;
}

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const schema = z.strictObject({
    mode: z.enum(["score", "llm", "fallback"]).optional(),
    evaluator: z.string().min(1).optional(),
    threshold: z.number().min(0).max(1).optional(),
    judge: z.string().min(1).optional(),
    judgeModel: z.string().min(1).optional(),
    judgeThreshold: z.number().min(0).max(1).optional(),
  });
  const KEYS = Object.keys(schema.shape);
  return { schema, KEYS };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

/**
 * Finds and reads the harness configuration: the file `path` names, else the
 * file `AGENTKIT_TEST_CONFIG` names (which must exist), else
 * `agentkit.test.json` in the working directory if there is one, else
 * nothing. The file is validated: an unknown key names the nearest valid one.
 *
 * @param options An explicit path.
 * @returns The configuration and its base folder.
 * @throws {TypeError} When a named file is missing or the file is invalid.
 *
 * @example
 * ```ts
 * import { loadTestConfig } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/agentkit.test.json`, JSON.stringify({ mode: "score", treshold: 0.9 }));
 * await assertRejects(() => loadTestConfig({ path: `${dir}/agentkit.test.json` }), TypeError, 'did you mean "threshold"?');
 * await Deno.writeTextFile(`${dir}/agentkit.test.json`, JSON.stringify({ mode: "score" }));
 * assertEquals((await loadTestConfig({ path: `${dir}/agentkit.test.json` })).config, { mode: "score" });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadTestConfig(
  options: LoadTestConfigOptions = {},
): Promise<LoadedTestConfig> {
  const cwd = cwdUrl();
  const named = options.path ?? env(TEST_CONFIG_ENV);
  const url = named ? resolveSpecifier(named, cwd) : new URL(TEST_CONFIG_FILE, cwd);
  if (typeof url === "string") {
    throw new TypeError(`Cannot read the test config "${named}": give a file path`);
  }
  const text = await readTextIfExists(url);
  if (text === undefined) {
    if (named) {
      throw new TypeError(
        `Cannot read the test config ${url.pathname}${
          options.path ? "" : ` (named by ${TEST_CONFIG_ENV})`
        }: the file does not exist`,
      );
    }
    return { config: {}, base: cwd };
  }
  const where = url.pathname;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TypeError(`Cannot read the test config ${where}: ${(error as Error).message}`);
  }
  const r = schemas().schema.safeParse(raw);
  if (!r.success) {
    const parts = r.error.issues.flatMap((issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys.map((k) => {
          const near = nearest(k, schemas().KEYS);
          return `unknown key "${k}"${near ? `; did you mean "${near}"?` : ""}`;
        })
        : [`${issue.path.join(".") || "the file"}: ${issue.message}`]
    );
    throw new TypeError(`Invalid test config ${where}: ${parts.join("; ")}`);
  }
  return { config: r.data, base: new URL(".", url), source: where };
}
