// The answering rule of FakeLLM.auto(): like pydantic-ai's TestModel, call
// the offered tools with generated arguments, then answer.
import type { Message, ToolCall } from "../../ports/message.ts";
import type { JsonSchema, ToolSpec } from "../../ports/tool_spec.ts";
import { InvalidScript } from "../errors.ts";
import type { Turn } from "./turn.ts";
import { sample, SchemaUnsatisfiable } from "./_schema_sample.ts";
import { SchemaLimitExceeded } from "./schema_limit_exceeded.ts";

/** What the rule reads from a request. */
export interface AutoRequest {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSpec[];
  readonly jsonSchema?: JsonSchema;
}

/** The rule's settings: a fixed answer, and which tools to call. */
export interface AutoRule {
  readonly answer?: string;
  readonly tools?: readonly string[];
}

/**
 * The turn for one request: tool calls when this run of the conversation
 * has not called tools yet and there are tools to call; otherwise the answer
 * (schema-valid JSON when the request asks for JSON).
 */
export function autoTurn(rule: AutoRule, request: AutoRequest): Turn {
  const since = afterLastUser(request.messages);
  const results = since.filter((m) => m.role === "tool");
  const called = since.some((m) => m.role === "assistant" && m.toolCalls?.length);
  if (!called) {
    const tools = chosen(rule, request.tools);
    if (tools.length) {
      return {
        toolCalls: tools.map((t, i): ToolCall => ({
          id: `auto_${i + 1}`,
          name: t.name,
          args: toolArgs(t),
        })),
      };
    }
  }
  if (rule.answer !== undefined) return { content: rule.answer };
  if (request.jsonSchema !== undefined) {
    try {
      return { content: JSON.stringify(sample(request.jsonSchema)) };
    } catch (error) {
      if (error instanceof SchemaUnsatisfiable) {
        throw new InvalidScript(
          `FakeLLM.auto cannot answer with JSON for the output schema: ${error.message}; pass { answer } with valid JSON`,
        );
      }
      throw named(error, "JSON for the output schema");
    }
  }
  return { content: summary(since, results) };
}

function afterLastUser(messages: readonly Message[]): readonly Message[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "user") return messages.slice(i + 1);
  }
  return messages;
}

function chosen(rule: AutoRule, offered: readonly ToolSpec[]): readonly ToolSpec[] {
  if (!rule.tools) return offered;
  const names = offered.map((t) => t.name);
  for (const name of rule.tools) {
    if (!names.includes(name)) {
      throw new InvalidScript(
        `FakeLLM.auto was told to call tool "${name}", but the request offers ${
          names.length ? names.map((n) => `"${n}"`).join(", ") : "no tools"
        }; give the agent that tool or drop it from { tools }`,
      );
    }
  }
  return offered.filter((t) => rule.tools!.includes(t.name));
}

/** Arguments for `tool` from its schema, or an error naming the tool and the path. */
export function toolArgs(tool: ToolSpec): Record<string, unknown> {
  const schema = tool.parameters ?? { type: "object" };
  let args: unknown;
  try {
    args = sample(schema);
  } catch (error) {
    if (error instanceof SchemaUnsatisfiable) {
      throw new InvalidScript(
        `FakeLLM.auto cannot generate arguments for tool "${tool.name}": its parameters schema, ${error.message}; fix the schema or script that call with FakeLLM.script`,
        { cause: error },
      );
    }
    throw named(error, `arguments for tool "${tool.name}"`);
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new InvalidScript(
      `FakeLLM.auto cannot call tool "${tool.name}": its parameters schema describes ${
        JSON.stringify(args)
      }, not an object of arguments`,
    );
  }
  return args as Record<string, unknown>;
}

// A limit error says what was being generated; others pass as they are.
function named(error: unknown, subject: string): unknown {
  return error instanceof SchemaLimitExceeded
    ? new SchemaLimitExceeded(error, subject, { cause: error })
    : error;
}

// `{"lookup":{...},"search":[...]}`: each tool's result by name, parsed when JSON.
function summary(since: readonly Message[], results: readonly Message[]): string {
  if (results.length === 0) return "success (no tool calls)";
  const names = new Map<string, string>();
  for (const m of since) for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
  const out: Record<string, unknown> = {};
  for (const r of results) {
    const name = names.get(r.toolCallId ?? "") ?? r.toolCallId ?? "tool";
    let value: unknown = r.content;
    try {
      value = JSON.parse(r.content);
    } catch {
      // Plain text stays text.
    }
    out[name] = r.isError ? { error: value } : value;
  }
  return JSON.stringify(out);
}
