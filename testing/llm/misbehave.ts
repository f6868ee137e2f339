/**
 * Turns for the ways real models go wrong.
 *
 * @module
 */
import type { ToolCall } from "../../ports/message.ts";
import { jsonProblem } from "../_json_value.ts";
import { describe } from "../../runtime/internal.ts";
import { mark, markOf, type Misbehaviour } from "./_misbehaviour_mark.ts";
import type { Turn } from "./turn.ts";

export type { Misbehaviour } from "./_misbehaviour_mark.ts";

/**
 * The builders of {@linkcode misbehave}.
 *
 * @example
 * ```ts
 * import { type Misbehave, misbehave } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const builders: Misbehave = misbehave;
 * assertEquals(builders.emptyAnswer().content, "");
 * ```
 */
export interface Misbehave {
  /**
   * A call to `name` whose arguments are not JSON: the raw text is what the
   * provider sends (`function.arguments`, an `input_json_delta`).
   *
   * @param name The tool the model calls.
   * @param raw The argument text, not a JSON object (default `{"query": "unterminated`).
   * @returns The turn.
   * @throws {TypeError} For a name that is not a non-empty string, or a raw that is a JSON object.
   *
   * @example The tool never runs; the model is told why
   * ```ts
   * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
   * import { FakeLLM, FakeTool, makeTestCtx, misbehave } from "@agentkit/testing/testing";
   * import { assertEquals, assertStringIncludes } from "@std/assert";
   *
   * const lookup = new FakeTool({ name: "lookup", responder: "found" });
   * const llm = FakeLLM.script([misbehave.invalidToolJson("lookup"), "Sorry, retrying later."]);
   * const agent = new Agent("a", { model: "m", cognition: new ReActCognition({ tools: [lookup] }) });
   * await agent.run("go", makeTestCtx({ llm }));
   * assertEquals(lookup.calls, []);
   * assertStringIncludes(llm.requests[1].messages.at(-1)!.content, "not valid JSON");
   * ```
   */
  invalidToolJson(name: string, raw?: string): Turn;
  /**
   * A call to `name` with arguments that are JSON but break the tool's schema.
   *
   * @param name The tool the model calls.
   * @param args The arguments (plain JSON data the schema refuses).
   * @returns The turn.
   * @throws {TypeError} For a bad name, or args that are not a plain JSON object.
   *
   * @example
   * ```ts
   * import { misbehave } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const turn = misbehave.schemaViolatingArgs("lookup", { host: 42 });
   * assertEquals(turn.toolCalls?.[0].args, { host: 42 });
   * ```
   */
  schemaViolatingArgs(name: string, args: Record<string, unknown>): Turn;
  /**
   * A call to a tool the request did not offer (played even under
   * `strictTools`: calling it is the point).
   *
   * @param name The name the model makes up (default `"no_such_tool"`).
   * @returns The turn.
   * @throws {TypeError} For a name that is not a non-empty string.
   *
   * @example
   * ```ts
   * import { misbehave } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * assertEquals(misbehave.unknownTool().toolCalls?.[0].name, "no_such_tool");
   * ```
   */
  unknownTool(name?: string): Turn;
  /**
   * `n` calls to `name` in one turn that all carry the same call id.
   *
   * @param name The tool the model calls.
   * @param n How many calls, 2 to 100 (default 2).
   * @returns The turn.
   * @throws {TypeError} For a bad name or an n out of range.
   *
   * @example
   * ```ts
   * import { misbehave } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const ids = misbehave.duplicateCallIds("lookup", 3).toolCalls?.map((c) => c.id);
   * assertEquals(ids, ["call_dup", "call_dup", "call_dup"]);
   * ```
   */
  duplicateCallIds(name: string, n?: number): Turn;
  /**
   * The token limit hit in the middle of a call to `name`: finish `"length"`,
   * with the call's arguments cut off.
   *
   * @param name The tool the model was calling.
   * @returns The turn.
   * @throws {TypeError} For a name that is not a non-empty string.
   *
   * @example
   * ```ts
   * import { misbehave } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const turn = misbehave.lengthMidToolCall("lookup");
   * assertEquals([turn.finishReason, turn.toolCalls?.[0].rawArgs], ["length", '{"query": "the weat']);
   * ```
   */
  lengthMidToolCall(name: string): Turn;
  /**
   * An answer with no text and no tool calls, finishing `"stop"`.
   *
   * @returns The turn.
   *
   * @example
   * ```ts
   * import { misbehave } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * assertEquals(misbehave.emptyAnswer(), { content: "", finishReason: "stop" });
   * ```
   */
  emptyAnswer(): Turn;
  /**
   * The model declines to answer: OpenAI's `refusal` field, Anthropic's
   * `stop_reason: "refusal"` (finish `"content_filter"` on the port).
   *
   * @param text What the model says instead (default `"I'm sorry, but I can't help with that."`).
   * @returns The turn.
   * @throws {TypeError} For a text that is not a non-empty string.
   *
   * @example
   * ```ts
   * import { FakeLLM, misbehave } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const res = await FakeLLM.script([misbehave.refusal()]).chat({ model: "m", messages: [] });
   * assertEquals([res.refusal, res.finishReason], [true, "content_filter"]);
   * ```
   */
  refusal(text?: string): Turn;
  /**
   * The provider's content filter withheld the answer: finish
   * `"content_filter"` with no text.
   *
   * @returns The turn.
   *
   * @example
   * ```ts
   * import { misbehave } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * assertEquals(misbehave.contentFilter().finishReason, "content_filter");
   * ```
   */
  contentFilter(): Turn;
  /**
   * The model thinks and never answers: reasoning, no text, no tool calls.
   *
   * @param text The thinking (a sentence about picking a tool, by default).
   * @returns The turn.
   * @throws {TypeError} For a text that is not a non-empty string.
   *
   * @example
   * ```ts
   * import { FakeLLM, misbehave } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const res = await FakeLLM.script([misbehave.reasoningOnly("Hmm.")]).chat({ model: "m", messages: [] });
   * assertEquals([res.content, res.reasoning], ["", "Hmm."]);
   * ```
   */
  reasoningOnly(text?: string): Turn;
  /**
   * A tool call with no name (Gemini's `MALFORMED_FUNCTION_CALL`).
   *
   * @returns The turn.
   *
   * @example
   * ```ts
   * import { misbehave } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * assertEquals(misbehave.malformedToolCall().toolCalls?.[0].name, "");
   * ```
   */
  malformedToolCall(): Turn;
}

/**
 * A builder's name: a fault kind for `chaos()`.
 *
 * @example
 * ```ts
 * import { misbehave, type MisbehaviourKind } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const kind: MisbehaviourKind = "contentFilter";
 * assertEquals(misbehave[kind]().finishReason, "content_filter");
 * ```
 */
export type MisbehaviourKind = keyof Misbehave;

/**
 * Every builder's name, in the order of SPEC §18.
 *
 * @example
 * ```ts
 * import { MISBEHAVIOUR_KINDS } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(MISBEHAVIOUR_KINDS.length, 10);
 * ```
 */
export const MISBEHAVIOUR_KINDS: readonly MisbehaviourKind[] = Object.freeze([
  "invalidToolJson",
  "schemaViolatingArgs",
  "unknownTool",
  "duplicateCallIds",
  "lengthMidToolCall",
  "emptyAnswer",
  "refusal",
  "contentFilter",
  "reasoningOnly",
  "malformedToolCall",
]);

const DEFAULT_RAW = '{"query": "unterminated';
const CUT_RAW = '{"query": "the weat';
const DEFAULT_REFUSAL = "I'm sorry, but I can't help with that.";
const DEFAULT_REASONING = "The user wants an answer. Let me think about which tool to use first.";

function at(kind: string, count: number, max: number): void {
  if (count > max) {
    throw new TypeError(
      `misbehave.${kind}() takes at most ${max} argument(s), got ${count}`,
    );
  }
}

function text(kind: string, param: string, value: unknown, what: string): string {
  if (typeof value !== "string" || value === "") {
    throw new TypeError(
      `misbehave.${kind}(): ${param} must be ${what} (a non-empty string), got ${describe(value)}`,
    );
  }
  return value;
}

const toolName = (kind: string, value: unknown): string =>
  text(kind, "name", value, "the tool's name");

function calls(...list: ToolCall[]): ToolCall[] {
  return list;
}

/**
 * `Turn` builders for the ways real models go wrong, each served by
 * `FakeLLM`, by every `FakeProvider` wire (as that provider encodes it) and
 * by `aiSdkModel`. Put them in a script like any turn; `chaos()` injects
 * them by kind. docs/misbehave.md shows what the runtime does with each.
 *
 * @example An unknown tool, then a nameless one: both reflected back to the model
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { FakeLLM, FakeTool, makeTestCtx, misbehave } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const lookup = new FakeTool({ name: "lookup", responder: "found" });
 * using llm = FakeLLM.script([misbehave.unknownTool("lookpu"), misbehave.malformedToolCall(), "Done."]);
 * const agent = new Agent("a", { model: "m", cognition: new ReActCognition({ tools: [lookup] }) });
 * const result = await agent.run("go", makeTestCtx({ llm }));
 * assertEquals([result.output, result.stopReason], ["Done.", "stop"]);
 * const errors = result.messages.filter((m) => m.role === "tool").map((m) => m.isError);
 * assertEquals(errors, [true, true]);
 * ```
 */
export const misbehave: Misbehave = Object.freeze({
  invalidToolJson(name: string, raw: string = DEFAULT_RAW, ...rest: unknown[]): Turn {
    at("invalidToolJson", 2 + rest.length, 2);
    toolName("invalidToolJson", name);
    if (typeof raw !== "string") {
      throw new TypeError(
        `misbehave.invalidToolJson(): raw must be the argument text (a string), got ${
          describe(raw)
        }`,
      );
    }
    if (isJsonObject(raw)) {
      throw new TypeError(
        `misbehave.invalidToolJson(): raw ${
          JSON.stringify(raw)
        } is a valid JSON object; give text that is not one (truncated, malformed), or script valid arguments with toolCall()`,
      );
    }
    const args = raw === DEFAULT_RAW ? [name] : [name, raw];
    return mark(
      { toolCalls: calls({ id: "call_invalid_json", name, args: {}, rawArgs: raw }) },
      "invalidToolJson",
      args,
    );
  },
  schemaViolatingArgs(name: string, args: Record<string, unknown>, ...rest: unknown[]): Turn {
    at("schemaViolatingArgs", 2 + rest.length, 2);
    toolName("schemaViolatingArgs", name);
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      throw new TypeError(
        `misbehave.schemaViolatingArgs(): args must be the arguments object the tool's schema refuses, got ${
          describe(args)
        }`,
      );
    }
    const problem = jsonProblem(args, "args");
    if (problem) throw new TypeError(`misbehave.schemaViolatingArgs(): ${problem}`);
    const copy = structuredClone(args);
    return mark(
      { toolCalls: calls({ id: "call_schema_violation", name, args: copy }) },
      "schemaViolatingArgs",
      [name, copy],
    );
  },
  unknownTool(name: string = "no_such_tool", ...rest: unknown[]): Turn {
    at("unknownTool", 1 + rest.length, 1);
    toolName("unknownTool", name);
    return mark(
      { toolCalls: calls({ id: "call_unknown_tool", name, args: {} }) },
      "unknownTool",
      name === "no_such_tool" ? [] : [name],
    );
  },
  duplicateCallIds(name: string, n: number = 2, ...rest: unknown[]): Turn {
    at("duplicateCallIds", 2 + rest.length, 2);
    toolName("duplicateCallIds", name);
    if (!Number.isInteger(n) || n < 2 || n > 100) {
      throw new TypeError(
        `misbehave.duplicateCallIds(): n must be how many calls share the id (an integer from 2 to 100), got ${
          describe(n)
        }`,
      );
    }
    const list: ToolCall[] = [];
    for (let i = 0; i < n; i++) list.push({ id: "call_dup", name, args: {} });
    return mark({ toolCalls: list }, "duplicateCallIds", n === 2 ? [name] : [name, n]);
  },
  lengthMidToolCall(name: string, ...rest: unknown[]): Turn {
    at("lengthMidToolCall", 1 + rest.length, 1);
    toolName("lengthMidToolCall", name);
    return mark(
      {
        toolCalls: calls({ id: "call_cut", name, args: {}, rawArgs: CUT_RAW }),
        finishReason: "length",
      },
      "lengthMidToolCall",
      [name],
    );
  },
  emptyAnswer(...rest: unknown[]): Turn {
    at("emptyAnswer", rest.length, 0);
    return mark({ content: "", finishReason: "stop" }, "emptyAnswer", []);
  },
  refusal(said: string = DEFAULT_REFUSAL, ...rest: unknown[]): Turn {
    at("refusal", 1 + rest.length, 1);
    text("refusal", "text", said, "what the model says instead");
    return mark({ refusal: said }, "refusal", said === DEFAULT_REFUSAL ? [] : [said]);
  },
  contentFilter(...rest: unknown[]): Turn {
    at("contentFilter", rest.length, 0);
    return mark({ content: "", finishReason: "content_filter" }, "contentFilter", []);
  },
  reasoningOnly(thought: string = DEFAULT_REASONING, ...rest: unknown[]): Turn {
    at("reasoningOnly", 1 + rest.length, 1);
    text("reasoningOnly", "text", thought, "the model's thinking");
    return mark(
      { content: "", reasoning: thought, finishReason: "stop" },
      "reasoningOnly",
      thought === DEFAULT_REASONING ? [] : [thought],
    );
  },
  malformedToolCall(...rest: unknown[]): Turn {
    at("malformedToolCall", rest.length, 0);
    return mark(
      { toolCalls: calls({ id: "call_malformed", name: "", args: {} }) },
      "malformedToolCall",
      [],
    );
  },
});

/**
 * What a turn is, when {@linkcode misbehave} built it: its kind and the
 * source text that builds it again (for a reproduction). A copy of the turn
 * is an ordinary turn.
 *
 * @param turn Any turn.
 * @returns Its kind and source, or undefined.
 *
 * @example
 * ```ts
 * import { misbehave, misbehaviourOf } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(misbehaviourOf(misbehave.invalidToolJson("lookup")), {
 *   kind: "invalidToolJson",
 *   source: 'misbehave.invalidToolJson("lookup")',
 * });
 * assertEquals(misbehaviourOf({ content: "hi" }), undefined);
 * ```
 */
export function misbehaviourOf(turn: Turn | string): Misbehaviour | undefined {
  return markOf(turn);
}

function isJsonObject(raw: string): boolean {
  try {
    const v: unknown = JSON.parse(raw);
    return v !== null && typeof v === "object" && !Array.isArray(v);
  } catch {
    return false;
  }
}
