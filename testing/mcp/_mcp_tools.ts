// A FakeMcpServer tool as declared, checked where it is declared: its
// schemas (zod, a zod raw shape, or JSON Schema), its result (a value, a
// function, or a script of steps), and the step vocabulary of faults.
// Conversion of a value into MCP's CallToolResult lives here too, so every
// transport answers alike.
import { validate } from "@cfworker/json-schema";
import type { z } from "zod";
import { zod } from "../../runtime/internal.ts";
import type { ParseSchema } from "../../ports/tool.ts";
import { checkValue, describe, editDistance, is, nearest } from "../../runtime/internal.ts";
import { InvalidScript } from "../errors.ts";
import { toolParameters } from "../tools/_tool_parameters.ts";

/** One progress notification: a number, or the notification's fields. */
export type FakeMcpProgress = number | {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
};

/**
 * A scripted fault or delay; it may carry the `result` it ends with. Keys
 * combine: the call waits on `gate`, sends `progress`, waits `latencyMs`,
 * then answers.
 */
export interface FakeMcpStep {
  /** A tool-level error: `{ isError: true, content: [{ type: "text", text }] }`. */
  readonly isError?: true;
  /** The error text of `isError`. */
  readonly text?: string;
  /** A JSON-RPC error answer instead of a result. */
  readonly rpcError?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** Waits this long on the server's clock before answering; a cancellation ends the wait. */
  readonly latencyMs?: number;
  /** Holds the answer until this settles (a rejection is an `isError` result); a cancellation ends the wait. */
  readonly gate?: PromiseLike<unknown>;
  /** The transport closes mid-call: no answer. */
  readonly disconnect?: true;
  /** Progress notifications, sent when the client's request carried a progress token. */
  readonly progress?: readonly FakeMcpProgress[];
  /** The wait between two progress notifications, on the clock; overrides the server's. */
  readonly progressIntervalMs?: number;
  /** What the call answers after the waits (a value, as a tool's `result`). */
  readonly result?: unknown;
}

/** A log level of MCP's `logging/setLevel` and `notifications/message` (RFC 5424's, least severe first). */
export type FakeMcpLogLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** What a tool function is told about its call. */
export interface FakeMcpToolCall {
  /** The tool's name. */
  readonly tool: string;
  /** The 1-based number of this call among the tool's calls. */
  readonly number: number;
  /** Aborts when the client cancels the request (`notifications/cancelled`). */
  readonly signal: AbortSignal;
  /** The client's progress token, when it asked for progress. */
  readonly progressToken: string | number | undefined;
  /**
   * Sends `notifications/message` during the call (the server needs
   * `logging: true`); a message below the level the client set with
   * `logging/setLevel` is not sent.
   */
  log(level: FakeMcpLogLevel, data: unknown, logger?: string): void;
  /**
   * Asks the client for a model completion (`sampling/createMessage`) and
   * returns its result; rejects with `McpClientCapabilityMissing` when the
   * client did not declare `sampling`, `McpClientRequestFailed` when it
   * answered an error.
   */
  sample(params: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
  /**
   * Asks the client's user (`elicitation/create`, form mode by default:
   * `{ message, requestedSchema }` with the primitive properties, defaults
   * and enums of the 2025-11-25 specification) and returns the answer,
   * `{ action: "accept" | "decline" | "cancel", content? }`; rejects as
   * `sample()` does.
   */
  elicit(params: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
}

/** A tool answer computed per call; it may return a value, a step, or a promise of one. */
export type FakeMcpToolFunction = (
  args: Record<string, unknown>,
  call: FakeMcpToolCall,
) => unknown;

const STEP_KEYS = [
  "isError",
  "text",
  "rpcError",
  "latencyMs",
  "gate",
  "disconnect",
  "progress",
  "progressIntervalMs",
  "result",
];
// The keys that make an object a step rather than a structured result.
const FAULT_KEYS = ["isError", "rpcError", "latencyMs", "gate", "disconnect", "progress"];

/** A checked step. */
export interface Step {
  readonly isError?: string;
  readonly rpcError?: { readonly code: number; readonly message: string; readonly data?: unknown };
  readonly latencyMs?: number;
  readonly gate?: PromiseLike<unknown>;
  readonly disconnect?: true;
  readonly progress?: readonly Exclude<FakeMcpProgress, number>[];
  readonly progressIntervalMs?: number;
  readonly result?: unknown;
}

// A key this close to a fault key ("latencyMS", "is_error", "latncyMs") is
// a mistyped step, not structured content: case, "_" and "-" aside, at most
// one edit away.
function nearFault(key: string): boolean {
  const n = key.toLowerCase().replace(/[_-]/g, "");
  return FAULT_KEYS.some((k) => {
    const f = k.toLowerCase();
    return f === n || (n.length >= 4 && editDistance(f, n) <= 1);
  });
}

/**
 * Whether `value` is a step: an object with one of the fault keys, or a
 * near miss of one (so that `{ latencyMS: 5000 }` is an `InvalidScript`,
 * not a structured result). A raw result (`{ content: [...], isError? }`)
 * is not a step.
 */
export function isStep(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  if (isRawResult(value)) return false;
  for (const key of FAULT_KEYS) if (key in value) return true;
  for (const key of Object.keys(value)) if (!STEP_KEYS.includes(key) && nearFault(key)) return true;
  return false;
}

const STEP_RULES: Readonly<Record<string, true>> = Object.fromEntries(
  STEP_KEYS.map((k) => [k, true]),
);

/** Checks a step object; throws an {@linkcode InvalidScript} naming `where`. */
export function checkStep(value: Record<string, unknown>, where: string): Step {
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(STEP_RULES, key)) {
      // The shared checker's did-you-mean (runtime/_options.ts nearest()).
      const near = nearest(key, STEP_KEYS);
      throw new InvalidScript(
        `unknown key "${key}" in ${where}${
          near ? `; did you mean "${near}"?` : ""
        } (a step's keys are ${STEP_KEYS.join(", ")})`,
      );
    }
  }
  const bad = (what: string) => new InvalidScript(`${where}: ${what}`);
  const out: { -readonly [K in keyof Step]: Step[K] } = {};
  if (value.isError !== undefined) {
    if (value.isError !== true) throw bad(`isError must be true, got ${describe(value.isError)}`);
    if (typeof value.text !== "string") {
      throw bad(
        `isError needs the error's text ({ isError: true, text: "..." }), got text ${
          describe(value.text)
        }`,
      );
    }
    out.isError = value.text;
  } else if (value.text !== undefined) {
    throw bad(
      'text is the error text of { isError: true, text }; for a text result use { result: "..." }',
    );
  }
  if (value.rpcError !== undefined) {
    const e = value.rpcError as Record<string, unknown>;
    if (
      e === null || typeof e !== "object" || !Number.isInteger(e.code) ||
      typeof e.message !== "string"
    ) {
      throw bad(`rpcError must be { code: an integer, message: a string }, got ${describe(e)}`);
    }
    out.rpcError = e.data === undefined
      ? { code: e.code as number, message: e.message }
      : { code: e.code as number, message: e.message, data: e.data };
  }
  if (value.latencyMs !== undefined) {
    checkNumber(where, "latencyMs", value.latencyMs);
    out.latencyMs = value.latencyMs as number;
  }
  if (value.progressIntervalMs !== undefined) {
    checkNumber(where, "progressIntervalMs", value.progressIntervalMs);
    out.progressIntervalMs = value.progressIntervalMs as number;
  }
  if (value.gate !== undefined) {
    if (typeof (value.gate as PromiseLike<unknown>)?.then !== "function") {
      throw bad(`gate must be a promise, got ${describe(value.gate)}`);
    }
    out.gate = value.gate as PromiseLike<unknown>;
    // A gate may be refused before any call reaches it: that is a scripted
    // answer, not an unhandled rejection.
    Promise.resolve(out.gate).catch(() => {});
  }
  if (value.disconnect !== undefined) {
    if (value.disconnect !== true) {
      throw bad(`disconnect must be true, got ${describe(value.disconnect)}`);
    }
    out.disconnect = true;
  }
  if (value.progress !== undefined) out.progress = checkProgress(value.progress, where);
  if (value.result !== undefined) {
    if (typeof value.result === "function" || isStep(value.result)) {
      throw bad("result must be a value (a string, an object or JSON), not a function or a step");
    }
    if (isRawResult(value.result)) checkRawResult(value.result, `${where}: result`);
    out.result = value.result;
  }
  const answers = [out.isError !== undefined, out.rpcError, out.disconnect, "result" in out]
    .filter(Boolean).length;
  if (answers > 1) {
    throw bad(
      "a step answers one way: choose one of isError, rpcError, disconnect and result",
    );
  }
  return out;
}

function checkNumber(where: string, key: string, value: unknown): void {
  try {
    checkValue(where, key, value, is.ms);
  } catch (error) {
    throw new InvalidScript((error as Error).message);
  }
}

function checkProgress(value: unknown, where: string): Exclude<FakeMcpProgress, number>[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidScript(
      `${where}: progress must be a non-empty array of numbers (or { progress, total?, message? }), got ${
        describe(value)
      }`,
    );
  }
  const out: Exclude<FakeMcpProgress, number>[] = [];
  let last = -Infinity;
  for (const [i, p] of value.entries()) {
    const one = typeof p === "number" ? { progress: p } : p as Record<string, unknown>;
    if (
      one === null || typeof one !== "object" || typeof one.progress !== "number" ||
      !Number.isFinite(one.progress) ||
      (one.total !== undefined && typeof one.total !== "number") ||
      (one.message !== undefined && typeof one.message !== "string")
    ) {
      throw new InvalidScript(
        `${where}: progress[${i}] must be a finite number or { progress, total?, message? }, got ${
          describe(p)
        }`,
      );
    }
    // The spec: "The progress value MUST increase with each notification".
    if ((one.progress as number) <= last) {
      throw new InvalidScript(
        `${where}: progress[${i}] is ${one.progress}, not above ${last}; MCP requires each progress value to increase`,
      );
    }
    last = one.progress as number;
    out.push(one as Exclude<FakeMcpProgress, number>);
  }
  return out;
}

type Entry = Step | FakeMcpToolFunction | { readonly value: unknown };
const SCRIPTS = new WeakMap<FakeMcpScript, { steps: readonly Entry[]; used: number }>();

/**
 * A tool's answers, one per call, in order: made by
 * `FakeMcpServer.script([...])`. A call past the end fails the call and
 * makes `verify()` throw `ScriptExhausted`; steps never reached make it
 * throw `UnusedTurns`.
 *
 * @example
 * ```ts
 * import { FakeMcpServer } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const script = FakeMcpServer.script(["first", { isError: true, text: "second fails" }]);
 * assertEquals([script.length, script.used], [2, 0]);
 * ```
 */
export class FakeMcpScript {
  /** How many steps it has. */
  readonly length: number;
  /** Whether the last step answers every call after it. */
  readonly repeatLast: boolean;

  /**
   * Checks every step; a malformed one throws `InvalidScript` here.
   *
   * @param steps The answers, one per call.
   * @param repeatLast Whether the last answers every later call.
   */
  constructor(steps: readonly unknown[], repeatLast: boolean) {
    if (!Array.isArray(steps)) {
      throw new InvalidScript(
        `FakeMcpServer.script() takes an array of steps, got ${describe(steps)}`,
      );
    }
    const checked = steps.map((s, i) => entry(s, `FakeMcpServer.script step ${i + 1}`));
    SCRIPTS.set(this, { steps: checked, used: 0 });
    this.length = checked.length;
    this.repeatLast = repeatLast;
  }

  /** How many calls it has answered (or been asked for). */
  get used(): number {
    return SCRIPTS.get(this)!.used;
  }
}

/** The next step of `script`, or the 1-based call past its end. */
export function takeStep(script: FakeMcpScript): Entry | { readonly exhausted: number } {
  const state = SCRIPTS.get(script)!;
  const n = state.steps.length;
  state.used++;
  if (state.used > n && !(script.repeatLast && n > 0)) return { exhausted: state.used };
  return state.steps[Math.min(state.used, n) - 1];
}

function entry(value: unknown, where: string): Entry {
  if (typeof value === "function") return value as FakeMcpToolFunction;
  if (value instanceof FakeMcpScript) {
    throw new InvalidScript(`${where}: a script cannot hold a script`);
  }
  if (isStep(value)) return checkStep(value as Record<string, unknown>, where);
  if (isRawResult(value)) checkRawResult(value, where);
  return { value };
}

/**
 * A tool's schema as declared: a zod schema, a raw shape of zod fields
 * (`{ host: z.string() }`, as the SDK's McpServer takes), or a JSON Schema
 * of type "object".
 */
export type SchemaInput = ParseSchema | Readonly<Record<string, unknown>>;

/** A declared tool, checked, with what the wire needs. */
export interface DeclaredTool {
  readonly name: string;
  /** The entry of tools/list. */
  readonly listing: Readonly<Record<string, unknown>>;
  /** A problem with the arguments, or undefined. */
  inputProblem(args: Record<string, unknown>): string | undefined;
  /** A problem with a result's structured content, or undefined. */
  outputProblem(structured: unknown): string | undefined;
  /** The answer source: a script, a function, or a value. */
  readonly answer: FakeMcpScript | FakeMcpToolFunction | Step | { readonly value: unknown };
  /** How many calls it took. */
  calls: number;
}

const TOOL_KEYS = ["name", "title", "description", "inputSchema", "outputSchema", "result"];
const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} };

function isZod(value: unknown): value is z.ZodType {
  return typeof (value as { safeParse?: unknown })?.safeParse === "function" &&
    (value as { _zod?: unknown })._zod !== undefined;
}

// The SDK's McpServer takes a zod object or a raw shape of zod fields.
function asZod(value: unknown): z.ZodType | undefined {
  if (isZod(value)) return value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const fields = Object.values(value);
  if (fields.length > 0 && fields.every(isZod)) {
    return zod().object(value as Record<string, z.ZodType>);
  }
  return undefined;
}

// cfworker's dialect names, chosen by $schema; MCP 2025-11-25 takes a
// schema without $schema as 2020-12 (SEP-1613).
function draftOf(schema: Readonly<Record<string, unknown>>): "7" | "2019-09" | "2020-12" {
  const id = typeof schema.$schema === "string" ? schema.$schema : "";
  if (id.includes("draft-07")) return "7";
  if (id.includes("2019-09")) return "2019-09";
  return "2020-12";
}

function jsonProblem(
  schema: Readonly<Record<string, unknown>>,
  value: unknown,
): string | undefined {
  const r = validate(value, schema as never, draftOf(schema), undefined, false);
  if (r.valid) return undefined;
  return r.errors.filter((e) => e.keyword !== "properties" && e.keyword !== "$ref")
    .map((e) => `${e.error}${e.instanceLocation === "#" ? "" : ` at ${e.instanceLocation}`}`)
    .join("\n") || r.errors[0].error;
}

function zodProblem(schema: z.ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  // The SDK's wording (server/zod-compat.ts getParseErrorMessage).
  return r.error.issues.map((i) =>
    i.path.length ? `${i.message} at ${i.path.join(".")}` : i.message
  )
    .join("\n");
}

function schemaOf(
  where: string,
  key: "inputSchema" | "outputSchema",
  value: unknown,
): { json: Record<string, unknown>; problem(v: unknown): string | undefined } {
  const schema = asZod(value);
  if (schema) {
    let json: Record<string, unknown>;
    try {
      json = zod().toJSONSchema(schema, {
        target: "draft-7",
        io: key === "inputSchema" ? "input" : "output",
      }) as Record<string, unknown>;
    } catch (error) {
      throw new TypeError(
        `${where}: ${key} cannot be sent as JSON Schema (${(error as Error).message})`,
      );
    }
    if (json.type !== "object") {
      throw new TypeError(
        `${where}: ${key} must describe an object (MCP sends arguments and structured content as objects), got a zod ${
          json.type ?? "schema"
        }`,
      );
    }
    return { json, problem: (v) => zodProblem(schema, v) };
  }
  checkValue(where, key, value, toolParameters);
  const json = value as Record<string, unknown>;
  if (json.type !== "object") {
    throw new TypeError(
      `${where}: ${key} must be a JSON Schema with type "object" (MCP's Tool.${key}), got type ${
        describe(json.type)
      }`,
    );
  }
  return { json, problem: (v) => jsonProblem(json, v) };
}

/** Checks one tool declaration (`where` is `new FakeMcpServer(): tools[0]`). */
export function declareTool(value: unknown, where: string): DeclaredTool {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(`${where} must be a tool ({ name, result, ... }), got ${describe(value)}`);
  }
  const tool = value as Record<string, unknown>;
  for (const key of Object.keys(tool)) {
    if (!TOOL_KEYS.includes(key)) {
      const near = nearest(key, TOOL_KEYS);
      throw new TypeError(
        `${where}: unknown key "${key}"${
          near ? `; did you mean "${near}"?` : ""
        } (a tool's keys are ${TOOL_KEYS.join(", ")})`,
      );
    }
  }
  if (typeof tool.name !== "string" || tool.name === "") {
    throw new TypeError(`${where}.name must be a non-empty string, got ${describe(tool.name)}`);
  }
  const at = `${where} ("${tool.name}")`;
  for (const key of ["title", "description"] as const) {
    if (tool[key] !== undefined && typeof tool[key] !== "string") {
      throw new TypeError(`${at}.${key} must be a string, got ${describe(tool[key])}`);
    }
  }
  if (!("result" in tool) || tool.result === undefined) {
    throw new TypeError(
      `${at} needs a result: a value, a function (args, call) => value, or FakeMcpServer.script([...])`,
    );
  }
  const input = tool.inputSchema === undefined
    ? undefined
    : schemaOf(at, "inputSchema", tool.inputSchema);
  const output = tool.outputSchema === undefined
    ? undefined
    : schemaOf(at, "outputSchema", tool.outputSchema);
  const listing: Record<string, unknown> = { name: tool.name };
  if (tool.title !== undefined) listing.title = tool.title;
  if (tool.description !== undefined) listing.description = tool.description;
  listing.inputSchema = input?.json ?? EMPTY_OBJECT_SCHEMA;
  if (output) listing.outputSchema = output.json;
  const result = tool.result;
  let answer: DeclaredTool["answer"];
  if (result instanceof FakeMcpScript || typeof result === "function") {
    answer = result as FakeMcpScript | FakeMcpToolFunction;
  } else if (isStep(result)) {
    answer = checkStep(result as Record<string, unknown>, `${at}.result`);
  } else {
    if (isRawResult(result)) checkRawResult(result, `${at}.result`);
    answer = { value: result };
  }
  return {
    name: tool.name,
    listing,
    inputProblem: (args) => input?.problem(args),
    outputProblem: (structured) =>
      output === undefined
        ? undefined
        : structured === undefined
        ? "no structured content"
        : output.problem(structured),
    answer,
    calls: 0,
  };
}

const RAW_KEYS = ["content", "structuredContent", "isError", "_meta"];

/**
 * Whether `value` is a raw MCP `CallToolResult`: an object with a `content`
 * array and no keys but `content`, `structuredContent`, `isError` and
 * `_meta`. It is sent as given.
 */
export function isRawResult(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.content) && Object.keys(v).every((k) => RAW_KEYS.includes(k));
}

// The required fields of each content block type of the MCP schema
// (2025-11-25, ContentBlock): TextContent, ImageContent, AudioContent,
// ResourceLink, EmbeddedResource. A block of another type is sent as given,
// as a server on a later protocol would.
const BLOCK_FIELDS: Readonly<Record<string, readonly string[]>> = {
  text: ["text"],
  image: ["data", "mimeType"],
  audio: ["data", "mimeType"],
  resource_link: ["uri", "name"],
};

/** Checks a raw result's shape; throws an {@linkcode InvalidScript} naming `where`. */
export function checkRawResult(value: Record<string, unknown>, where: string): void {
  const bad = (what: string) =>
    new InvalidScript(
      `${where}: ${what} (a raw result is { content: [blocks], structuredContent?, isError? })`,
    );
  (value.content as unknown[]).forEach((block, i) => {
    const b = block as Record<string, unknown>;
    if (b === null || typeof b !== "object" || Array.isArray(b) || typeof b.type !== "string") {
      throw bad(`content[${i}] must be a content block ({ type, ... }), got ${describe(block)}`);
    }
    for (const field of BLOCK_FIELDS[b.type] ?? []) {
      if (typeof b[field] !== "string") {
        throw bad(
          `content[${i}] (type "${b.type}") needs ${field} as a string, got ${describe(b[field])}`,
        );
      }
    }
    if (b.type === "resource") {
      const r = b.resource as Record<string, unknown>;
      if (
        r === null || typeof r !== "object" || typeof r.uri !== "string" ||
        (typeof r.text !== "string" && typeof r.blob !== "string")
      ) {
        throw bad(
          `content[${i}] (type "resource") needs resource: { uri, text | blob, mimeType? }, got ${
            describe(r)
          }`,
        );
      }
    }
  });
  const sc = value.structuredContent;
  if (sc !== undefined && (sc === null || typeof sc !== "object" || Array.isArray(sc))) {
    throw bad(`structuredContent must be a JSON object, got ${describe(sc)}`);
  }
  if (value.isError !== undefined && typeof value.isError !== "boolean") {
    throw bad(`isError must be true or false, got ${describe(value.isError)}`);
  }
}

/**
 * A value as MCP's CallToolResult: a raw result as given; a string a text
 * block; an object structured content and its JSON text.
 */
export function toolResult(value: unknown): Record<string, unknown> {
  if (value === undefined) return { content: [] };
  // Checked where it was declared, or returned (checkRawResult): here only
  // the copy a wire would carry (undefined keys dropped).
  if (isRawResult(value)) return JSON.parse(JSON.stringify(value));
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  const text = JSON.stringify(value);
  if (text === undefined) {
    return { content: [{ type: "text", text: String(value) }] };
  }
  // The parsed copy is what a wire would carry: no shared references, and
  // an object that serializes to something else (a Date) is not structured.
  const parsed = JSON.parse(text);
  if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
    return { content: [{ type: "text", text }], structuredContent: parsed };
  }
  return { content: [{ type: "text", text }] };
}

/** An `isError` result with `text`. */
export function errorResult(text: string): Record<string, unknown> {
  return { content: [{ type: "text", text }], isError: true };
}
