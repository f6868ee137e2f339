/**
 * The ReAct tool loop.
 *
 * @module
 */
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { Ctx } from "../../ports/context.ts";
import type { ToolPort, ToolProvider } from "../../ports/tool.ts";
import type { ToolSpec } from "../../ports/tool_spec.ts";
import { addUsage, type FinishReason, type Usage, ZERO_USAGE } from "../../ports/usage.ts";
import { modelCall, ModelTurn } from "./_model_call.ts";
import { assistantMessage, toolMessage } from "./_loop_message.ts";
import type { RunContext } from "../context.ts";
import { NoAsker, ToolArgsInvalid, ToolTimeout, UnknownTool } from "../errors.ts";
import { appendOnly, release } from "../_append_only.ts";
import { untilAborted } from "../_until_aborted.ts";
import { linkSignal } from "../_link_signal.ts";
import { nextOf, PULL, pull, thenStep } from "../stream/_pull.ts";
import { type Now, promised, toolNow } from "../_now.ts";
import type { Invoker } from "../invoker.ts";
import { underRefusal } from "../_ambient.ts";
import { preview } from "../_preview.ts";
import { rethrowIfFatal } from "../harness_error.ts";
import { type PreparedTool, prepareTool } from "../tools/tool_schema.ts";
import { askApproval } from "../tools/_approval.ts";
import type { Cognition, CognitionInput, CognitionResult } from "./cognition.ts";
import { stopReasonOf } from "./cognition.ts";
import { checkOptions, type CheckSettings, is, ports, type Rule } from "../_options.ts";

/** Options for {@linkcode ReActCognition}: give `tools` or `provider`. */
export interface ReActOptions {
  /** Tools run in-process through the invoker's tool chain. */
  readonly tools?: readonly ToolPort[];
  /** A batch tool provider (an MCP client); its calls go one at a time. */
  readonly provider?: ToolProvider;
  /**
   * Model calls at most; reaching it ends the run with `"max_iterations"`.
   * @default {10}
   */
  readonly maxIterations?: number;
  /** A deadline per tool call on `ctx.clock`; a late call becomes an error tool message. */
  readonly toolTimeoutMs?: number;
}

const REACT_OPTIONS: Readonly<Record<string, Rule>> = {
  tools: is.arrayOf(ports.tool),
  provider: ports.provider,
  maxIterations: is.number({ min: 1, integer: true }),
  toolTimeoutMs: is.positiveMs,
};
const REACT_HINTS: CheckSettings = {
  hints: { tool: 'did you mean "tools"? (an array: { tools: [myTool] })' },
};

// The loop's ways into its cognition's private steps (set by its static block).
let afterTurn: (
  cognition: ReActCognition,
  turn: ModelTurn,
  messages: Message[],
  ctx: RunContext,
  agent: string,
) => Now<CognitionResult["stopReason"] | undefined>;
let syncGrants: (
  cognition: ReActCognition,
  ctx: RunContext,
  agent: string,
) => Promise<void> | undefined;

/**
 * The reason-and-act loop: call the model with the tools; run the tool calls
 * it asks for, one at a time, and give it the results; repeat until it
 * answers without tools. A failing tool becomes a tool message the model
 * sees (harness errors and cancellation still escape), as does a call
 * whose arguments are not JSON or break the schema, or that names an unknown
 * tool or none. A length-truncated turn dispatches nothing and ends with
 * `stopReason: "length"`; an empty answer, a refusal and a filtered answer
 * end with `stopReason: "error"` and an observation (`empty_answer`,
 * `model_refusal`, `content_filter`). Calls of one turn that repeat an id
 * each run once, under ids made unique (docs/misbehave.md).
 *
 * @example A scripted tool loop
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const tool = new FakeTool({ name: "lookup_cert", responder: { notAfter: "2026-08-01" } });
 * const llm = FakeLLM.script([
 *   { toolCalls: [toolCall("c1", "lookup_cert", { host: "example.com" })] },
 *   { content: "The certificate expired on 2026-08-01." },
 * ]);
 * const agent = new Agent("sre", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) });
 * const result = await agent.run("Why did the deploy fail?", makeTestCtx({ llm }));
 * assertEquals(result.output, "The certificate expired on 2026-08-01.");
 * assertEquals(tool.calls, [{ host: "example.com" }]);
 * assertEquals(llm.calls, 2);
 * ```
 */
export class ReActCognition implements Cognition {
  /** `"react"`. */
  readonly name: string = "react";
  /** The model-call limit. */
  readonly maxIterations: number;
  /** The per-call deadline, if any. */
  readonly toolTimeoutMs?: number;
  readonly #tools: Map<string, PreparedTool>;
  readonly #provider?: ToolProvider;
  readonly #specs: readonly ToolSpec[];

  /**
   * Prepares every tool's schema here; tools and provider together, or two tools of one name, throw.
   *
   * @param options Tools or provider, and limits.
   */
  constructor(options: ReActOptions = {}) {
    checkOptions("new ReActCognition()", options, REACT_OPTIONS, REACT_HINTS);
    if (options.tools && options.provider) {
      throw new TypeError(
        "Cannot build a ReActCognition with both tools and provider: pass one of them",
      );
    }
    // The options check has refused a maxIterations or toolTimeoutMs out of range.
    this.maxIterations = options.maxIterations ?? 10;
    this.toolTimeoutMs = options.toolTimeoutMs;
    this.#provider = options.provider;
    this.#tools = new Map();
    for (const tool of options.tools ?? []) {
      const prepared = prepareTool(tool);
      if (this.#tools.has(prepared.spec.name)) {
        throw new TypeError(
          `Cannot build a ReActCognition: two tools are named "${prepared.spec.name}"; tool names must be unique`,
        );
      }
      this.#tools.set(prepared.spec.name, prepared);
    }
    this.#specs = this.#provider ? [] : [...this.#tools.values()].map((t) => t.spec);
  }

  /**
   * The tool specs the model is offered: the tools' own, or what the
   * provider lists (a promise when the provider has to ask a server).
   */
  specs(ctx?: Ctx): readonly ToolSpec[] | Promise<readonly ToolSpec[]> {
    return this.#provider ? this.#provider.listTools(ctx) : this.#specs;
  }

  /**
   * Runs the loop, yielding every model event, and returns the transcript
   * with the tools' messages. Under `agent.run` (`input.streaming` false)
   * the model calls are blocking ones.
   *
   * @param input The agent, the task and the composed transcript.
   * @param ctx The run.
   * @returns The events, then the result.
   */
  stream(
    input: CognitionInput,
    ctx: RunContext,
  ): AsyncGenerator<StreamEvent, CognitionResult, undefined> {
    return new ReActLoop(this, input, ctx);
  }

  static {
    // The loop reaches the private steps through these, set once here.
    afterTurn = (cognition, turn, messages, ctx, agent) =>
      cognition.#afterTurn(turn, messages, ctx, agent);
    syncGrants = (cognition, ctx, agent) =>
      cognition.#provider ? cognition.#syncGrants(ctx, agent) : undefined;
  }

  // Records the assistant turn and runs its tools; returns a stop reason when
  // the loop should end. Tools that answer at once are run without a promise
  // (see ../_now.ts). A turn whose calls do not run (cut at the token limit,
  // filtered, failed) is recorded without them: a call left unanswered in
  // the transcript would make the next request invalid on every provider.
  #afterTurn(
    turn: ModelTurn,
    messages: Message[],
    ctx: RunContext,
    agent: string,
  ): Now<CognitionResult["stopReason"] | undefined> {
    const finish = turn.finish!;
    const calls = turn.calls;
    if (
      calls.length === 0 || finish === "length" || finish === "content_filter" || finish === "error"
    ) return this.#noCalls(turn, finish, messages, ctx, agent);
    // A copy the size of the calls: the turn's array was grown by pushes
    // and holds spare room, which a long transcript would keep per step.
    // One call cannot repeat an id; the rarer paths are methods of their
    // own, so V8 inlines this step of every turn (issue 39).
    const renamed = calls.length > 1 ? uniqueIds(calls) : undefined;
    const own = renamed ?? calls.slice();
    messages.push(assistantMessage(turn.content, own, turn.providerData));
    if (renamed === undefined) return this.#runTools(own, 0, messages, ctx, agent);
    return this.#runRenamed(calls, own, messages, ctx, agent);
  }

  // Calls whose repeated ids were replaced: each replacement is reported,
  // then the calls run.
  #runRenamed(
    calls: readonly ToolCall[],
    own: readonly ToolCall[],
    messages: Message[],
    ctx: RunContext,
    agent: string,
  ): Promise<undefined> {
    return reportRenamed(calls, own, ctx, agent).then(() =>
      this.#runTools(own, 0, messages, ctx, agent)
    );
  }

  // How a turn that runs no tool ends the run, recorded without calls: a
  // length cut with "length"; a refusal, a content filter, a failed turn and
  // an empty answer (thinking alone included) with "error", each observed by
  // its kind; an answer with "stop".
  #noCalls(
    turn: ModelTurn,
    finish: FinishReason,
    messages: Message[],
    ctx: RunContext,
    agent: string,
  ): Now<CognitionResult["stopReason"]> {
    messages.push(assistantMessage(turn.content, undefined, turn.providerData));
    if (finish === "length") return "length";
    if (finish === "content_filter") {
      const kind = turn.refusal ? "model_refusal" : "content_filter";
      const text = turn.refusal
        ? `the model refused to answer: ${turn.content}`
        : "the provider's content filter withheld the answer";
      return ctx.emit(kind, text, { agent }).then(() => "error");
    }
    if (finish === "error" || turn.content !== "") return stopReasonOf(finish);
    const text = turn.reasoned
      ? "the model thought but gave no answer and called no tool"
      : "the model gave no answer and called no tool";
    return ctx.emit("empty_answer", text, { payload: { reasoning: turn.reasoned }, agent })
      .then(() => "error");
  }

  // The calls from `from` on, one after the other, each answer appended.
  #runTools(
    calls: readonly ToolCall[],
    from: number,
    messages: Message[],
    ctx: RunContext,
    agent: string,
  ): Now<undefined> {
    for (let i = from; i < calls.length; i++) {
      ctx.checkCancelled();
      const message = this.#dispatch(calls[i], ctx, agent);
      if (message instanceof Promise) {
        return message.then((m) => {
          messages.push(m);
          return this.#runTools(calls, i + 1, messages, ctx, agent);
        });
      }
      messages.push(message);
    }
    return undefined;
  }

  async #syncGrants(ctx: RunContext, agent: string): Promise<void> {
    const provider = this.#provider;
    if (provider && typeof provider.grants === "function") {
      const grants = await provider.grants();
      await ctx.emit("grants", `tool grants: ${grants.join(", ") || "none"}`, {
        payload: [...grants],
        agent,
      });
    }
  }

  // One tool call's message: its answer, or the error shown to the model.
  #dispatch(call: ToolCall, ctx: RunContext, agent: string): Now<Message> {
    if (ctx.autonomy === "manual" || this.toolTimeoutMs !== undefined) {
      return this.#dispatchWaiting(call, ctx, agent);
    }
    let content: Now<string>;
    try {
      content = this.#execute(call, ctx, agent);
    } catch (error) {
      return this.#toolFailed(error, call, ctx, agent);
    }
    if (content instanceof Promise) {
      return untilAborted(content, ctx.signal).then(
        (c) => toolMessage(c, call.id),
        (error) => this.#toolFailed(error, call, ctx, agent),
      );
    }
    // An answer at once still loses to a cancellation that came meanwhile.
    if (ctx.signal.aborted) return this.#toolFailed(ctx.signal.reason, call, ctx, agent);
    return toolMessage(content, call.id);
  }

  // A call that asks for approval first, or runs against a deadline.
  async #dispatchWaiting(call: ToolCall, ctx: RunContext, agent: string): Promise<Message> {
    const ms = this.toolTimeoutMs;
    try {
      // Approval comes first: a human's thinking time is not the tool's, so
      // it does not count against the tool's deadline.
      const denial = ctx.autonomy === "manual"
        ? await untilAborted(this.#approve(call, ctx, agent), ctx.signal)
        : undefined;
      if (denial !== undefined) return toolMessage(denial, call.id);
      const content = ms === undefined
        ? await untilAborted(promised(() => this.#execute(call, ctx, agent)), ctx.signal)
        : await this.#withDeadline(call, ctx, agent, ms);
      return toolMessage(content, call.id);
    } catch (error) {
      return await this.#toolFailed(error, call, ctx, agent);
    }
  }

  // A failed call: a fatal error (or a cancellation) ends the run; any other
  // is reported and shown to the model.
  async #toolFailed(
    error: unknown,
    call: ToolCall,
    ctx: RunContext,
    agent: string,
  ): Promise<Message> {
    rethrowIfFatal(error, ctx.signal);
    const message = error instanceof Error ? error.message : String(error);
    await ctx.emit("tool_error", message, {
      payload: { tool: call.name, callId: call.id },
      agent,
    });
    return toolMessage(`Error: ${message}`, call.id, true);
  }

  async #withDeadline(call: ToolCall, ctx: RunContext, agent: string, ms: number): Promise<string> {
    const link = linkSignal([ctx.signal]);
    const controller = link.controller;
    const callCtx = ctx.with({ signal: controller.signal });
    const deadline = ctx.clock.sleep(ms, controller.signal).then(() => {
      throw new ToolTimeout(call.name, ms);
    });
    try {
      return await Promise.race([this.#execute(call, callCtx, agent), deadline]);
    } finally {
      link.unlink();
      if (!controller.signal.aborted) controller.abort(new ToolTimeout(call.name, ms));
      deadline.catch(() => {});
    }
  }

  // Under manual autonomy, asks the asker about a tool that needs approval;
  // resolves the tool message of a refusal, or undefined to go ahead.
  async #approve(call: ToolCall, ctx: RunContext, agent: string): Promise<string | undefined> {
    if (this.#provider) return undefined;
    const prepared = this.#tools.get(call.name);
    if (!prepared?.tool.requiresApproval) return undefined;
    const args = argsOf(prepared, call);
    const asker = ctx.asker;
    if (!asker) throw new NoAsker(call.name);
    return await askApproval(asker, call.name, args, ctx, agent);
  }

  // The tool's answer as text; as is when the tool answered at once.
  #execute(call: ToolCall, ctx: RunContext, agent: string): Now<string> {
    if (this.#provider) return this.#executeByProvider(call, ctx);
    const prepared = this.#tools.get(call.name);
    if (!prepared) throw new UnknownTool(call.name, [...this.#tools.keys()]);
    const args = argsOf(prepared, call);
    const value = toolNow(ctx.requireInvoker(agent), { tool: prepared.tool, call, args }, ctx);
    return value instanceof Promise ? value.then(asText) : asText(value);
  }

  async #executeByProvider(call: ToolCall, ctx: RunContext): Promise<string> {
    const provider = this.#provider!;
    // As for in-process tools (see Invoker.callTool): the test's guard follows the call.
    const [result] = ctx.allowModelRequests === false
      ? await underRefusal(() => provider.executeToolCalls([call], ctx))
      : await provider.executeToolCalls([call], ctx);
    if (!result) throw new Error(`The tool provider returned no result for call "${call.id}"`);
    if (result.isError) throw new Error(result.content);
    return result.content;
  }
}

// What a tool returned, as the text the model reads.
function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

const FRESH = 0;
const RUNNING = 1;
const ENDED = 2;

type LoopStep = IteratorResult<StreamEvent, CognitionResult>;
type Ready = LoopStep | Promise<LoopStep>;

// ReAct's loop, hand-written rather than an async generator: every model
// event of the run crosses it, and a ready one (a scripted double has them
// all ready) passes through without a promise. It keeps the generator's
// contract for its one consumer, the agent: the loop starts on the first
// step, the transcript is released however it ends, and return() or a
// failure closes the model call under way.
class ReActLoop implements AsyncGenerator<StreamEvent, CognitionResult, undefined> {
  readonly #cognition: ReActCognition;
  readonly #input: CognitionInput;
  readonly #ctx: RunContext;
  #state = FRESH;
  #invoker: Invoker | undefined;
  #messages: Message[] | undefined;
  #tools: readonly ToolSpec[] = [];
  #usage: Usage = ZERO_USAGE;
  #output = "";
  #i = 0;
  #turn: ModelTurn | undefined;
  #events: AsyncIterator<StreamEvent, unknown, undefined> | undefined;
  // Whether the model call's stream ended or threw (it is not closed then).
  #finished = true;

  constructor(cognition: ReActCognition, input: CognitionInput, ctx: RunContext) {
    this.#cognition = cognition;
    this.#input = input;
    this.#ctx = ctx;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<LoopStep> {
    return nextOf(() => this[PULL]());
  }

  [PULL](): Ready {
    if (this.#state === ENDED) return { done: true, value: undefined as never };
    try {
      if (this.#state === RUNNING) return this.#pump();
      this.#state = RUNNING;
      return this.#begin();
    } catch (error) {
      return this.#fail(error);
    }
  }

  // What happens once `p` settles; a failure there fails the loop.
  #then<T>(p: Promise<T>, next: (value: T) => Ready): Promise<LoopStep> {
    return thenStep(p, next, (error) => this.#fail(error));
  }

  #begin(): Ready {
    const input = this.#input;
    const ctx = this.#ctx;
    this.#invoker = ctx.requireInvoker(input.agent.name);
    // The loop only appends to its transcript until it returns it, which lets
    // a recording double keep one copy of it (see ../_append_only.ts).
    this.#messages = appendOnly([...input.messages]);
    const specs = this.#cognition.specs(ctx);
    // The array of a `tools: [...]` agent or a ready provider goes straight
    // on; only a provider that has to ask (an MCP server) costs a wait.
    if (Array.isArray(specs)) return this.#listed(specs);
    return this.#then(Promise.resolve(specs), (listed) => this.#listed(listed));
  }

  // The tools are known: grants are synchronised, then the first model call.
  #listed(specs: readonly ToolSpec[]): Ready {
    if (!Array.isArray(specs)) notSpecs(specs);
    this.#tools = specs;
    const grants = syncGrants(this.#cognition, this.#ctx, this.#input.agent.name);
    return grants ? this.#then(grants, () => this.#call()) : this.#call();
  }

  // The next model call, or the end at maxIterations.
  #call(): Ready {
    if (this.#i >= this.#cognition.maxIterations) return this.#end("max_iterations");
    this.#i++;
    const input = this.#input;
    const ctx = this.#ctx;
    ctx.checkCancelled();
    this.#turn = new ModelTurn();
    const request = {
      messages: this.#messages!,
      model: input.agent.model,
      tools: this.#tools,
      settings: input.settings,
    };
    this.#events = modelCall(this.#invoker!, request, ctx, input.streaming !== false)[
      Symbol.asyncIterator
    ]();
    this.#finished = false;
    return this.#pump();
  }

  // The model call's next event, folded into its turn as it passes.
  #pump(): Ready {
    let step;
    try {
      step = pull(this.#events!);
    } catch (error) {
      this.#finished = true; // a stream that threw is not closed
      throw error;
    }
    if (step instanceof Promise) {
      return step.then((s) => {
        try {
          return this.#took(s);
        } catch (error) {
          return this.#fail(error);
        }
      }, (error) => {
        this.#finished = true;
        return this.#fail(error);
      });
    }
    return this.#took(step);
  }

  #took(step: IteratorResult<StreamEvent, unknown>): Ready {
    if (!step.done) {
      this.#turn!.add(step.value);
      return step as LoopStep;
    }
    this.#finished = true;
    const turn = this.#turn!;
    if (turn.usage) this.#usage = addUsage(this.#usage, turn.usage);
    if (turn.error) {
      // A turn cut off at the token limit is a result: its text so far,
      // if it streamed any, and nothing added to the transcript (its tool
      // calls may be cut too). Any other failure is the run's.
      if (turn.error.finishReason !== "length") throw turn.error.error;
      if (turn.content) this.#output = turn.content;
      return this.#end("length");
    }
    this.#output = turn.content;
    if (turn.finish === undefined) {
      // A stream that just stopped (no message_end) ends the loop as it
      // stands: its tool calls were never confirmed, so none runs.
      this.#messages!.push(assistantMessage(this.#output));
      return this.#end("stop");
    }
    const after = afterTurn(
      this.#cognition,
      turn,
      this.#messages!,
      this.#ctx,
      this.#input.agent.name,
    );
    if (after instanceof Promise) {
      return this.#then(after, (stop) => stop ? this.#end(stop) : this.#call());
    }
    return after ? this.#end(after) : this.#call();
  }

  #end(stopReason: CognitionResult["stopReason"]): LoopStep {
    this.#state = ENDED;
    const messages = this.#messages!;
    release(messages);
    return {
      done: true,
      value: { output: this.#output, usage: this.#usage, messages, stopReason },
    };
  }

  // The loop failed: the model call under way is closed, the transcript
  // released, and `error` thrown (or what closing the call threw).
  #fail(error: unknown): Promise<never> {
    this.#state = ENDED;
    return this.#close().then(() => {
      throw error;
    });
  }

  async #close(): Promise<void> {
    try {
      if (!this.#finished) {
        this.#finished = true;
        await this.#events?.return?.();
      }
    } finally {
      if (this.#messages) release(this.#messages);
    }
  }

  async return(value?: CognitionResult | PromiseLike<CognitionResult>): Promise<LoopStep> {
    const state = this.#state;
    this.#state = ENDED;
    if (state === RUNNING) await this.#close();
    return { done: true, value: (await value) as CognitionResult };
  }

  async throw(error: unknown): Promise<LoopStep> {
    const state = this.#state;
    this.#state = ENDED;
    if (state === RUNNING) await this.#close();
    throw error;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }
}

// The tool call's arguments: the raw JSON when scripted so, validated.
function argsOf(prepared: PreparedTool, call: ToolCall): Record<string, unknown> {
  let raw: unknown = call.args;
  if (call.rawArgs !== undefined) {
    try {
      raw = JSON.parse(call.rawArgs);
    } catch (error) {
      throw new ToolArgsInvalid(
        call.name,
        `the arguments are not valid JSON (${(error as Error).message}): ${call.rawArgs}`,
      );
    }
  }
  return prepared.parse(raw);
}

// A provider's listTools() that gave no array. Out of line: the message's
// code, in the step every run takes, would keep V8 from inlining the first
// model call into it (issue 39).
function notSpecs(specs: unknown): never {
  throw new TypeError(
    `The tool provider's listTools() gave ${
      preview(specs)
    }; it must return an array of tool specs, or a promise of one`,
  );
}

// The calls with every id unique, or undefined when no id repeats: a later
// call that repeats an earlier id of the turn gets the id with a suffix
// (`call_1_2`, in the pattern every provider accepts), so each call runs
// once and gets exactly one result, matched by id.
function uniqueIds(calls: readonly ToolCall[]): ToolCall[] | undefined {
  // One call cannot repeat an id: the common turn pays for no set.
  if (calls.length < 2) return undefined;
  const taken = new Set<string>();
  let given: Set<string> | undefined;
  let out: ToolCall[] | undefined;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    if (!taken.has(call.id)) {
      taken.add(call.id);
      continue;
    }
    given ??= new Set(calls.map((c) => c.id));
    out ??= calls.slice();
    let n = 2;
    while (given.has(`${call.id}_${n}`) || taken.has(`${call.id}_${n}`)) n++;
    const id = `${call.id}_${n}`;
    taken.add(id);
    out[i] = { ...call, id };
  }
  return out;
}

// Observes each call whose repeated id was replaced.
async function reportRenamed(
  calls: readonly ToolCall[],
  own: readonly ToolCall[],
  ctx: RunContext,
  agent: string,
): Promise<void> {
  for (let i = 0; i < calls.length; i++) {
    if (calls[i].id === own[i].id) continue;
    await ctx.emit(
      "duplicate_call_id",
      `the model gave call ${i + 1} of the turn the id "${
        calls[i].id
      }" of an earlier call; it runs as "${own[i].id}"`,
      { payload: { callId: calls[i].id, renamed: own[i].id, tool: calls[i].name }, agent },
    );
  }
}
