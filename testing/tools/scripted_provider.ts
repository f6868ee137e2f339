/**
 * The tool-provider double: a scripted batch provider (an MCP client's shape).
 *
 * @module
 */
import { zod } from "../../runtime/internal.ts";
import type { Ctx } from "../../ports/context.ts";
import type { ToolCall } from "../../ports/message.ts";
import type { ToolProvider, ToolResult } from "../../ports/tool.ts";
import type { JsonSchema, ToolSpec } from "../../ports/tool_spec.ts";
import { type HarnessError, isHarnessError, rethrowIfFatal } from "../../runtime/harness_error.ts";
import { checkOptions, is, type Rule } from "../../runtime/internal.ts";
import { nearest, parseOrExplain } from "../_validate.ts";
import { InvalidScript, UnusedTurns } from "../errors.ts";
import { failedRuns, verifyAtDispose } from "../_dispose_verify.ts";

/**
 * A scripted tool answer computed per call, from the parsed arguments, the
 * call itself (its id) and the context. It may be async; a throw becomes an
 * `isError` result.
 */
export type ScriptedResponder = (
  args: Record<string, unknown>,
  call: ToolCall,
  ctx: Ctx,
) => unknown;

/**
 * A scripted answer: a string (the content), an `Error` (an `isError` result
 * with its message), any other value (sent as JSON), or a
 * {@linkcode ScriptedResponder} returning one of those.
 */
export type ScriptedResult = string | number | boolean | null | object | ScriptedResponder;

/** A tool a {@linkcode ScriptedProvider} offers: a `ToolSpec` whose description and schema may be left out. */
export interface ScriptedToolSpec {
  /** The tool's name. */
  readonly name: string;
  /**
   * What it does, for the model.
   * @default {""}
   */
  readonly description?: string;
  /**
   * The arguments' JSON Schema (offered to the model, not enforced).
   * @default {{ type: "object" }}
   */
  readonly parameters?: JsonSchema;
}

/** Options for {@linkcode ScriptedProvider}. */
export interface ScriptedProviderOptions {
  /** The tools `listTools()` offers. Required, at least one. */
  readonly tools: readonly ScriptedToolSpec[];
  /** The answer of each tool, by tool name: every tool needs one. Required. */
  readonly results: Readonly<Record<string, ScriptedResult>>;
  /**
   * A promise every batch waits on before answering anything (a permission
   * prompt nobody has answered yet). It ignores cancellation, like a batch
   * already sent to a server.
   * @default {undefined (no wait)}
   */
  readonly blockOn?: Promise<unknown>;
  /**
   * Per-call latency (ms) on `ctx.clock`, looked up by call id first, then by
   * tool name. Cancellable through the context's signal.
   * @default {{} (no latency)}
   */
  readonly latencyMs?: Readonly<Record<string, number>>;
  /**
   * Per-call gates, looked up by call id first, then by tool name: the call
   * is not answered until its promise settles (a rejection becomes an
   * `isError` result). Calls in a batch are answered one at a time, so a gate
   * on the first call holds the whole batch. Gates ignore cancellation.
   * @default {{} (no gates)}
   */
  readonly blockCall?: Readonly<Record<string, Promise<unknown>>>;
  /**
   * `verify()` and disposal accept scripted tools the run never called
   * (decoys offered to the model on purpose).
   * @default {false}
   */
  readonly allowUnused?: boolean;
}

/**
 * One call as the provider received it, with the result it gave.
 *
 * @example
 * ```ts
 * import type { RecordedToolCall } from "@agentkit/testing/testing";
 * const r: RecordedToolCall = {
 *   batch: 1, id: "c1", name: "fs_read", args: { path: "a" }, rawArgs: undefined,
 *   result: { callId: "c1", isError: false, content: "hello" },
 * };
 * ```
 */
export interface RecordedToolCall {
  /** The 1-based number of the `executeToolCalls` batch it came in. */
  readonly batch: number;
  /** The call id. */
  readonly id: string;
  /** The tool name as the model spelled it. */
  readonly name: string;
  /** The arguments (a copy), parsed from `rawArgs` when given; `undefined` if they did not parse. */
  readonly args: Record<string, unknown> | undefined;
  /** The raw arguments text, when the call carried one. */
  readonly rawArgs: string | undefined;
  /** The result returned for it; `undefined` while the call is still pending. */
  readonly result: ToolResult | undefined;
}

interface MutableRecord {
  batch: number;
  id: string;
  name: string;
  args: Record<string, unknown> | undefined;
  rawArgs: string | undefined;
  result: ToolResult | undefined;
}

const promise: Rule = is.port("a Promise", ["then"]);

const OPTIONS: Readonly<Record<string, Rule>> = {
  tools: is.arrayOf(is.object, 1),
  results: is.object,
  blockOn: promise,
  latencyMs: is.recordOf(is.ms),
  blockCall: is.recordOf(promise),
  allowUnused: is.boolean,
};
const WITH_GRANTS: Readonly<Record<string, Rule>> = {
  ...OPTIONS,
  grants: is.arrayOf(is.string),
};

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const toolSchema = z.strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  });
  return { toolSchema };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

/**
 * A scripted tool provider: `listTools()` and `executeToolCalls()`, the pair
 * an MCP client presents, so it can stand where a real one would.
 *
 * `executeToolCalls` never throws (harness errors excepted): malformed
 * arguments (a `rawArgs` that is not JSON), an unknown tool and a responder
 * that throws each come back as an `isError` result, one per call, in the
 * caller's order. Every call is recorded in `.recordedCalls` the moment its
 * batch arrives, with its result filled in when answered.
 *
 * It has no `grants()` method, on purpose: the runtime synchronises grants
 * only with providers that have one, and {@linkcode ScriptedProviderWithGrants}
 * is the other side of that branch.
 *
 * Its script is a finite claim that the run calls every scripted tool:
 * `verify()` (and `using`, at scope exit) fails a test whose run never
 * called one, unless `allowUnused`, and rethrows a harness error that passed
 * through a call even if user code caught it. `turnsTaken` counts the
 * `executeToolCalls` batches answered (the ReAct loop sends each call as a
 * batch of its own).
 *
 * @example A tool loop against a scripted provider
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx, ScriptedProvider } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new ScriptedProvider({
 *   tools: [{ name: "fs_read", description: "Read a file" }],
 *   results: { fs_read: ({ path }) => `contents of ${path}` },
 * });
 * const llm = FakeLLM.script([
 *   { toolCalls: [toolCall("c1", "fs_read", { path: "a.txt" })] },
 *   { content: "The file says hello." },
 * ]);
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ provider }) });
 * const result = await agent.run("what is in a.txt?", makeTestCtx({ llm }));
 * assertEquals(result.output, "The file says hello.");
 * assertEquals(provider.recordedCalls.map((c) => c.result?.content), ["contents of a.txt"]);
 * assertEquals(llm.requests[0].tools.map((t) => t.name), ["fs_read"]);
 * ```
 *
 * @example Failures come back as results, never as throws
 * ```ts
 * import { NullCtx } from "@agentkit/testing/runtime";
 * import { ScriptedProvider } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new ScriptedProvider({
 *   tools: [{ name: "ok" }, { name: "boom" }],
 *   results: { ok: "fine", boom: () => { throw new Error("disk on fire"); } },
 * });
 * const results = await provider.executeToolCalls([
 *   { id: "c1", name: "boom", args: {} },
 *   { id: "c2", name: "ok", args: {}, rawArgs: '{"path": "a' },
 *   { id: "c3", name: "nope", args: {} },
 *   { id: "c4", name: "ok", args: {} },
 * ], new NullCtx());
 * assertEquals(results.map((r) => [r.callId, r.isError]), [["c1", true], ["c2", true], ["c3", true], ["c4", false]]);
 * assertEquals(results[0].content, "disk on fire");
 * ```
 */
export class ScriptedProvider implements ToolProvider, Disposable {
  /** Every call received, in order, with its result once answered. */
  readonly recordedCalls: readonly RecordedToolCall[];
  readonly #records: MutableRecord[] = [];
  readonly #specs: readonly ToolSpec[];
  readonly #names: readonly string[];
  readonly #results: ReadonlyMap<string, unknown>;
  readonly #blockOn?: Promise<unknown>;
  readonly #latency: Readonly<Record<string, number>>;
  readonly #gates: Readonly<Record<string, Promise<unknown>>>;
  readonly #allowUnused: boolean;
  readonly #double: string;
  readonly #harnessErrors: HarnessError[] = [];
  #batches = 0;
  // The context of the last call, and failedRuns() then (see ../_dispose_verify.ts).
  #servedCtx: unknown;
  #servedAt = failedRuns();

  /**
   * Builds the provider, checking its options and its script now. The
   * options bag is checked like every other: an unknown option or a wrong
   * type is a `TypeError` (with the nearest valid name), a negative latency
   * a `RangeError`. The script is checked too: an unknown tool key, a tool
   * without a result, or a result for no tool is an `InvalidScript` naming
   * it (and the nearest valid name).
   *
   * @param options Tools, results, and the blocking and latency knobs.
   * @throws {TypeError} On an unknown or mistyped option.
   * @throws {RangeError} On an out-of-range option (no tools, a negative latency).
   * @throws {InvalidScript} When the script is malformed.
   */
  constructor(options: ScriptedProviderOptions) {
    const double = new.target.name;
    checkOptions(
      `new ${double}()`,
      options,
      "grants" in new.target.prototype ? WITH_GRANTS : OPTIONS,
      { required: ["tools", "results"] },
    );
    const o = options;
    const tools = o.tools.map((tool, i) =>
      parseOrExplain(schemas().toolSchema, tool, `${double} tools[${i}]`)
    );
    this.recordedCalls = this.#records;
    this.#double = double;
    this.#specs = tools.map((t) =>
      Object.freeze({
        name: t.name,
        description: t.description ?? "",
        parameters: t.parameters ?? { type: "object" },
      })
    );
    const names = this.#specs.map((t) => t.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup !== undefined) {
      throw new InvalidScript(
        `${double} offers two tools named "${dup}"; tool names must be unique`,
      );
    }
    for (const key of Object.keys(o.results)) {
      if (!names.includes(key)) {
        const near = nearest(key, names);
        throw new InvalidScript(
          `${double} has a result for "${key}", which is not one of its tools (${
            names.join(", ")
          })${near ? `; did you mean "${near}"?` : ""}`,
        );
      }
    }
    for (const name of names) {
      if (!Object.hasOwn(o.results, name)) {
        throw new InvalidScript(
          `${double} offers tool "${name}" but scripts no result for it; add results: { ${name}: ... }`,
        );
      }
    }
    // The results object itself, not zod's copy, so functions keep identity.
    this.#results = new Map(Object.entries(options.results));
    this.#names = names;
    this.#blockOn = o.blockOn;
    this.#latency = o.latencyMs ?? {};
    this.#gates = o.blockCall ?? {};
    this.#allowUnused = o.allowUnused ?? false;
    // A gate that rejects before any call reaches it is a scripted refusal,
    // not an unhandled rejection.
    for (const gate of [o.blockOn, ...Object.values(this.#gates)]) {
      if (gate) Promise.resolve(gate).catch(() => {});
    }
  }

  /**
   * The tools offered to the model.
   * @returns The specs.
   */
  listTools(): readonly ToolSpec[] {
    return this.#specs;
  }

  /**
   * Answers a batch, one call at a time, in the caller's order. Never throws
   * except for harness errors.
   *
   * @param calls The calls.
   * @param ctx The run (its clock paces latency, its signal cancels it).
   * @returns One result per call.
   */
  async executeToolCalls(calls: readonly ToolCall[], ctx: Ctx): Promise<readonly ToolResult[]> {
    this.#servedCtx = ctx;
    this.#servedAt = failedRuns();
    try {
      return await this.#execute(calls, ctx);
    } catch (error) {
      if (isHarnessError(error)) this.#harnessErrors.push(error);
      throw error;
    }
  }

  /**
   * How many `executeToolCalls` batches were answered, a batch of failures
   * included (the ReAct loop sends each call as a batch of its own).
   *
   * @example
   * ```ts
   * import { NullCtx } from "@agentkit/testing/runtime";
   * import { ScriptedProvider } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const provider = new ScriptedProvider({ tools: [{ name: "t" }], results: { t: "ok" } });
   * await provider.executeToolCalls([{ id: "c1", name: "t", args: {} }, { id: "c2", name: "t", args: {} }], new NullCtx());
   * assertEquals([provider.turnsTaken, provider.recordedCalls.length], [1, 2]);
   * ```
   */
  get turnsTaken(): number {
    return this.#batches;
  }

  /** Harness errors that passed through a call (a swallowed one still shows here). */
  get harnessErrors(): readonly HarnessError[] {
    return this.#harnessErrors;
  }

  /**
   * Throws what a finished test must not hide: the first harness error that
   * passed through a call (even if user code caught it), or `UnusedTurns`
   * naming the scripted tools the run never called (unless `allowUnused`).
   *
   * @throws {HarnessError} As described.
   *
   * @example
   * ```ts
   * import { NullCtx } from "@agentkit/testing/runtime";
   * import { ScriptedProvider, UnusedTurns } from "@agentkit/testing/testing";
   * import { assertThrows } from "@std/assert";
   *
   * const provider = new ScriptedProvider({
   *   tools: [{ name: "fs_read" }, { name: "fs_write" }],
   *   results: { fs_read: "hello", fs_write: "ok" },
   * });
   * await provider.executeToolCalls([{ id: "c1", name: "fs_read", args: {} }], new NullCtx());
   * assertThrows(() => provider.verify(), UnusedTurns, "(never used: fs_write)");
   * ```
   */
  verify(): void {
    const swallowed = this.#harnessErrors[0];
    if (swallowed) throw swallowed;
    if (this.#allowUnused) return;
    const called = new Set(this.#records.map((r) => r.name));
    const unused = this.#names.filter((n) => !called.has(n));
    if (unused.length > 0) {
      throw new UnusedTurns(
        this.#double,
        this.#names.length,
        this.#names.length - unused.length,
        "scripted tool",
        unused,
      );
    }
  }

  /**
   * `using provider = new ScriptedProvider(...)` verifies at scope exit;
   * after a run that failed, it notes what `verify()` found on the run's
   * error instead of throwing over it.
   */
  [Symbol.dispose](): void {
    verifyAtDispose(() => this.verify(), this.#servedCtx, this.#servedAt);
  }

  async #execute(calls: readonly ToolCall[], ctx: Ctx): Promise<readonly ToolResult[]> {
    const batch = ++this.#batches;
    const records = calls.map((call): MutableRecord => {
      const record: MutableRecord = {
        batch,
        id: call.id,
        name: call.name,
        args: undefined,
        rawArgs: call.rawArgs,
        result: undefined,
      };
      this.#records.push(record);
      return record;
    });
    if (this.#blockOn) {
      try {
        await this.#blockOn;
      } catch (error) {
        rethrowIfFatal(error);
        const message = `the tool batch was refused: ${messageOf(error)}`;
        return records.map((r) => (r.result = { callId: r.id, isError: true, content: message }));
      }
    }
    const results: ToolResult[] = [];
    for (let i = 0; i < calls.length; i++) {
      const result = await this.#answer(calls[i], records[i], ctx);
      records[i].result = result;
      results.push(result);
    }
    return results;
  }

  async #answer(call: ToolCall, record: MutableRecord, ctx: Ctx): Promise<ToolResult> {
    const error = (content: string): ToolResult => ({ callId: call.id, isError: true, content });
    let args: Record<string, unknown>;
    if (call.rawArgs !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(call.rawArgs);
      } catch (e) {
        return error(
          `The arguments of tool "${call.name}" are not valid JSON (${
            messageOf(e)
          }): ${call.rawArgs}`,
        );
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        return error(
          `The arguments of tool "${call.name}" must be a JSON object, got: ${call.rawArgs}`,
        );
      }
      args = parsed as Record<string, unknown>;
    } else {
      args = copyOf(call.args);
    }
    record.args = args;
    if (!this.#names.includes(call.name)) {
      const near = nearest(call.name, this.#names);
      return error(
        `Unknown tool "${call.name}"${near ? `; did you mean "${near}"?` : ""}; the tools are ${
          this.#names.join(", ")
        }`,
      );
    }
    if (ctx.signal.aborted) return error(`Cancelled: ${messageOf(ctx.signal.reason)}`);
    const latency = pick(this.#latency, call);
    if (latency !== undefined && latency > 0) {
      try {
        await ctx.clock.sleep(latency, ctx.signal);
      } catch (e) {
        rethrowIfFatal(e);
        return error(`Cancelled: ${messageOf(e)}`);
      }
    }
    const gate = pick(this.#gates, call);
    try {
      if (gate) await gate;
      const scripted = this.#results.get(call.name);
      const value = typeof scripted === "function" ? await scripted(args, call, ctx) : scripted;
      if (value instanceof Error) return error(value.message);
      const content = typeof value === "string" ? value : JSON.stringify(value) ?? "";
      return { callId: call.id, isError: false, content };
    } catch (e) {
      rethrowIfFatal(e);
      return error(messageOf(e));
    }
  }
}

/** Options for {@linkcode ScriptedProviderWithGrants}. */
export interface ScriptedProviderWithGrantsOptions extends ScriptedProviderOptions {
  /**
   * What `grants()` answers.
   * @default {[]}
   */
  readonly grants?: readonly string[];
}

/**
 * A {@linkcode ScriptedProvider} that also has `grants()`, so a test can
 * take the runtime's "this provider grants permissions" branch (ReAct then
 * reads the grants before its first model call and reports them as a
 * `"grants"` observation).
 *
 * @example Grants are synchronised only with a provider that has them
 * ```ts
 * import { Agent, CollectingObserver, ReActCognition } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx, ScriptedProviderWithGrants } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new ScriptedProviderWithGrants({
 *   tools: [{ name: "fs_read" }],
 *   results: { fs_read: "hello" },
 *   grants: ["fs_read"],
 * });
 * const observer = new CollectingObserver();
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ provider }) });
 * await agent.run("go", makeTestCtx({ llm: new FakeLLM("done"), observer }));
 * assertEquals(observer.items.filter((o) => o.kind === "grants").map((o) => o.payload), [["fs_read"]]);
 * assertEquals(provider.grantsCalls, 1);
 * ```
 */
export class ScriptedProviderWithGrants extends ScriptedProvider {
  readonly #grants: readonly string[];
  #grantsCalls = 0;

  /**
   * Builds the provider; options as {@linkcode ScriptedProvider}, plus `grants`.
   *
   * @param options Tools, results, knobs and grants.
   * @throws {InvalidScript} When the script is malformed.
   */
  constructor(options: ScriptedProviderWithGrantsOptions) {
    super(options);
    this.#grants = Object.freeze([...(options.grants ?? [])]);
  }

  /** How many times `grants()` was asked. */
  get grantsCalls(): number {
    return this.#grantsCalls;
  }

  /**
   * The scripted grants.
   * @returns A copy of them.
   */
  grants(): readonly string[] {
    this.#grantsCalls++;
    return [...this.#grants];
  }
}

function pick<T>(map: Readonly<Record<string, T>>, call: ToolCall): T | undefined {
  if (Object.hasOwn(map, call.id)) return map[call.id];
  if (Object.hasOwn(map, call.name)) return map[call.name];
  return undefined;
}

function copyOf(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  try {
    return structuredClone({ ...args });
  } catch {
    return { ...args }; // arguments holding something uncloneable: a shallow copy
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
