import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import {
  adopt,
  CALL_NOW,
  callNow,
  CHAT_NOW,
  chatNow,
  offerNow,
  promised,
  throughPublic,
  TOOL_NOW,
  toolNow,
} from "../../runtime/_now.ts";
import { Agent, Budget, Invoker, meter, ReActCognition, retry } from "@agentkit/testing/runtime";
import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
import type { ChatRequest, ChatResponse } from "@agentkit/testing/ports";

const request: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };
const answer: ChatResponse = {
  id: "r1",
  model: "m",
  content: "ready",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 1, outputTokens: 1 },
};
const ctx = makeTestCtx();

// Replaces `obj[name]` with an own property that counts its calls and calls
// the original, as a test's spy does.
function spy<T extends object, K extends keyof T & string>(
  obj: T,
  name: K,
): { calls: unknown[][]; restore(): void } {
  const original = obj[name] as (...args: unknown[]) => unknown;
  const calls: unknown[][] = [];
  Object.defineProperty(obj, name, {
    value: function (this: unknown, ...args: unknown[]) {
      calls.push(args);
      return original.apply(this, args);
    },
    configurable: true,
    writable: true,
  });
  return { calls, restore: () => delete (obj as Record<string, unknown>)[name] };
}

Deno.test("promised() gives a ready value, a promise and a throw one promise face", async () => {
  const ready = promised(() => 1);
  assertInstanceOf(ready, Promise);
  assertEquals(await ready, 1);
  const later = Promise.resolve(2);
  assertStrictEquals(promised(() => later), later); // no second promise around it
  const boom = new Error("boom");
  const thrown = promised(() => {
    throw boom;
  });
  assertStrictEquals(await assertRejects(() => thrown), boom);
});

Deno.test("adopt() keeps values and promises, and turns another thenable into a promise", async () => {
  const p = Promise.resolve(1);
  assertStrictEquals(adopt(p), p);
  assertEquals([adopt(1), adopt(null), adopt(undefined), adopt("s")], [1, null, undefined, "s"]);
  const plain = { then: 3 }; // a `then` that is not a function: a value
  assertStrictEquals(adopt(plain), plain);
  const thenable = { then: (ok: (v: number) => void) => ok(4) } as unknown as PromiseLike<number>;
  const adopted = adopt(thenable);
  assertInstanceOf(adopted, Promise);
  assertEquals(await adopted, 4);
  const fnThenable = Object.assign(() => {}, {
    then: (ok: (v: number) => void) => ok(5),
  }) as unknown as PromiseLike<number>;
  const fnAdopted = adopt(fnThenable); // a function with a `then` is a thenable too
  assertInstanceOf(fnAdopted, Promise);
  assertEquals(await fnAdopted, 5);
});

Deno.test("chatNow() and callNow() take the ready path when offered, else the public method", async () => {
  const plain = { chat: () => Promise.resolve(answer), calls: 0 };
  const viaChat = chatNow(plain, request, ctx);
  assertInstanceOf(viaChat, Promise);
  assertEquals((await viaChat).content, "ready");
  const tool = { call: (args: Record<string, unknown>) => Promise.resolve(args.x) };
  assertEquals(await callNow(tool, { x: 7 }, ctx), 7);
  // A port whose method returns another thenable is adopted, not taken as an answer.
  const odd = { call: () => ({ then: (ok: (v: string) => void) => ok("late") }) as never };
  assertEquals(await callNow(odd, {}, ctx), "late");
});

class Offered {
  readonly seen: string[] = [];
  chat(_r: ChatRequest, _c: unknown): Promise<ChatResponse> {
    this.seen.push("chat");
    return Promise.resolve({ ...answer, content: "via chat" });
  }
  static {
    const chat = this.prototype.chat;
    offerNow(this.prototype, CHAT_NOW, function (this: Offered, r: ChatRequest, c: unknown) {
      if (this.chat !== chat) return throughPublic(this, this.chat, r, c);
      this.seen.push("now");
      return answer;
    });
  }
}

Deno.test("offerNow(): the ready path while the public method is the class's own", async () => {
  const port = new Offered();
  assertEquals((chatNow(port, request, ctx) as ChatResponse).content, "ready");
  assertEquals(port.seen, ["now"]);
  // It is hidden: not an own key, not enumerable.
  assertEquals(Object.keys(port), ["seen"]);
  assert(!Object.getOwnPropertyDescriptor(Offered.prototype, CHAT_NOW)!.enumerable);
  // A test that replaces chat (a spy, an own property) is called through it.
  const spied = spy(port, "chat");
  try {
    const res = chatNow(port, request, ctx);
    assertInstanceOf(res, Promise);
    assertEquals((await res).content, "via chat");
    assertEquals(spied.calls.length, 1);
    assertEquals(port.seen, ["now", "chat"]);
  } finally {
    spied.restore();
  }
  // A subclass that overrides it is too.
  class Sub extends Offered {
    override chat(r: ChatRequest, c: unknown): Promise<ChatResponse> {
      this.seen.push("sub");
      return super.chat(r, c);
    }
  }
  const sub = new Sub();
  assertEquals((await chatNow(sub, request, ctx)).content, "via chat");
  assertEquals(sub.seen, ["sub", "chat"]);
});

Deno.test("a scripted run crosses retry and meter as ready values: the meter is charged before run() returns", async () => {
  const llm = new FakeLLM("ok");
  const budget = new Budget({ maxCostUsd: "1" });
  const c = makeTestCtx({ llm, budget, chatMiddleware: [retry(), meter()] });
  const pending = new Agent("a", { model: "fake-model" }).run("go", c);
  assertEquals([llm.calls, budget.calls], [1, 1]);
  assertEquals((await pending).output, "ok");
});

Deno.test("a scripted tool answers as a ready value, and a spy on it is still called", async () => {
  const tool = new FakeTool({ name: "t", responder: "done" });
  const ready = (tool as unknown as { [CALL_NOW]: (a: unknown, c: unknown) => unknown })[CALL_NOW](
    {},
    ctx,
  );
  assertEquals(ready, "done");
  const llm = FakeLLM.script([
    { toolCalls: [{ id: "c1", name: "t", args: {} }] },
    { content: "fine" },
  ]);
  const spied = spy(tool, "call");
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const result = await agent.run("go", makeTestCtx({ llm }));
  assertEquals([result.output, spied.calls.length, tool.calls.length], ["fine", 1, 2]);
});

Deno.test("the invoker's ready paths: a tool's answer as is, a failure thrown, a spy honoured", async () => {
  const tool = new FakeTool({ name: "t", responder: { n: 1 } });
  const invoker = new Invoker({ llm: new FakeLLM("x") });
  const c = makeTestCtx({ invoker });
  const invocation = { tool, call: { id: "c1", name: "t", args: {} }, args: {} };
  assertEquals(toolNow(invoker, invocation, c), { n: 1 });
  const failing = new FakeTool({ name: "f", failWith: "busy" });
  assertThrows(() => toolNow(invoker, { ...invocation, tool: failing }, c), Error, "busy");
  await assertRejects(() => invoker.callTool({ ...invocation, tool: failing }, c), Error, "busy");
  const spied = spy(invoker, "callTool");
  try {
    assertEquals(await toolNow(invoker, invocation, c), { n: 1 });
    assertEquals(spied.calls.length, 1);
  } finally {
    spied.restore();
  }
  assert((invoker as unknown as Record<symbol, unknown>)[TOOL_NOW] !== undefined);
});
