/**
 * Tools and tool providers.
 *
 * @module
 */
import type { Ctx } from "./context.ts";
import type { ToolCall } from "./message.ts";
import type { JsonSchema, ToolSpec } from "./tool_spec.ts";

/**
 * A schema object with zod's `safeParse` shape. Any zod schema fits.
 */
export interface ParseSchema {
  /** Validates a value. */
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

/**
 * A tool the agent can call.
 *
 * @example
 * ```ts
 * import type { ToolPort } from "@agentkit/testing/ports";
 * const echo: ToolPort = {
 *   name: "echo",
 *   description: "Echo the text back",
 *   parameters: { type: "object", properties: { text: { type: "string" } } },
 *   call: (args) => Promise.resolve(args.text),
 * };
 * ```
 */
export interface ToolPort {
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description: string;
  /** The arguments' schema: a zod schema or a JSON Schema object. */
  readonly parameters: ParseSchema | JsonSchema;
  /** Under `autonomy: "manual"` the asker is asked before the tool runs. */
  readonly requiresApproval?: boolean;
  /**
   * `false` when running it twice for one tool call repeats a side effect (a
   * payment, an email): `chaos()`'s `noDuplicateSideEffects` invariant then
   * checks it never runs twice for one call id. Unset: not claimed either way.
   */
  readonly idempotent?: boolean;
  /** Runs the tool. */
  call(args: Record<string, unknown>, ctx: Ctx): Promise<unknown>;
}

/**
 * The outcome of one tool call in a batch.
 *
 * @example
 * ```ts
 * import type { ToolResult } from "@agentkit/testing/ports";
 * const r: ToolResult = { callId: "c1", isError: false, content: "hello" };
 * ```
 */
export interface ToolResult {
  /** The call this answers. */
  readonly callId: string;
  /** True when the call failed; `content` then says why. */
  readonly isError: boolean;
  /** The result text the model sees. */
  readonly content: string;
}

/**
 * A batch executor for tools (an MCP client, a registry, a policy wrapper).
 *
 * `executeToolCalls` never throws: each failure is an `isError` result, and
 * results come back in the caller's order.
 *
 * @example
 * ```ts
 * import type { ToolProvider } from "@agentkit/testing/ports";
 * const provider: ToolProvider = {
 *   listTools: () => [{ name: "echo", description: "Echo", parameters: { type: "object" } }],
 *   executeToolCalls: (calls) =>
 *     Promise.resolve(calls.map((c) => ({ callId: c.id, isError: false, content: JSON.stringify(c.args) }))),
 * };
 * ```
 */
export interface ToolProvider {
  /**
   * The tools this provider offers: an array when it knows them at once (a
   * scripted provider, a cached list), a promise when it has to ask (an MCP
   * server's `tools/list`). The runtime awaits only a promise, and passes
   * the run, whose signal (and clock) a provider that asks bounds its wait by.
   */
  listTools(ctx?: Ctx): readonly ToolSpec[] | Promise<readonly ToolSpec[]>;
  /** Runs a batch of calls. */
  executeToolCalls(calls: readonly ToolCall[], ctx: Ctx): Promise<readonly ToolResult[]>;
  /** Present on providers that grant permissions; the runtime checks for it by presence. */
  grants?(): Promise<readonly string[]> | readonly string[];
}
