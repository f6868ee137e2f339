import { assert, assertEquals, assertMatch } from "@std/assert";
import { Agent, CollectingObserver, ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  FakeClock,
  FakeLLM,
  makeTestCtx,
  ScriptedProvider,
  ScriptedProviderWithGrants,
} from "@agentkit/testing/testing";

const tools = [{ name: "fs_read", description: "Read a file" }, { name: "slow_scan" }];
const results = { fs_read: "hello", slow_scan: "scanned" };

function agentWith(cognition: ReActCognition): Agent {
  return new Agent("sre", { model: "fake-model", cognition });
}

Deno.test("ReActCognition({ provider }) offers the provider's tools and dispatches through executeToolCalls", async () => {
  const provider = new ScriptedProvider({ tools, results });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "fs_read", { path: "a" }), toolCall("c2", "nope", {})] },
    "The file says hello.",
  ]);
  const result = await agentWith(new ReActCognition({ provider })).run(
    "read a",
    makeTestCtx({ llm }),
  );
  assertEquals(result.output, "The file says hello.");
  assertEquals(llm.requests[0].tools.map((t) => t.name), ["fs_read", "slow_scan"]);
  assertEquals(provider.recordedCalls.map((c) => [c.batch, c.id]), [[1, "c1"], [2, "c2"]]);
  const toolMessages = llm.requests[1].messages.filter((m) => m.role === "tool");
  assertEquals(toolMessages.map((m) => [m.toolCallId, m.isError ?? false]), [
    ["c1", false],
    ["c2", true],
  ]);
  assertMatch(toolMessages[1].content, /Unknown tool "nope"/);
});

Deno.test("ReActCognition({ provider, toolTimeoutMs }): a 150 ms deadline beats a 500 ms tool on a FakeClock, in no wall time", async () => {
  const clock = new FakeClock();
  const provider = new ScriptedProvider({ tools, results, latencyMs: { slow_scan: 500 } });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "slow_scan", {}), toolCall("c2", "fs_read", {})] },
    "The scan timed out; the file says hello.",
  ]);
  const agent = agentWith(new ReActCognition({ provider, toolTimeoutMs: 150 }));
  const wall = performance.now();
  const result = await agent.run("scan", makeTestCtx({ llm, clock }));
  const elapsed = performance.now() - wall;
  assert(elapsed < 1_000, `took ${elapsed} ms of wall time`);
  assertEquals(result.output, "The scan timed out; the file says hello.");
  const toolMessages = llm.requests[1].messages.filter((m) => m.role === "tool");
  assertEquals(toolMessages.map((m) => [m.toolCallId, m.isError ?? false]), [
    ["c1", true],
    ["c2", false],
  ]);
  assertMatch(toolMessages[0].content, /did not finish within 150 ms/);
  assertEquals(toolMessages[1].content, "hello");
  // The deadline fired at 150 ms of virtual time, and the late call's own
  // latency timer was cancelled rather than left to fire at 500.
  assertEquals([clock.now(), clock.pending], [150, 0]);
  assertMatch(provider.recordedCalls[0].result?.content ?? "", /Cancelled/);
});

Deno.test("ReActCognition synchronises grants only with a provider that has grants()", async (t) => {
  const script = () => FakeLLM.script([{ toolCalls: [toolCall("c1", "fs_read", {})] }, "done"]);
  await t.step("with grants(): asked once per run and observed", async () => {
    const provider = new ScriptedProviderWithGrants({ tools, results, grants: ["fs_read"] });
    const observer = new CollectingObserver();
    const llm = script();
    await agentWith(new ReActCognition({ provider })).run("go", makeTestCtx({ llm, observer }));
    const grants = observer.items.filter((o) => o.kind === "grants");
    assertEquals(grants.map((o) => [o.payload, o.agent]), [[["fs_read"], "sre"]]);
    assertEquals(provider.grantsCalls, 1);
  });
  await t.step("streaming, with grants()", async () => {
    const provider = new ScriptedProviderWithGrants({ tools, results, grants: [] });
    const observer = new CollectingObserver();
    const run = agentWith(new ReActCognition({ provider })).start(
      "go",
      makeTestCtx({ llm: script(), observer }),
    );
    await run.result;
    assertEquals(observer.items.filter((o) => o.kind === "grants").map((o) => o.text), [
      "tool grants: none",
    ]);
  });
  await t.step("without grants(): nothing is synchronised", async () => {
    const provider = new ScriptedProvider({ tools, results });
    const observer = new CollectingObserver();
    await agentWith(new ReActCognition({ provider })).run(
      "go",
      makeTestCtx({ llm: script(), observer }),
    );
    assertEquals(observer.items.filter((o) => o.kind === "grants"), []);
    assertEquals(provider.recordedCalls.length, 1);
  });
});

Deno.test("ReActCognition({ provider }) waits for a listTools() that returns a promise", async (t) => {
  const spec = { name: "fs_read", description: "Read a file", parameters: { type: "object" } };
  let listings = 0;
  const provider = {
    listTools: () => (listings++, Promise.resolve([spec])),
    executeToolCalls: (calls: readonly { id: string }[]) =>
      Promise.resolve(calls.map((c) => ({ callId: c.id, isError: false, content: "hello" }))),
  };

  await t.step("the listed tools reach every model call of the run, listed once", async () => {
    const llm = FakeLLM.script([
      { toolCalls: [toolCall("c1", "fs_read", { path: "a" })] },
      "The file says hello.",
    ]);
    const cognition = new ReActCognition({ provider });
    const result = await agentWith(cognition).run("read a", makeTestCtx({ llm }));
    assertEquals(result.output, "The file says hello.");
    assertEquals(llm.requests.map((r) => r.tools), [[spec], [spec]]);
    assertEquals(result.messages[2].content, "hello");
    assertEquals(listings, 1);
    assert(cognition.specs() instanceof Promise);
  });

  await t.step("a streamed run too", async () => {
    const llm = FakeLLM.script([{ chunks: ["o", "k"] }]);
    let text = "";
    const agent = agentWith(new ReActCognition({ provider }));
    for await (const e of agent.stream("go", makeTestCtx({ llm }))) {
      if (e.type === "text_delta") text += e.content;
    }
    assertEquals(text, "ok");
    assertEquals(llm.requests[0].tools, [spec]);
  });

  await t.step("grants are read after the listing, before the first model call", async () => {
    const order: string[] = [];
    const granting = {
      ...provider,
      listTools: () => (order.push("list"), Promise.resolve([spec])),
      grants: () => (order.push("grants"), ["fs_read"]),
    };
    const llm = new FakeLLM("done");
    await agentWith(new ReActCognition({ provider: granting })).run("go", makeTestCtx({ llm }));
    assertEquals(order, ["list", "grants"]);
    assertEquals(llm.calls, 1);
  });

  await t.step("a listing that rejects fails the run before any model call", async () => {
    const failing = { ...provider, listTools: () => Promise.reject(new Error("server down")) };
    const llm = new FakeLLM("never");
    const error = await agentWith(new ReActCognition({ provider: failing })).run(
      "go",
      makeTestCtx({ llm }),
    ).catch((e) => e);
    assertEquals((error as Error).message, "server down");
    assertEquals(llm.calls, 0);
  });

  await t.step("a listing that is not an array is a TypeError saying what it must be", async () => {
    for (const listed of [Promise.resolve({ tools: [] }), "fs_read"]) {
      const bad = { ...provider, listTools: () => listed as never };
      const llm = new FakeLLM("never");
      const error = await agentWith(new ReActCognition({ provider: bad })).run(
        "go",
        makeTestCtx({ llm }),
      ).catch((e) => e);
      assert(error instanceof TypeError);
      assertMatch(
        error.message,
        /^The tool provider's listTools\(\) gave .+; it must return an array of tool specs, or a promise of one$/,
      );
      assertEquals(llm.calls, 0);
    }
  });
});
