/**
 * Structured output: an agent whose answer is JSON checked against a schema.
 *
 * @module
 */
import type { z } from "zod";
import { zod } from "./_lazy/zod.ts";
import type { JsonSchema } from "../ports/tool_spec.ts";

/**
 * A schema an agent's answer must satisfy: a zod schema (what
 * `new Agent(name, { model, output })` takes). `T` is what `result.data` is.
 *
 * @example
 * ```ts
 * import type { OutputSchema } from "@agentkit/testing/runtime";
 * import { z } from "zod";
 *
 * const verdict: OutputSchema<{ cause: string }> = z.object({ cause: z.string() });
 * ```
 */
export interface OutputSchema<T> {
  /** Validates a parsed answer. */
  safeParse(
    value: unknown,
  ):
    | { readonly success: true; readonly data: T }
    | { readonly success: false; readonly error: { readonly issues: readonly OutputIssue[] } };
}

/**
 * One problem with an answer, as zod reports it: where (`path`) and what.
 *
 * @example
 * ```ts
 * import type { OutputIssue } from "@agentkit/testing/runtime";
 * const issue: OutputIssue = { path: ["cause"], message: "Invalid input: expected string" };
 * ```
 */
export interface OutputIssue {
  /** Where in the answer (empty for the whole answer). */
  readonly path: readonly PropertyKey[];
  /** What is wrong. */
  readonly message: string;
  /** zod's code for it, when there is one. */
  readonly code?: string;
}

/**
 * The agent's answer did not satisfy its output schema, even after the
 * model was shown what was wrong once. `issues` are the problems with the
 * last answer (zod's issues; a single `invalid_json` issue when it was not
 * JSON) and `raw` is that answer as the model gave it.
 *
 * @example
 * ```ts
 * import { Agent, InvalidOutput } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { z } from "zod";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const agent = new Agent("triage", { model: "fake-model", output: z.object({ severity: z.number() }) });
 * const llm = FakeLLM.script(['{"severity":"high"}', '{"severity":"very high"}']);
 * const error = await assertRejects(() => agent.run("rate it", makeTestCtx({ llm })), InvalidOutput);
 * assertEquals([error.raw, error.issues[0].path], ['{"severity":"very high"}', ["severity"]]);
 * ```
 */
export class InvalidOutput extends Error {
  /** The problems with the last answer. */
  readonly issues: readonly OutputIssue[];
  /** The last answer, as the model gave it. */
  readonly raw: string;
  /** The agent. */
  readonly agent: string;

  /**
   * The message shows the schema's complaints and a preview of the answer.
   *
   * @param agent The agent's name.
   * @param raw The last answer.
   * @param issues What is wrong with it.
   * @param attempts How many answers were checked.
   */
  constructor(agent: string, raw: string, issues: readonly OutputIssue[], attempts: number) {
    const stopped = issues.length === 1 &&
      (issues[0].code === "refused" || issues[0].code === "truncated");
    super(
      stopped
        ? `Agent "${agent}" got no answer its schema could check after ${attempts} attempt(s): ${
          issues[0].message
        }; the answer was ${preview(raw)}`
        : `Agent "${agent}" answered with output that does not match its schema after ${attempts} attempt(s): ${
          formatIssues(issues)
        }; the answer was ${preview(raw)}. Fix the prompt or the schema, or script a valid answer`,
    );
    this.name = "InvalidOutput";
    this.agent = agent;
    this.raw = raw;
    this.issues = issues;
  }
}

/** An agent's output schema, ready: the JSON Schema to send and the check. */
export interface PreparedOutput<T> {
  /** What the request's `settings.jsonSchema` carries. */
  readonly jsonSchema: JsonSchema;
  /** The name sent as `settings.jsonSchemaName`. */
  readonly name: string;
  /**
   * Parses and validates an answer. `finishReason` is how the model's last
   * message ended: an answer that fails the check after a refusal
   * (`content_filter`) or a cut at the token limit (`length`) gets one issue
   * saying so (code `refused` or `truncated`), not "not JSON".
   */
  check(
    raw: string,
    finishReason?: string,
  ): { ok: true; data: T } | { ok: false; issues: readonly OutputIssue[] };
}

// Why an answer that ended this way does not parse: the model did not
// write bad JSON, it was stopped (or stopped itself) before writing any.
const ENDED: Readonly<Record<string, OutputIssue>> = {
  content_filter: {
    path: [],
    code: "refused",
    message:
      'the model refused to answer (finishReason "content_filter"): the answer was withheld or replaced by its content filter, so there was no JSON to check; change the task, or handle the refusal',
  },
  length: {
    path: [],
    code: "truncated",
    message:
      'the answer was cut at the token limit (finishReason "length") before its JSON was complete; raise maxTokens, or ask for a shorter answer',
  },
};

/**
 * Converts the schema once, when the agent is built.
 *
 * @param schema The zod schema.
 * @param agent The agent's name, for messages.
 * @returns The prepared output.
 * @throws {TypeError} When `schema` is not a zod schema that converts to JSON Schema.
 */
export function prepareOutput<T>(schema: OutputSchema<T>, agent: string): PreparedOutput<T> {
  if (typeof (schema as { safeParse?: unknown } | null)?.safeParse !== "function") {
    throw new TypeError(
      `Cannot build agent "${agent}": output must be a zod schema (z.object({...})), got ${
        schema === null ? "null" : typeof schema
      }`,
    );
  }
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = zod().toJSONSchema(schema as unknown as z.ZodType) as JsonSchema;
  } catch (error) {
    throw new TypeError(
      `Cannot build agent "${agent}": its output schema has no JSON Schema form (${
        (error as Error).message
      }); use JSON-representable types (no transforms, functions or dates)`,
      { cause: error },
    );
  }
  return {
    jsonSchema,
    name: `${agent.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "output"}`,
    check(raw: string, finishReason?: string) {
      const ended = finishReason === undefined ? undefined : ENDED[finishReason];
      let value: unknown;
      try {
        value = JSON.parse(stripFence(raw));
      } catch (error) {
        if (ended) return { ok: false, issues: [ended] };
        return {
          ok: false,
          issues: [{
            path: [],
            code: "invalid_json",
            message: `not JSON (${(error as Error).message})`,
          }],
        };
      }
      const r = schema.safeParse(value);
      if (r.success) return { ok: true, data: r.data };
      return { ok: false, issues: ended ? [ended] : r.error.issues };
    },
  };
}

/** The message that shows the model what was wrong with its answer. */
export function reflection(issues: readonly OutputIssue[]): string {
  return `Your answer does not match the required JSON schema: ${
    formatIssues(issues)
  }. Answer again with only a JSON value that matches the schema.`;
}

function formatIssues(issues: readonly OutputIssue[]): string {
  return issues.map((i) =>
    `${i.path.length ? i.path.map(String).join(".") : "(root)"}: ${i.message}`
  ).join("; ");
}

// A model that wraps its JSON in a ```json fence still answered JSON.
function stripFence(raw: string): string {
  const m = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(raw);
  return m ? m[1] : raw;
}

function preview(raw: string): string {
  return JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}...` : raw);
}
