// The error FakeLLM.auto() raises when a schema asks for more work than it
// will do: a test double must fail at once with a reason, never freeze or
// exhaust memory where no test timeout can fire.
import { InvalidScript } from "../errors.ts";

/** One bound a schema went over: which keyword, where, how much, and the limit. */
export interface SchemaLimit {
  /** The keyword that asked for too much (`"minLength"`, `"minItems"`, `"anyOf"`). */
  readonly keyword: string;
  /** The JSON pointer of the schema part that holds it (`#/properties/name`). */
  readonly path: string;
  /** How much it asked for (at least this much). */
  readonly value: number;
  /** The most FakeLLM.auto will generate or spend. */
  readonly limit: number;
  /** What is counted (`"characters in one string"`, `"steps of work"`). */
  readonly measure: string;
}

/**
 * A schema given to `FakeLLM.auto` asks for more than it generates: a string
 * longer than 10,000 characters, more than 1,000 items or properties, more
 * than 100 levels of nesting, a schema of more than 50,000 values, or more
 * than 100,000 steps of work (a schema whose branches multiply). Raised at
 * once, before any memory is spent, and an `InvalidScript`, so it escapes
 * every catch in the runtime like the other "the test itself is wrong"
 * errors.
 *
 * @example A string no test needs
 * ```ts
 * import { FakeLLM, SchemaLimitExceeded } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const llm = FakeLLM.auto();
 * const error = await assertRejects(
 *   () =>
 *     llm.chat({
 *       model: "m",
 *       messages: [{ role: "user", content: "write" }],
 *       settings: { jsonSchema: { type: "string", minLength: 1e9 } },
 *     }),
 *   SchemaLimitExceeded,
 * );
 * assertEquals([error.keyword, error.path, error.value, error.limit], ["minLength", "#", 1e9, 10000]);
 * ```
 */
export class SchemaLimitExceeded extends InvalidScript {
  /** The keyword that asked for too much. */
  readonly keyword: string;
  /** The JSON pointer of the schema part that holds it. */
  readonly path: string;
  /** How much it asked for. */
  readonly value: number;
  /** The limit it went over. */
  readonly limit: number;
  /** What is counted. */
  readonly measure: string;

  /**
   * The message names the keyword, the path, the value and the limit, and
   * says what to do.
   *
   * @param limit The bound that was exceeded.
   * @param subject What was being generated (`arguments for tool "search"`), when known.
   * @param options The cause, if any.
   */
  constructor(limit: SchemaLimit, subject?: string, options?: ErrorOptions) {
    super(
      `${subject ? `FakeLLM.auto cannot generate ${subject}: ` : ""}at ${limit.path}, ${
        JSON.stringify(limit.keyword)
      } needs at least ${limit.value} ${limit.measure}, above FakeLLM.auto's limit of ${limit.limit}; lower it in the schema, or script this call with FakeLLM.script`,
      options,
    );
    this.keyword = limit.keyword;
    this.path = limit.path;
    this.value = limit.value;
    this.limit = limit.limit;
    this.measure = limit.measure;
  }
}
