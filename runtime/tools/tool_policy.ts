/**
 * A policy over a tool provider: which of its tools the model sees, which
 * it may call, and which a human approves first.
 *
 * @module
 */
import type { Ctx } from "../../ports/context.ts";
import type { ToolCall } from "../../ports/message.ts";
import type { ToolProvider, ToolResult } from "../../ports/tool.ts";
import type { ToolSpec } from "../../ports/tool_spec.ts";
import { NoAsker } from "../errors.ts";
import { rethrowIfFatal } from "../harness_error.ts";
import { checkOptions, checkValue, is, ports, type Rule } from "../_options.ts";
import { untilAborted } from "../_until_aborted.ts";
import { askApproval } from "./_approval.ts";

/** Tool names: one name, or a list of them. */
export type ToolNames = string | readonly string[];

/** Options for {@linkcode ToolPolicy}; every list holds tool names as the provider lists them. */
export interface ToolPolicyOptions {
  /**
   * Only these tools are offered and may run; the rest are hidden and refused.
   * @default {undefined (every tool not denied)}
   */
  readonly allow?: ToolNames;
  /**
   * These tools are hidden and refused.
   * @default {[]}
   */
  readonly deny?: ToolNames;
  /**
   * These tools run only after `ctx.asker` says yes (`yes`, `y`, `ok`,
   * `approve`, `approved`, `allow`); any other answer refuses the call.
   * @default {[]}
   */
  readonly approve?: ToolNames;
}

const NAMES: Rule = is.either(
  is.text,
  is.arrayOf(is.text),
  "a tool name or an array of tool names (non-empty strings)",
);
const OPTIONS: Readonly<Record<string, Rule>> = { allow: NAMES, deny: NAMES, approve: NAMES };
const WHERE = "new ToolPolicy()";

/**
 * The seeds' Policy: a `ToolProvider` over another that hides and refuses
 * tools by name and asks a human about others, so an MCP server's tools (a
 * {@linkcode McpToolProvider}) run under rules in production, and a
 * `ScriptedProvider` sits under the same real policy in a test.
 *
 * A tool in `deny`, or missing from `allow` when `allow` is given, is left
 * out of `listTools()`, and a call of it anyway (a model that guessed the
 * name) is an `isError` result that says the policy refused it; the provider
 * under the policy never sees it. A call of a tool in `approve` is asked
 * about through `ctx.asker` first (the same question the ReAct loop asks
 * under manual autonomy), and a refusal is an `isError` result quoting the
 * answer, with an `approval_denied` observation. The calls that pass go to
 * the provider as one batch, after every question of the batch is answered.
 * Like every provider it never throws, harness errors excepted: a context
 * without an asker when one is needed is `NoAsker`.
 *
 * `grants()` is there only when the provider under it has one, and answers
 * what that one does.
 *
 * @example A scripted provider under a real policy
 * ```ts
 * import { Agent, ReActCognition, ToolPolicy } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeAsker, FakeLLM, makeTestCtx, ScriptedProvider } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const files = new ScriptedProvider({
 *   tools: [{ name: "fs_read" }, { name: "fs_write" }, { name: "fs_delete" }],
 *   results: { fs_read: "hello", fs_write: "written", fs_delete: "gone" },
 *   allowUnused: true,
 * });
 * const provider = new ToolPolicy(files, { deny: ["fs_delete"], approve: ["fs_write"] });
 * const llm = FakeLLM.script([
 *   { toolCalls: [toolCall("c1", "fs_write", { path: "a.txt" })] },
 *   { toolCalls: [toolCall("c2", "fs_delete", { path: "a.txt" })] },
 *   { content: "I may not write or delete." },
 * ]);
 * const asker = new FakeAsker(["no"]);
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ provider }) });
 * const result = await agent.run("tidy up", makeTestCtx({ llm, asker }));
 * assertEquals(llm.requests[0].tools.map((t) => t.name), ["fs_read", "fs_write"]);
 * assertEquals(asker.questions, ['Allow tool "fs_write" with {"path":"a.txt"}? (yes/no)']);
 * assertEquals(result.messages[2].content, 'Error: Denied: the user did not approve tool "fs_write" (answered "no")');
 * assertEquals(result.messages[4].content, 'Error: Refused: tool "fs_delete" is denied by the tool policy');
 * assertEquals(files.recordedCalls.length, 0);
 * ```
 */
export class ToolPolicy implements ToolProvider {
  readonly #provider: ToolProvider;
  readonly #allow: ReadonlySet<string> | undefined;
  readonly #deny: ReadonlySet<string>;
  readonly #approve: ReadonlySet<string>;
  /** The grants of the provider under the policy; present only when it has `grants()`. */
  declare readonly grants?: () => Promise<readonly string[]> | readonly string[];

  /**
   * Checks the provider and the options here: a name both allowed and
   * denied, or to be approved but hidden, is a contradiction.
   *
   * @param provider The provider the policy stands over.
   * @param options `allow`, `deny` and `approve`, each a name or a list of names.
   * @throws {TypeError} On a provider without `listTools()` / `executeToolCalls()`, an unknown or mistyped option, or contradictory lists.
   */
  constructor(provider: ToolProvider, options: ToolPolicyOptions = {}) {
    checkValue(WHERE, "the provider", provider, ports.provider);
    checkOptions(WHERE, options, OPTIONS);
    this.#provider = provider;
    this.#allow = options.allow === undefined ? undefined : namesOf(options.allow);
    this.#deny = namesOf(options.deny);
    this.#approve = namesOf(options.approve);
    for (const name of this.#deny) {
      if (this.#allow?.has(name)) {
        throw new TypeError(
          `${WHERE}: "${name}" is in both allow and deny; take it out of one of them`,
        );
      }
    }
    for (const name of this.#approve) {
      const why = this.#refusal(name);
      if (why !== undefined) {
        throw new TypeError(
          `${WHERE}: "${name}" is in approve but ${
            this.#deny.has(name) ? "denied" : "not in allow"
          }, so it is never offered; ${
            this.#deny.has(name) ? "take it out of deny" : "add it to allow"
          } or out of approve`,
        );
      }
    }
    if (typeof provider.grants === "function") this.grants = () => provider.grants!();
  }

  /**
   * The provider's tools less the hidden ones.
   *
   * @param ctx The run, passed on to the provider.
   * @returns The specs (a promise when the provider under it had to ask).
   */
  listTools(ctx?: Ctx): readonly ToolSpec[] | Promise<readonly ToolSpec[]> {
    const listed = this.#provider.listTools(ctx);
    if (Array.isArray(listed)) return this.#visible(listed);
    return Promise.resolve(listed).then((specs) => this.#visible(specs));
  }

  /**
   * Refuses the hidden calls, asks about the ones to approve, and sends the
   * rest to the provider as one batch. Never throws except for harness errors.
   *
   * @param calls The calls.
   * @param ctx The run (its `asker` is asked; its signal ends a wait for an answer).
   * @returns One result per call, in the caller's order.
   * @throws {NoAsker} When a call needs approval and `ctx` has no asker.
   */
  async executeToolCalls(calls: readonly ToolCall[], ctx: Ctx): Promise<readonly ToolResult[]> {
    const results: (ToolResult | undefined)[] = calls.map(() => undefined);
    const passed: number[] = [];
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      const refusal = this.#refusal(call.name) ?? await this.#ask(call, ctx);
      if (refusal === undefined) passed.push(i);
      else results[i] = { callId: call.id, isError: true, content: refusal };
    }
    if (passed.length > 0) {
      const batch = passed.map((i) => calls[i]);
      let answered: readonly ToolResult[] = [];
      let failure: string | undefined;
      try {
        answered = await this.#provider.executeToolCalls(batch, ctx);
      } catch (error) {
        rethrowIfFatal(error);
        failure = `The tool provider under the policy failed: ${messageOf(error)}`;
      }
      for (const i of passed) {
        const call = calls[i];
        const result = failure === undefined && Array.isArray(answered)
          ? answered.find((r) => r?.callId === call.id)
          : undefined;
        results[i] = result ?? {
          callId: call.id,
          isError: true,
          content: failure ??
            `The tool provider under the policy gave no result for call "${call.id}" of tool "${call.name}"`,
        };
      }
    }
    return results as ToolResult[];
  }

  #visible(specs: readonly ToolSpec[]): readonly ToolSpec[] {
    if (!Array.isArray(specs)) {
      throw new TypeError(
        "The tool provider under a ToolPolicy gave no array from listTools(); it must return an array of tool specs, or a promise of one",
      );
    }
    return specs.filter((spec) => this.#refusal(spec.name) === undefined);
  }

  // Why the policy refuses `name` outright, or undefined when it does not.
  #refusal(name: string): string | undefined {
    if (this.#deny.has(name)) return `Refused: tool "${name}" is denied by the tool policy`;
    const allow = this.#allow;
    if (allow !== undefined && !allow.has(name)) {
      return `Refused: tool "${name}" is not allowed by the tool policy (allowed: ${
        [...allow].join(", ") || "none"
      })`;
    }
    return undefined;
  }

  // The refusal of a call the human did not approve, or undefined to go ahead.
  async #ask(call: ToolCall, ctx: Ctx): Promise<string | undefined> {
    if (!this.#approve.has(call.name)) return undefined;
    const asker = ctx.asker;
    if (!asker) throw new NoAsker(call.name, "a ToolPolicy lists it in approve");
    try {
      return await untilAborted(askApproval(asker, call.name, argsOf(call), ctx), ctx.signal);
    } catch (error) {
      rethrowIfFatal(error);
      if (ctx.signal.aborted) return `Cancelled: ${messageOf(ctx.signal.reason)}`;
      return `Refused: tool "${call.name}" needs approval, and asking failed: ${messageOf(error)}`;
    }
  }
}

function namesOf(names: ToolNames | undefined): ReadonlySet<string> {
  if (names === undefined) return new Set();
  return new Set(typeof names === "string" ? [names] : names);
}

// The arguments the human is shown: the call's, or its raw text parsed.
function argsOf(call: ToolCall): unknown {
  if (call.rawArgs === undefined) return call.args;
  try {
    return JSON.parse(call.rawArgs);
  } catch {
    return call.rawArgs;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
