import * as A from "@std/assert";
import * as R from "@agentkit/testing/runtime";
import * as K from "@agentkit/testing/testing";
import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Budget,
  type ChatMiddleware,
  Invoker,
  meter,
  retry,
  RunContext,
  Services,
  type ToolMiddleware,
  UnmeteredBudget,
} from "@agentkit/testing/runtime";
import type { ChatRequest, ChatResponse, StreamEvent } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, RecordingTracer } from "@agentkit/testing/testing";
import { isInternalError } from "../fuzz/_fuzz.ts";
import { chatNow } from "../../runtime/_now.ts";

const request: ChatRequest = { model: "fake-model", messages: [{ role: "user", content: "x" }] };

function ctxOf(invoker: Invoker, extra: { budget?: Budget; trace?: RecordingTracer } = {}) {
  return new RunContext({
    services: new Services({ invoker, ...(extra.trace ? { trace: extra.trace } : {}) }),
    budget: extra.budget,
  });
}

// A chat middleware that records the order of both paths.
function tag(name: string, order: string[]): ChatMiddleware {
  return {
    name,
    async chat(req, ctx, next) {
      order.push(`${name}>`);
      const res = await next(req, ctx);
      order.push(`<${name}`);
      return res;
    },
    async *stream(req, ctx, next) {
      order.push(`${name}>`);
      for await (const event of next(req, ctx)) {
        yield event.type === "text_delta"
          ? { ...event, content: `${event.content}+${name}` }
          : event;
      }
      order.push(`<${name}`);
    },
  };
}

Deno.test("new Invoker() without an llm, or with no options at all, is a TypeError naming llm", () => {
  for (const options of [undefined, null, {}, { chatMiddleware: [] }]) {
    const error = assertThrows(() => new Invoker(options as never), TypeError);
    // The package's own error, not a crash from inside ("Cannot read properties of undefined").
    assert(error.message.includes("llm") && !isInternalError(error), error.message);
  }
  assertThrows(() => new Invoker([] as never), TypeError);
  assertThrows(() => new Invoker({ llm: {} as never }), TypeError);
  assertThrows(() => new Invoker({ llm: new FakeLLM("x"), chatMidleware: [] } as never), TypeError);
});

Deno.test("new Invoker() rejects a middleware that is not an object with a name, in either chain", () => {
  const llm = new FakeLLM("x");
  const both = { chat: () => {}, call: () => {} };
  for (const bad of [null, 0, "retry", { name: 7 }, both, { ...both, name: 7 }]) {
    assertThrows(() => new Invoker({ llm, chatMiddleware: [bad as never] }), TypeError);
    assertThrows(() => new Invoker({ llm, toolMiddleware: [bad as never] }), TypeError);
  }
  // A good one after a bad one does not hide it.
  assertThrows(() => new Invoker({ llm, chatMiddleware: [retry(), null as never] }), TypeError);
});

Deno.test("Invoker keeps its own copy of the chains; none given is an empty chain", async () => {
  const order: string[] = [];
  const chain = [tag("a", order)];
  const invoker = new Invoker({ llm: new FakeLLM("ok"), chatMiddleware: chain });
  chain.push(tag("late", order));
  assertEquals(invoker.chatMiddleware.map((m) => m.name), ["a"]);
  await invoker.chat(request, ctxOf(invoker));
  assertEquals(order, ["a>", "<a"]);
  const bare = new Invoker({ llm: new FakeLLM("ok") });
  assertEquals([bare.chatMiddleware, bare.toolMiddleware], [[], []]);
});

Deno.test("Invoker.metered: true when any chat middleware charges, wherever it is in the chain", () => {
  const llm = new FakeLLM("x");
  assertEquals(new Invoker({ llm }).metered, false);
  assertEquals(new Invoker({ llm, chatMiddleware: [retry()] }).metered, false);
  assertEquals(new Invoker({ llm, chatMiddleware: [meter()] }).metered, true);
  assertEquals(new Invoker({ llm, chatMiddleware: [meter(), retry()] }).metered, true);
  assertEquals(new Invoker({ llm, chatMiddleware: [retry(), meter()] }).metered, true);
  // Only `charges: true` counts; a truthy non-boolean does not.
  const odd = { name: "odd", charges: "yes", chat: () => {} } as unknown as ChatMiddleware;
  assertEquals(new Invoker({ llm, chatMiddleware: [odd] }).metered, false);
  // A middleware in the tool chain never meters model calls.
  const toolCharges = { name: "t", charges: true, call: () => 1 } as unknown as ToolMiddleware;
  assertEquals(new Invoker({ llm, toolMiddleware: [toolCharges] }).metered, false);
});

Deno.test("Invoker refuses to call the model for a context with a budget but no meter, on both paths", async () => {
  const llm = new FakeLLM("x");
  const unmetered = new Invoker({ llm });
  const ctx = ctxOf(unmetered, { budget: new Budget() });
  await assertRejects(() => unmetered.chat(request, ctx), UnmeteredBudget);
  await assertRejects(() => Array.fromAsync(unmetered.stream(request, ctx)), UnmeteredBudget);
  assertEquals(llm.calls, 0);
  // Without a budget the same invoker calls the model.
  assertEquals((await unmetered.chat(request, ctxOf(unmetered))).content, "x");
  const metered = new Invoker({ llm, chatMiddleware: [meter()] });
  const budget = new Budget();
  const mctx = ctxOf(metered, { budget });
  await metered.chat(request, mctx);
  await Array.fromAsync(metered.stream(request, mctx));
  assertEquals(budget.calls, 2);
});

Deno.test("Invoker.chat() skips stream-only middleware; Invoker.stream() runs every layer outermost first", async () => {
  const order: string[] = [];
  const chatOnly: ChatMiddleware = { name: "chat-only", chat: (req, ctx, next) => next(req, ctx) };
  const streamOnly: ChatMiddleware = {
    name: "stream-only",
    async *stream(req, ctx, next) {
      order.push("s>");
      yield* next(req, ctx);
    },
  };
  const llm = new FakeLLM("hi");
  const invoker = new Invoker({
    llm,
    chatMiddleware: [tag("outer", order), streamOnly, chatOnly, tag("inner", order)],
  });
  const ctx = ctxOf(invoker);
  assertEquals((await invoker.chat(request, ctx)).content, "hi");
  assertEquals(order, ["outer>", "inner>", "<inner", "<outer"]);
  order.length = 0;
  const events = await Array.fromAsync(invoker.stream(request, ctx));
  assertEquals(order, ["outer>", "s>", "inner>", "<inner", "<outer"]);
  const text = events.flatMap((e) => e.type === "text_delta" ? [e.content] : []).join("");
  // The innermost layer sees the model's text first.
  assertEquals(text, "hi+inner+outer");
  // A second call reuses the chains composed by the first.
  order.length = 0;
  await invoker.chat(request, ctx);
  await Array.fromAsync(invoker.stream(request, ctx));
  assertEquals(order, [
    "outer>",
    "inner>",
    "<inner",
    "<outer",
    "outer>",
    "s>",
    "inner>",
    "<inner",
    "<outer",
  ]);
  assertEquals(llm.calls, 4);
});

Deno.test("Invoker.callTool() runs the tool chain outermost first and returns what the tool returned", async () => {
  const order: string[] = [];
  const mw = (name: string): ToolMiddleware => ({
    name,
    async call(inv, ctx, next) {
      order.push(`${name}>${inv.call.id}`);
      const out = await next(inv, ctx);
      order.push(`<${name}`);
      return { [name]: out };
    },
  });
  const tool = new FakeTool({ name: "lookup", responder: ({ q }: { q: string }) => q.length });
  const invoker = new Invoker({
    llm: new FakeLLM("x"),
    toolMiddleware: [mw("outer"), mw("inner")],
  });
  const ctx = ctxOf(invoker);
  const inv = { tool, call: { id: "c1", name: "lookup", args: { q: "abc" } }, args: { q: "abcd" } };
  assertEquals(await invoker.callTool(inv, ctx), { outer: { inner: 4 } });
  // The tool gets the validated arguments, not the model's raw ones.
  assertEquals(tool.calls, [{ q: "abcd" }]);
  assertEquals(order, ["outer>c1", "inner>c1", "<inner", "<outer"]);
  const bare = new Invoker({ llm: new FakeLLM("x") });
  assertEquals(await bare.callTool(inv, ctxOf(bare)), 4);
});

Deno.test("Invoker opens one span per call: chat, streamed chat and tool, each ended, failures recorded", async () => {
  const ended: string[] = [];
  const trace = new RecordingTracer({ exporter: (s) => void ended.push(s.name) });
  const tool = new FakeTool({ name: "lookup", responder: 1 });
  const broken = new FakeTool({ name: "broken", failWith: new Error("disk full") });
  const invoker = new Invoker({ llm: FakeLLM.script([{ content: "a" }, { content: "b" }]) });
  const ctx = ctxOf(invoker, { trace });
  await invoker.chat(request, ctx);
  await Array.fromAsync(invoker.stream(request, ctx));
  await invoker.callTool({ tool, call: { id: "c9", name: "lookup", args: {} }, args: {} }, ctx);
  await assertRejects(
    () =>
      invoker.callTool(
        { tool: broken, call: { id: "c10", name: "broken", args: {} }, args: {} },
        ctx,
      ),
    Error,
    "disk full",
  );
  const [chat, stream, call, failed] = trace.spans;
  assertEquals([chat.name, chat.kind, chat.attrs], ["chat", "llm", {
    "gen_ai.request.model": "fake-model",
    "gen_ai.response.finish_reason": "stop",
  }]);
  assertEquals([stream.name, stream.kind, stream.attrs], ["chat", "llm", {
    "gen_ai.request.model": "fake-model",
    streaming: true,
  }]);
  assertEquals([call.name, call.kind, call.attrs], ["execute_tool", "tool", {
    "gen_ai.tool.name": "lookup",
    "gen_ai.tool.call.id": "c9",
  }]);
  assertEquals(failed.events.map((e) => e.name), ["error"]);
  assertEquals(ended, ["chat", "chat", "execute_tool", "execute_tool"]);
});

Deno.test("Invoker spans: a model call that fails, later or at once, and a tracer that throws, each end their span with the error", async () => {
  const trace = new RecordingTracer();
  // A later failure (a rejected promise) and a ready one (thrown by the double).
  const slow = {
    chat: () => Promise.reject(new Error("later")),
    complete: () => Promise.reject(new Error("later")),
    stream: () => ({}) as never,
  };
  const ready = new FakeLLM("x", { failTimes: 1, failWith: new Error("at once") });
  for (const [llm, message] of [[slow, "later"], [ready, "at once"]] as const) {
    const invoker = new Invoker({ llm });
    await assertRejects(() => invoker.chat(request, ctxOf(invoker, { trace })), Error, message);
  }
  // A tracer whose setAttribute throws fails the call with its error, the span ended.
  const ended: string[] = [];
  const inner = new RecordingTracer({ exporter: (s) => void ended.push(s.name) });
  const throwing = {
    span: (name: string, kind: "llm", attrs: Record<string, string>) => {
      const s = inner.span(name, kind, attrs);
      return Object.assign(Object.create(s), {
        setAttribute: () => {
          throw new Error("tracer broke");
        },
        addEvent: s.addEvent.bind(s),
        end: s.end.bind(s),
      });
    },
  };
  const invoker = new Invoker({ llm: new FakeLLM("ok") });
  await assertRejects(
    () => invoker.chat(request, ctxOf(invoker, { trace: throwing as never })),
    Error,
    "tracer broke",
  );
  assertEquals(trace.spans.map((s) => [s.ended, s.events.map((e) => e.attrs.message)]), [
    [true, ["later"]],
    [true, ["at once"]],
  ]);
  assertEquals([ended, inner.spans[0].events.map((e) => e.attrs.message)], [["chat"], [
    "tracer broke",
  ]]);
});

Deno.test("Invoker.stream() opens its span only when consumed, and ends it when the consumer stops", async () => {
  const ended: string[] = [];
  const trace = new RecordingTracer({ exporter: (s) => void ended.push(s.name) });
  const invoker = new Invoker({ llm: FakeLLM.script([{ chunks: ["a", "b"] }]) });
  const ctx = ctxOf(invoker, { trace });
  const events = invoker.stream(request, ctx);
  assertEquals(trace.spans.length, 0);
  const seen: StreamEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    if (event.type === "text_delta") break;
  }
  assertEquals([seen.length, trace.spans.length, ended], [2, 1, ["chat"]]);
});

Deno.test("Invoker spans: a tool call that fails later (a rejected promise) rejects with its error and ends its span with it", async () => {
  const trace = new RecordingTracer();
  const later = { name: "later", call: () => Promise.reject(new Error("gone away")) };
  const invoker = new Invoker({ llm: new FakeLLM("x") });
  await assertRejects(
    () =>
      invoker.callTool(
        { tool: later as never, call: { id: "c1", name: "later", args: {} }, args: {} },
        ctxOf(invoker, { trace }),
      ),
    Error,
    "gone away",
  );
  assertEquals(trace.spans.map((s) => [s.name, s.ended, s.events.map((e) => e.attrs.message)]), [
    ["execute_tool", true, ["gone away"]],
  ]);
});

Deno.test("Invoker's ready chat path: a scripted answer as is, and a replaced chat() is called through", async () => {
  const invoker = new Invoker({ llm: new FakeLLM("ready") });
  const ctx = ctxOf(invoker);
  const now = chatNow(invoker, request, ctx);
  assert(!(now instanceof Promise), "a scripted answer crosses the invoker as a ready value");
  assertEquals((now as ChatResponse).content, "ready");
  const seen: string[] = [];
  const own = invoker.chat;
  Object.defineProperty(invoker, "chat", {
    value: (req: ChatRequest, c: RunContext) => {
      seen.push("spy");
      return own.call(invoker, req, c);
    },
    configurable: true,
  });
  const through = chatNow(invoker, request, ctx);
  assert(through instanceof Promise);
  assertEquals([(await through).content, seen], ["ready", ["spy"]]);
});

Deno.test("Invoker.chat(), stream() and callTool() refuse a request, an invocation or a ctx that is not one", async () => {
  const invoker = new R.Invoker({ llm: new K.FakeLLM("ok") });
  const ctx = K.makeTestCtx();
  const request = { model: "m", messages: [] };
  await A.assertRejects(
    () => invoker.chat(undefined as never, ctx),
    TypeError,
    "Invoker.chat(): the request must be a ChatRequest ({ model, messages: [...] }), got undefined",
  );
  await A.assertRejects(
    () => invoker.chat(request, {} as never),
    TypeError,
    "Invoker.chat(): ctx must be a RunContext",
  );
  await A.assertRejects(
    async () => {
      for await (const _ of invoker.stream({ model: "m" } as never, ctx)) { /* drain */ }
    },
    TypeError,
    "Invoker.stream(): the request must be a ChatRequest",
  );
  await A.assertRejects(
    () => invoker.callTool(undefined as never, ctx),
    TypeError,
    "Invoker.callTool(): the invocation must be { tool, call, args }",
  );
  const tool = new K.FakeTool({ name: "t", responder: 1 });
  await A.assertRejects(
    () =>
      invoker.callTool(
        { tool, call: { id: "c", name: "t", args: {} }, args: {} },
        undefined as never,
      ),
    TypeError,
    "Invoker.callTool(): ctx must be a RunContext",
  );
});

Deno.test("Invoker: retry() given as a tool middleware says it retries model calls, and how to retry a tool", () => {
  const e = assertThrows(
    () => new Invoker({ llm: new FakeLLM("x"), toolMiddleware: [retry()] as never }),
    TypeError,
    "toolMiddleware[0] is retry(), which retries model calls: it is a chat middleware, so it goes in chatMiddleware: [retry()]",
  );
  assert(
    e.message.includes("To retry a tool, give toolMiddleware a middleware of your own"),
    e.message,
  );
  assert(e.message.includes("FakeTool's own options ({ failTimes, failWith })"), e.message);
  assert(!e.message.includes("Staged"), e.message);
});

Deno.test("Invoker: a middleware in the wrong list names the list it goes in", () => {
  assertThrows(
    () => new Invoker({ llm: new FakeLLM("x"), toolMiddleware: [meter()] as never }),
    TypeError,
    'toolMiddleware[0] is the chat middleware "meter": it wraps model calls, not tool calls; give it in chatMiddleware instead',
  );
  const mine = { name: "audit", call: () => Promise.resolve(1) };
  assertThrows(
    () => new Invoker({ llm: new FakeLLM("x"), chatMiddleware: [mine] as never }),
    TypeError,
    'chatMiddleware[0] is the tool middleware "audit": it wraps tool calls, not model calls; give it in toolMiddleware instead',
  );
  assertThrows(
    () => new Invoker({ llm: new FakeLLM("x"), toolMiddleware: [{ stream: () => [] }] as never }),
    TypeError,
    "toolMiddleware[0] is the chat middleware: it wraps model calls",
  );
  assertThrows(
    () => new Invoker({ llm: new FakeLLM("x"), toolMiddleware: [{ name: "x" }] as never }),
    TypeError,
    "toolMiddleware[0] must be a tool middleware (an object with call()), got",
  );
});
