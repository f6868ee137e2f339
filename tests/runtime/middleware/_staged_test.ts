import { assertEquals } from "@std/assert";
import { Agent, idleTimeout, meter, retry, timeout } from "@agentkit/testing/runtime";
import type { ChatMiddleware } from "@agentkit/testing/runtime";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
import { ownChatStage, ownStreamStage } from "../../../runtime/middleware/_staged.ts";

const agent = new Agent("a", { model: "fake-model" });

Deno.test("a built-in middleware keeps its stages, and shows only its public face", () => {
  const r = retry();
  assertEquals(Object.keys(r).sort(), ["chat", "name", "stream"]);
  assertEquals(Object.keys(meter()).sort(), ["charges", "chat", "name", "stream"]);
  assertEquals(Object.getOwnPropertySymbols(r), []);
  assertEquals([typeof ownStreamStage(r), typeof ownChatStage(r)], ["function", "function"]);
  // timeout() has a stream stage and a promise chat, no chat stage.
  assertEquals([typeof ownStreamStage(timeout({ ms: 1 })), ownChatStage(timeout({ ms: 1 }))], [
    "function",
    undefined,
  ]);
  const hand: ChatMiddleware = { name: "mine", chat: (req, ctx, next) => next(req, ctx) };
  assertEquals([ownStreamStage(hand), ownChatStage(hand)], [undefined, undefined]);
});

Deno.test("a copy of a built-in middleware with its own methods is called through them", async () => {
  const seen: string[] = [];
  const base = retry();
  const copy: ChatMiddleware = {
    ...base,
    name: "wrapped",
    chat: (req, ctx, next) => {
      seen.push("chat");
      return base.chat!(req, ctx, next);
    },
    stream: (req, ctx, next) => {
      seen.push("stream");
      return base.stream!(req, ctx, next);
    },
  };
  const ctx = makeTestCtx({ llm: new FakeLLM("ok"), chatMiddleware: [copy] });
  assertEquals((await agent.run("go", ctx)).output, "ok");
  for await (const _ of agent.stream("go", ctx)) { /* drained */ }
  assertEquals(seen, ["chat", "stream"]);
});

Deno.test("a built-in middleware whose method a test replaced is called through the replacement", async () => {
  const seen: string[] = [];
  const r = retry();
  const { chat, stream } = r;
  Object.assign(r, {
    chat: (...args: Parameters<NonNullable<ChatMiddleware["chat"]>>) => {
      seen.push("chat");
      return chat!(...args);
    },
    stream: (...args: Parameters<NonNullable<ChatMiddleware["stream"]>>) => {
      seen.push("stream");
      return stream!(...args);
    },
  });
  assertEquals([ownChatStage(r), ownStreamStage(r)], [undefined, undefined]);
  const ctx = makeTestCtx({ llm: new FakeLLM("ok"), chatMiddleware: [r] });
  assertEquals((await agent.run("go", ctx)).output, "ok");
  for await (const _ of agent.stream("go", ctx)) { /* drained */ }
  assertEquals(seen, ["chat", "stream"]);
});

Deno.test("a stream-only built-in middleware has no chat key at all, so a blocking call skips it", () => {
  const idle = idleTimeout({ ms: 1 });
  assertEquals(Object.keys(idle).sort(), ["name", "stream"]);
  assertEquals(["chat" in idle, ownChatStage(idle)], [false, undefined]);
});
