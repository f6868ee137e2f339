// Which model call each call of a wrapped tool answers (the record
// `noDuplicateSideEffects` and `outcome.toolCalls` read): the runtime's own
// call id under world.ctx(), else, for an agent of another stack, the
// latest call of that tool with equal arguments. And the wrapped tool runs
// as the tool itself would, under the runtime and outside it.
import { assertEquals, assertRejects } from "@std/assert";
import { z } from "zod";
import { type ToolCall, toolCall, type ToolPort } from "@agentkit/testing/ports";
import { Agent, ReActCognition, type ToolMiddleware } from "@agentkit/testing/runtime";
import { chaos, type ChaosOutcome, type ChaosWorld, FakeTool } from "@agentkit/testing/testing";
import { parseTurn, type Turn } from "../../../testing/llm/turn.ts";
import { World } from "../../../testing/chaos/_world.ts";

const SPECS = ["lookup", "other"].map((name) => ({
  name,
  description: "",
  parameters: { type: "object" },
}));
const REQUEST = {
  model: "fake-model",
  messages: [{ role: "user" as const, content: "q" }],
  tools: SPECS,
};
const tool = (name = "lookup") => new FakeTool({ name, responder: "found" });

function world(turns: ReadonlyArray<Turn | string>, responder?: () => Turn | string): World {
  return new World({
    run: 1,
    faults: [],
    turns: responder ? undefined : turns.map((t) => parseTurn(t, "the test script")),
    responder,
    maxSteps: 20,
    maxVirtualMs: 300_000,
  });
}
const ids = (w: World) =>
  w.outcome("returned", undefined, undefined).toolCalls.map((c) => c.callId);
const calls = (...c: ToolCall[]): Turn => ({ toolCalls: c });

// The outcome of one chaos() run without faults.
async function outcomeOf(
  scenario: (world: ChaosWorld) => unknown,
  script: ReadonlyArray<Turn | string>,
) {
  const seen: ChaosOutcome[] = [];
  await chaos(scenario, { script, runs: 1, maxFaults: 0, invariants: (o) => void seen.push(o) });
  return seen[0];
}
const react = (world: ChaosWorld, tools: ToolPort[]) =>
  new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools }) })
    .run("q", world.ctx());

Deno.test("under world.ctx(), a tool call answers the runtime's call: a repeated id the agent renamed keeps its new id", async () => {
  const o = await outcomeOf((w) => react(w, [w.tool(tool())]), [
    calls(toolCall("c1", "lookup", { q: "x" }), toolCall("c1", "lookup", { q: "x" })),
    "done",
  ]);
  assertEquals(o.status, "returned");
  assertEquals(o.toolCalls.map((c) => c.callId), ["c1", "c1_2"]);
});

Deno.test("a wrapped tool another tool calls inside its own run is matched by its arguments, not given the outer call's id", async () => {
  const o = await outcomeOf((w) => {
    const inner = w.tool(tool("inner"));
    const outer: ToolPort = {
      name: "outer",
      description: "calls inner",
      parameters: { type: "object" },
      call: (args, ctx) => inner.call(args, ctx),
    };
    return react(w, [outer]);
  }, [calls(toolCall("c1", "outer", { q: "x" })), "done"]);
  assertEquals(o.status, "returned");
  assertEquals(o.toolCalls.map((c) => [c.tool, c.callId]), [["inner", undefined]]);
});

Deno.test("a direct call matches the latest model call of that tool with equal arguments, in any key order", async () => {
  const w = world([
    calls(toolCall("old", "lookup", { a: 1, b: [1, { d: null, c: 2 }] })),
    calls(toolCall("new", "lookup", { a: 1, b: [1, { c: 2, d: null }] })),
    calls(toolCall("x", "other", { a: 1 })),
    "done",
  ]);
  const lookup = w.tool(tool());
  for (let i = 0; i < 3; i++) await w.llm.chat(REQUEST);
  await lookup.call({ b: [1, { d: null, c: 2 }], a: 1 }, w.ctx());
  // Other arguments, another tool's call, a nested array in another order: none.
  await lookup.call({ a: 2, b: [1, { c: 2, d: null }] }, w.ctx());
  await lookup.call({ a: 1, b: [{ c: 2, d: null }, 1] }, w.ctx());
  await w.tool(tool("other")).call({ a: 1 }, w.ctx());
  assertEquals(ids(w), ["new", undefined, undefined, "x"]);
});

Deno.test("two equal calls in one turn: each direct call answers one not run yet; a third, the last of them", async () => {
  const w = world([calls(toolCall("c1", "lookup", {}), toolCall("c2", "lookup", {})), "done"]);
  const lookup = w.tool(tool());
  await w.llm.chat(REQUEST);
  for (let i = 0; i < 3; i++) await lookup.call({}, w.ctx());
  assertEquals(ids(w), ["c1", "c2", "c2"]);
  assertEquals([...w.runs], [["lookup\u0000c1", 1], ["lookup\u0000c2", 2]]);
});

Deno.test("a call whose arguments were not JSON is never the one a direct call answers", async () => {
  const w = world([
    calls(toolCall("c1", "lookup", {})),
    calls({ id: "broken", name: "lookup", args: {}, rawArgs: '{"q": ' }),
    "done",
  ]);
  const lookup = w.tool(tool());
  await w.llm.chat(REQUEST);
  await w.llm.chat(REQUEST);
  await lookup.call({}, w.ctx());
  assertEquals(ids(w), ["c1"]);
});

Deno.test("matching looks past a call that played no turn (it failed) and past turns without tool calls", async () => {
  let n = 0;
  const w = world([], () => {
    n++;
    if (n === 2) throw new RangeError("the responder failed this call");
    return n === 1 ? calls(toolCall("c1", "lookup", { q: "x" })) : "thinking";
  });
  await w.llm.chat(REQUEST);
  await assertRejects(() => w.llm.chat(REQUEST), RangeError);
  await w.llm.chat(REQUEST);
  await w.tool(tool()).call({ q: "x" }, w.ctx());
  assertEquals(ids(w), ["c1"]);
});

Deno.test("arguments that are not JSON match no call, and the tool still runs", async () => {
  const w = world([calls(toolCall("c1", "lookup", {})), "done"]);
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  await w.llm.chat(REQUEST);
  const seen = tool();
  await w.tool(seen).call(circular, w.ctx());
  assertEquals(ids(w), [undefined]);
  assertEquals(seen.turnsTaken, 1);
});

Deno.test("under the runtime, a wrapped FakeTool takes the arguments its schema already parsed (a transforming schema works)", async () => {
  const len = new FakeTool({
    name: "len",
    parameters: z.object({ s: z.string().transform((s) => s.length) }),
    responder: (args: unknown) => args,
  });
  const o = await outcomeOf(
    (w) => react(w, [w.tool(len)]),
    [calls(toolCall("c1", "len", { s: "abc" })), "done"],
  );
  assertEquals(o.status, "returned");
  assertEquals(len.calls, [{ s: 3 }]);
  // The tool answered (a second check of its parsed arguments would have failed it).
  assertEquals(o.requests[1].messages.at(-1), {
    role: "tool",
    content: '{"s":3}',
    toolCallId: "c1",
  });
});

Deno.test("called directly, a wrapped FakeTool checks its arguments as the tool itself does", async () => {
  const len = new FakeTool({
    name: "len",
    parameters: z.object({ s: z.string() }),
    responder: "ok",
  });
  const w = world(["done"]);
  await assertRejects(() => w.tool(len).call({ s: 3 }, w.ctx()), Error, "expected string");
  assertEquals(await w.tool(len).call({ s: "x" }, w.ctx()), "ok");
});

Deno.test("under the runtime, a wrapped tool that is any ToolPort (not a FakeTool) runs through its call()", async () => {
  const got: unknown[] = [];
  const plain: ToolPort = {
    name: "plain",
    description: "",
    parameters: { type: "object" },
    call: (args) => {
      got.push(args);
      return Promise.resolve("plain answer");
    },
  };
  const o = await outcomeOf(
    (w) => react(w, [w.tool(plain)]),
    [calls(toolCall("c1", "plain", { q: 1 })), "done"],
  );
  assertEquals(o.status, "returned");
  assertEquals(got, [{ q: 1 }]);
  assertEquals(o.toolCalls.map((c) => [c.callId, c.ran]), [["c1", true]]);
});

Deno.test("world.ctx({ toolMiddleware }): the caller's middleware runs, and the world's, last, still sees each call's id", async () => {
  const seen: string[] = [];
  const chains: string[][] = [];
  const o = await outcomeOf((w) => {
    const mine = {
      name: "mine",
      call: (invocation, ctx, next) => {
        seen.push(invocation.call.id);
        return next(invocation, ctx);
      },
    } satisfies ToolMiddleware;
    const ctx = w.ctx({ toolMiddleware: [mine] });
    chains.push(ctx.invoker!.toolMiddleware.map((m) => m.name));
    return new Agent("a", {
      model: "fake-model",
      cognition: new ReActCognition({ tools: [w.tool(tool())] }),
    }).run("q", ctx);
  }, [calls(toolCall("c1", "lookup", { q: "x" })), "done"]);
  assertEquals(seen, ["c1"]);
  assertEquals(chains, [["mine", "chaos"]]);
  assertEquals(o.toolCalls.map((c) => c.callId), ["c1"]);
});
