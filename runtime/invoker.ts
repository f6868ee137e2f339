/**
 * The invoker: the model and tool calls of a run, each through its chain.
 *
 * @module
 */
import type { ChatRequest, ChatResponse } from "../ports/chat.ts";
import type { LLMPort } from "../ports/llm.ts";
import type { StreamEvent } from "../ports/stream_event.ts";
import type { RunContext } from "./context.ts";
import { UnmeteredBudget } from "./errors.ts";
import type { Span } from "../ports/trace.ts";
import { inSpan, spanEnded, spanFailed } from "./_span.ts";
import { underRefusal } from "./_ambient.ts";
import {
  adopt,
  callNow,
  CHAT_NOW,
  chatNow,
  type Now,
  offerNow,
  promised,
  throughPublic,
  TOOL_NOW,
} from "./_now.ts";
import { chatStageOf, type NowNext } from "./middleware/_chat_stage.ts";
import { drive, type OpenNext, source, stageOf } from "./middleware/_stream_stage.ts";
import type {
  ChatMiddleware,
  ToolInvocation,
  ToolMiddleware,
  ToolNext,
} from "./middleware/types.ts";
import { checkOptions, describe, is, type Rule } from "./_options.ts";

const INVOKER_OPTIONS: Readonly<Record<string, Rule>> = {
  llm: is.port("an LLMPort", ["chat"]),
  chatMiddleware: is.arrayOf(is.middleware("chat")),
  toolMiddleware: is.arrayOf(is.middleware("tool")),
};

/** Options for {@linkcode Invoker}. */
export interface InvokerOptions {
  /** The model. */
  readonly llm: LLMPort;
  /** Wraps every model call, outermost first. */
  readonly chatMiddleware?: readonly ChatMiddleware[];
  /** Wraps every tool call, outermost first. */
  readonly toolMiddleware?: readonly ToolMiddleware[];
}

/**
 * Calls the model and tools through their middleware chains. The chains are
 * composed once, here, not per call.
 *
 * @example
 * ```ts
 * import { Invoker, RunContext, Services, retry } from "@agentkit/testing/runtime";
 * import { FakeLLM } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const invoker = new Invoker({ llm: new FakeLLM("hi"), chatMiddleware: [retry()] });
 * const ctx = new RunContext({ services: new Services({ invoker }) });
 * const res = await invoker.chat({ model: "fake-model", messages: [{ role: "user", content: "x" }] }, ctx);
 * assertEquals(res.content, "hi");
 * ```
 */
export class Invoker {
  /** The model. */
  readonly llm: LLMPort;
  /** The chat chain, outermost first. */
  readonly chatMiddleware: readonly ChatMiddleware[];
  /** The tool chain, outermost first. */
  readonly toolMiddleware: readonly ToolMiddleware[];
  /** Whether a middleware in the chat chain charges meters. */
  readonly metered: boolean;
  // The chains, composed on first use: most invokers built in a test serve
  // one kind of call, or none.
  #chat?: NowNext;
  #open?: OpenNext;
  #tool?: NowTool;

  /**
   * Checks every middleware here, so a malformed one throws now, not on the first call; each chain is composed once, on its first use.
   *
   * @param options The model and the two chains.
   */
  constructor(options: InvokerOptions) {
    if (
      options === undefined || options === null ||
      (typeof options === "object" && !Array.isArray(options) && !options.llm)
    ) {
      throw new TypeError("Cannot build an Invoker without an llm: pass new Invoker({ llm })");
    }
    checkOptions("new Invoker()", options, INVOKER_OPTIONS);
    const { llm } = options;
    this.llm = llm;
    this.chatMiddleware = options.chatMiddleware ? [...options.chatMiddleware] : [];
    this.toolMiddleware = options.toolMiddleware ? [...options.toolMiddleware] : [];
    let metered = false;
    for (const mw of this.chatMiddleware) metered = checkMiddleware(mw) || metered;
    for (const mw of this.toolMiddleware) checkMiddleware(mw);
    this.metered = metered;
  }

  // A built-in middleware's layer passes a ready answer on as is (see
  // ./middleware/_chat_stage.ts).
  #composeChat(): NowNext {
    const llm = this.llm;
    let chat: NowNext = (req, ctx) => chatNow(llm, req, ctx);
    for (let i = this.chatMiddleware.length - 1; i >= 0; i--) {
      const stage = chatStageOf(this.chatMiddleware[i]);
      if (stage) {
        const next = chat;
        chat = (req, ctx) => stage(req, ctx, next);
      }
    }
    return chat;
  }

  #composeStream(): OpenNext {
    const llm = this.llm;
    let open: OpenNext = (req, ctx) => source(llm.stream(req, ctx));
    for (let i = this.chatMiddleware.length - 1; i >= 0; i--) {
      const stage = stageOf(this.chatMiddleware[i]);
      if (stage) {
        const next = open;
        open = (req, ctx) => stage(req, ctx, next);
      }
    }
    return open;
  }

  // A tool's ready value passes the chain as is; a tool middleware (a
  // promise API) pays for its promise.
  #composeTool(): NowTool {
    let tool: NowTool = (inv, ctx) => callNow(inv.tool, inv.args, ctx);
    for (let i = this.toolMiddleware.length - 1; i >= 0; i--) {
      const mw = this.toolMiddleware[i];
      const next = tool;
      const handler = mw.call.bind(mw);
      const promisedNext: ToolNext = (inv, ctx) => promised(() => next(inv, ctx));
      tool = (inv, ctx) => adopt(handler(inv, ctx, promisedNext));
    }
    return tool;
  }

  /**
   * One blocking model call through the chat chain, in an `llm` span.
   * @param request The request: a `ChatRequest` (an object with a `messages` array).
   * @param ctx The run.
   * @returns The response.
   * @throws {UnmeteredBudget} When the run has meters and no `meter()`.
   * @throws {TypeError} When the request is not a `ChatRequest` or `ctx` not a `RunContext`.
   */
  chat(request: ChatRequest, ctx: RunContext): Promise<ChatResponse> {
    return promised(() => this.#chatNow(request, ctx));
  }

  #chatNow(request: ChatRequest, ctx: RunContext): Now<ChatResponse> {
    checkCall("Invoker.chat()", request, ctx);
    if (ctx.allMeters.length > 0 && !this.metered) throw new UnmeteredBudget();
    const span = ctx.trace.span("chat", "llm", { "gen_ai.request.model": request.model });
    return inSpan(span, this.#chat ??= this.#composeChat(), request, ctx, answered);
  }

  /**
   * One streamed model call through the chat chain, in an `llm` span.
   * @param request The request: a `ChatRequest` (an object with a `messages` array).
   * @param ctx The run.
   * @returns The events.
   * @throws {UnmeteredBudget} When the run has meters and no `meter()`.
   * @throws {TypeError} When the request is not a `ChatRequest` or `ctx` not a `RunContext`.
   */
  stream(
    request: ChatRequest,
    ctx: RunContext,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    let span: Span | undefined;
    return drive(() => {
      checkCall("Invoker.stream()", request, ctx);
      if (ctx.allMeters.length > 0 && !this.metered) throw new UnmeteredBudget();
      span = ctx.trace.span("chat", "llm", {
        "gen_ai.request.model": request.model,
        streaming: true,
      });
      return (this.#open ??= this.#composeStream())(request, ctx);
    }, () => span?.end());
  }

  /**
   * One tool call through the tool chain, in a `tool` span.
   * @param invocation The tool, the call and its validated arguments (`{ tool, call, args }`).
   * @param ctx The run.
   * @returns What the tool returned.
   */
  callTool(invocation: ToolInvocation, ctx: RunContext): Promise<unknown> {
    return promised(() => this.#callToolNow(invocation, ctx));
  }

  #callToolNow(invocation: ToolInvocation, ctx: RunContext): Now<unknown> {
    if (
      typeof invocation?.tool?.call !== "function" || invocation.call === null ||
      typeof invocation.call !== "object"
    ) badInvocation(invocation);
    checkCtx("Invoker.callTool()", ctx);
    const span = ctx.trace.span("execute_tool", "tool", {
      "gen_ai.tool.name": invocation.tool.name,
      "gen_ai.tool.call.id": invocation.call.id,
    });
    const tool = this.#tool ??= this.#composeTool();
    // A tool under a test context runs with it ambient: a port it calls
    // without a context still meets the test's guard.
    if (ctx.allowModelRequests === false) return refusing(span, tool, invocation, ctx);
    return inSpan(span, tool, invocation, ctx, spanEnded);
  }

  static {
    // The runtime's own callers take a ready answer as is (see ./_now.ts).
    const { chat, callTool } = this.prototype;
    const readyChat = function (this: Invoker, r: ChatRequest, c: RunContext): Now<ChatResponse> {
      return this.chat === chat ? this.#chatNow(r, c) : throughPublic(this, this.chat, r, c);
    };
    const readyTool = function (this: Invoker, i: ToolInvocation, c: RunContext): Now<unknown> {
      return this.callTool === callTool
        ? this.#callToolNow(i, c)
        : throughPublic(this, this.callTool, i, c);
    };
    offerNow(this.prototype, CHAT_NOW, readyChat);
    offerNow(this.prototype, TOOL_NOW, readyTool);
  }
}

type NowTool = (invocation: ToolInvocation, ctx: RunContext) => Now<unknown>;

// A model call's span ends with the answer's finish reason.
function answered(span: Span, res: ChatResponse): ChatResponse {
  try {
    span.setAttribute("gen_ai.response.finish_reason", res.finishReason);
  } catch (error) {
    spanFailed(span, error);
  }
  span.end();
  return res;
}

// A tool call under a context that refuses real model requests. Apart from
// #callToolNow, as its closure is: the method runs on every tool call, and
// kept small V8 inlines it into the loop (issue 39).
function refusing(
  span: Span,
  tool: NowTool,
  invocation: ToolInvocation,
  ctx: RunContext,
): Now<unknown> {
  return underRefusal(() => inSpan(span, tool, invocation, ctx, spanEnded));
}

// The messages of a bad call are built out of line: their code, in the
// methods every call runs, would keep V8 from inlining what follows.
function badInvocation(invocation: unknown): never {
  throw new TypeError(
    `Invoker.callTool(): the invocation must be { tool, call, args } with a ToolPort and its ToolCall, got ${
      describe(invocation)
    }`,
  );
}

// Checks one middleware; returns whether it charges meters.
function checkMiddleware(mw: ChatMiddleware | ToolMiddleware): boolean {
  if (!mw || typeof mw !== "object" || typeof mw.name !== "string") {
    throw new TypeError(
      `Cannot build an Invoker: every middleware must be an object with a name (did you pass retry instead of retry()?), got ${
        String(mw)
      }`,
    );
  }
  return (mw as ChatMiddleware).charges === true;
}

// A request and a run context, checked where the invoker is called: a
// wrong one would otherwise fail deep in a middleware, or in a span.
function checkCall(where: string, request: ChatRequest, ctx: RunContext): void {
  if (request === null || typeof request !== "object" || !Array.isArray(request.messages)) {
    badRequest(where, request);
  }
  checkCtx(where, ctx);
}

function checkCtx(where: string, ctx: RunContext): void {
  if (!Array.isArray(ctx?.allMeters) || typeof ctx.trace?.span !== "function") badCtx(where, ctx);
}

function badRequest(where: string, request: unknown): never {
  throw new TypeError(
    `${where}: the request must be a ChatRequest ({ model, messages: [...] }), got ${
      describe(request)
    }`,
  );
}

function badCtx(where: string, ctx: unknown): never {
  throw new TypeError(
    `${where}: ctx must be a RunContext (makeTestCtx() in tests), got ${describe(ctx)}`,
  );
}
