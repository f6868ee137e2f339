import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "@std/assert";
import { NullCtx, RunContext, Services } from "@agentkit/testing/runtime";
import type { ToolCall } from "@agentkit/testing/ports";
import {
  FakeClock,
  InvalidScript,
  ScriptedProvider,
  ScriptedProviderWithGrants,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";

const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCall => ({
  id,
  name,
  args,
});
const clockCtx = (clock: FakeClock, signal?: AbortSignal): RunContext =>
  new RunContext({ services: new Services({ clock }), signal });
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("ScriptedProvider.listTools() offers the scripted tools, with defaults filled in", () => {
  const provider = new ScriptedProvider({
    tools: [
      { name: "fs_read", description: "Read a file", parameters: { type: "object", required: [] } },
      { name: "fs_list" },
    ],
    results: { fs_read: "x", fs_list: [] },
  });
  assertEquals(provider.listTools(), [
    { name: "fs_read", description: "Read a file", parameters: { type: "object", required: [] } },
    { name: "fs_list", description: "", parameters: { type: "object" } },
  ]);
});

Deno.test("ScriptedProvider.executeToolCalls() never throws: every failure is an isError result, one per call, in order", async () => {
  const provider = new ScriptedProvider({
    tools: [{ name: "read" }, { name: "boom" }, { name: "missing" }, { name: "json" }],
    results: {
      read: (args) => `read ${args.path}`,
      boom: async () => {
        await Promise.resolve();
        throw new Error("disk on fire");
      },
      missing: new Error("ENOENT: no such file"),
      json: { lines: 2 },
    },
  });
  const results = await provider.executeToolCalls([
    call("c1", "boom"),
    { id: "c2", name: "read", args: {}, rawArgs: '{"path": "a' },
    { id: "c3", name: "read", args: {}, rawArgs: "[1, 2]" },
    call("c4", "raed"),
    call("c5", "missing"),
    call("c6", "read", { path: "b" }),
    { id: "c7", name: "read", args: {}, rawArgs: '{"path":"c"}' },
    call("c8", "json"),
  ], new NullCtx());
  assertEquals(results.map((r) => r.callId), ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"]);
  assertEquals(results.map((r) => r.isError), [true, true, true, true, true, false, false, false]);
  assertEquals(results[0].content, "disk on fire");
  assertMatch(results[1].content, /not valid JSON/);
  assertMatch(results[2].content, /must be a JSON object/);
  assertMatch(results[3].content, /Unknown tool "raed"; did you mean "read"\?/);
  assertEquals(results[4].content, "ENOENT: no such file");
  assertEquals(results.slice(5).map((r) => r.content), ["read b", "read c", '{"lines":2}']);
});

Deno.test("ScriptedProvider.recordedCalls records each call on arrival, with its batch and later its result", async () => {
  const gate = Promise.withResolvers<void>();
  const provider = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: { t: (args) => `got ${args.n}` },
    blockCall: { c1: gate.promise },
  });
  const args = { n: 1 };
  const pending = provider.executeToolCalls([call("c1", "t", args)], new NullCtx());
  args.n = 99; // the record keeps a copy
  await turn();
  assertEquals(provider.recordedCalls.map((r) => [r.batch, r.id, r.name, r.result]), [
    [1, "c1", "t", undefined],
  ]);
  gate.resolve();
  await pending;
  await provider.executeToolCalls([call("c2", "t", { n: 2 })], new NullCtx());
  assertEquals(provider.recordedCalls.map((r) => [r.batch, r.args, r.result?.content]), [
    [1, { n: 1 }, "got 1"],
    [2, { n: 2 }, "got 2"],
  ]);
});

Deno.test("ScriptedProvider latencyMs is looked up by call id first, then tool name, and waits on ctx.clock", async () => {
  const clock = new FakeClock();
  const provider = new ScriptedProvider({
    tools: [{ name: "fs_read" }, { name: "fast" }],
    results: { fs_read: "r", fast: "f" },
    latencyMs: { c2: 400, fs_read: 100 },
  });
  const wall = performance.now();
  await provider.executeToolCalls([
    call("c1", "fs_read"),
    call("c2", "fs_read"),
    call("c3", "fast"),
  ], clockCtx(clock));
  assertEquals([clock.sleeps, clock.now()], [[100, 400], 500]);
  assert(performance.now() - wall < 1_000);
});

Deno.test("ScriptedProvider blockCall gates one call, and a batch answers nothing until it opens", async () => {
  const first = Promise.withResolvers<void>();
  const provider = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: { t: (_args, c) => `answer ${c.id}` },
    blockCall: { c1: first.promise, t: Promise.resolve() },
  });
  let done = false;
  const batch = provider.executeToolCalls(
    [call("c1", "t"), call("c2", "t"), call("c3", "t")],
    new NullCtx(),
  ).then((r) => {
    done = true;
    return r;
  });
  await turn();
  assertEquals(done, false);
  assertEquals(provider.recordedCalls.map((r) => r.result), [undefined, undefined, undefined]);
  first.resolve();
  assertEquals((await batch).map((r) => r.content), ["answer c1", "answer c2", "answer c3"]);
});

Deno.test("ScriptedProvider blockOn holds the whole batch; a rejected gate becomes isError results", async (t) => {
  await t.step("blockOn", async () => {
    const hold = Promise.withResolvers<void>();
    const provider = new ScriptedProvider({
      tools: [{ name: "t" }],
      results: { t: "ok" },
      blockOn: hold.promise,
    });
    let done = false;
    const batch = provider.executeToolCalls([call("c1", "t")], new NullCtx()).then(() =>
      done = true
    );
    await turn();
    assertEquals([done, provider.recordedCalls.length], [false, 1]);
    hold.resolve();
    await batch;
    assertEquals(done, true);
  });
  await t.step("a refused batch", async () => {
    const provider = new ScriptedProvider({
      tools: [{ name: "t" }],
      results: { t: "ok" },
      blockOn: Promise.reject(new Error("permission denied")),
    });
    const results = await provider.executeToolCalls(
      [call("c1", "t"), call("c2", "t")],
      new NullCtx(),
    );
    assertEquals(results.map((r) => [r.callId, r.isError]), [["c1", true], ["c2", true]]);
    assertMatch(results[0].content, /permission denied/);
  });
  await t.step("a rejected blockCall", async () => {
    const provider = new ScriptedProvider({
      tools: [{ name: "t" }],
      results: { t: "ok" },
      blockCall: { c1: Promise.reject(new Error("denied")) },
    });
    const results = await provider.executeToolCalls(
      [call("c1", "t"), call("c2", "t")],
      new NullCtx(),
    );
    assertEquals(results.map((r) => [r.isError, r.content]), [[true, "denied"], [false, "ok"]]);
  });
});

Deno.test("ScriptedProvider: cancellation during latency answers the rest of the batch as cancelled", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const controller = new AbortController();
  let ran = 0;
  const provider = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: { t: () => String(++ran) },
    latencyMs: { t: 1_000 },
  });
  const batch = provider.executeToolCalls(
    [call("c1", "t"), call("c2", "t")],
    clockCtx(clock, controller.signal),
  );
  await turn();
  controller.abort(new Error("user stopped"));
  const results = await batch;
  assertEquals(results.map((r) => [r.isError, r.content]), [
    [true, "Cancelled: user stopped"],
    [true, "Cancelled: user stopped"],
  ]);
  assertEquals([ran, clock.pending], [0, 0]);
});

Deno.test("ScriptedProvider lets a harness error from a responder escape", async () => {
  const provider = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: {
      t: () => {
        throw new ScriptExhausted("FakeAsker", 1, 2, "answer");
      },
    },
  });
  await assertRejects(
    () => provider.executeToolCalls([call("c1", "t")], new NullCtx()),
    ScriptExhausted,
  );
});

Deno.test("ScriptedProvider validates its script when built", async (t) => {
  // deno-lint-ignore no-explicit-any
  const build = (o: any) => () => new ScriptedProvider(o);
  await t.step("an unknown option, with the nearest one, through the shared checker", () => {
    assertThrows(
      build({ tools: [{ name: "t" }], results: { t: 1 }, latency: {} }),
      TypeError,
      'new ScriptedProvider(): unknown option "latency"; did you mean "latencyMs"?',
    );
    assertThrows(build(undefined), TypeError, "new ScriptedProvider()");
    assertThrows(build({ results: { t: 1 } }), TypeError, "tools");
    assertThrows(
      build({ tools: [{ name: "t" }], results: { t: 1 }, allowUnused: 1 }),
      TypeError,
      "allowUnused",
    );
  });
  await t.step("an unknown key in a tool", () => {
    assertThrows(
      build({ tools: [{ name: "t", descripton: "x" }], results: { t: 1 } }),
      InvalidScript,
      'did you mean "description"?',
    );
  });
  await t.step("a result for no tool, and a tool with no result", () => {
    assertThrows(
      build({ tools: [{ name: "fs_read" }], results: { fs_raed: "x" } }),
      InvalidScript,
      'did you mean "fs_read"?',
    );
    assertThrows(
      build({ tools: [{ name: "a" }, { name: "b" }], results: { a: 1 } }),
      InvalidScript,
      "scripts no result for it; add results: { b: ... }",
    );
  });
  await t.step("duplicate tools, no tools, bad latency, a non-promise gate", () => {
    assertThrows(
      build({ tools: [{ name: "a" }, { name: "a" }], results: { a: 1 } }),
      InvalidScript,
      "unique",
    );
    assertThrows(build({ tools: [], results: {} }), RangeError, "at least 1");
    assertThrows(
      build({ tools: [{ name: "a" }], results: { a: 1 }, latencyMs: { a: -5 } }),
      RangeError,
      "latencyMs.a",
    );
    assertThrows(
      build({ tools: [{ name: "a" }], results: { a: 1 }, blockOn: "soon" }),
      TypeError,
      "must be a Promise",
    );
  });
  await t.step("grants only on the class that has them", () => {
    assertThrows(
      build({ tools: [{ name: "a" }], results: { a: 1 }, grants: [] }),
      TypeError,
      'unknown option "grants"',
    );
  });
});

Deno.test("ScriptedProviderWithGrants has grants(); ScriptedProvider does not, so presence checks can tell them apart", () => {
  const opts = { tools: [{ name: "a" }], results: { a: 1 } };
  const plain = new ScriptedProvider(opts);
  const granting = new ScriptedProviderWithGrants({ ...opts, grants: ["a", "fs:read"] });
  assertEquals(["grants" in plain, "grants" in granting], [false, true]);
  assertEquals(granting.grants(), ["a", "fs:read"]);
  assertEquals(new ScriptedProviderWithGrants(opts).grants(), []);
  assertEquals(granting.grantsCalls, 1);
  assertThrows(
    // deno-lint-ignore no-explicit-any
    () => new ScriptedProviderWithGrants({ ...opts, grant: [] } as any),
    TypeError,
    'new ScriptedProviderWithGrants(): unknown option "grant"; did you mean "grants"?',
  );
});

Deno.test("ScriptedProvider.turnsTaken counts batches; a batch of failures counts too", async () => {
  const provider = new ScriptedProvider({ tools: [{ name: "a" }], results: { a: "ok" } });
  assertEquals(provider.turnsTaken, 0);
  await provider.executeToolCalls([call("c1", "a"), call("c2", "a")], new NullCtx());
  await provider.executeToolCalls([call("c3", "nope")], new NullCtx());
  assertEquals([provider.turnsTaken, provider.recordedCalls.length], [2, 3]);
});

Deno.test("ScriptedProvider verify() and disposal report scripted tools the run never called", async (t) => {
  const script = {
    tools: [{ name: "fs_read" }, { name: "fs_write" }, { name: "shell" }],
    results: { fs_read: "hello", fs_write: "ok", shell: "" },
  };
  await t.step("verify() names the tools never called", async () => {
    const provider = new ScriptedProvider(script);
    await provider.executeToolCalls([call("c1", "fs_read"), call("c2", "fs_wrte")], new NullCtx());
    const e = assertThrows(
      () => provider.verify(),
      UnusedTurns,
      "ScriptedProvider has 3 scripted tool(s), but the run used only 1 (never used: fs_write, shell)",
    );
    assertEquals(e.unused, 2);
  });
  await t.step("using throws at scope exit", () => {
    assertThrows(
      () => {
        using _provider = new ScriptedProvider(script);
      },
      UnusedTurns,
      "allowUnused",
    );
  });
  await t.step("passes when every tool was called, or with allowUnused", async () => {
    using provider = new ScriptedProviderWithGrants({ ...script, grants: [] });
    await provider.executeToolCalls(
      [call("c1", "fs_read"), call("c2", "fs_write"), call("c3", "shell")],
      new NullCtx(),
    );
    using _decoys = new ScriptedProvider({ ...script, allowUnused: true });
  });
  await t.step("a harness error caught by user code is still reported, first", async () => {
    const provider = new ScriptedProvider({
      tools: [{ name: "t" }, { name: "u" }],
      results: {
        t: () => {
          throw new ScriptExhausted("FakeAsker", 1, 2, "answer");
        },
        u: "ok",
      },
    });
    try {
      await provider.executeToolCalls([call("c1", "t")], new NullCtx());
    } catch {
      // user code that swallows it
    }
    assertEquals(provider.harnessErrors.length, 1);
    assertThrows(() => provider.verify(), ScriptExhausted, "FakeAsker has 1 answer(s)");
  });
});

Deno.test("ScriptedProvider: a gate that rejects before any call is not an unhandled rejection", async () => {
  const provider = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: { t: "ok" },
    blockOn: Promise.reject(new Error("refused early")),
    blockCall: { t: Promise.reject(new Error("closed early")) },
  });
  await turn(); // an unhandled rejection would fail the test here
  const [result] = await provider.executeToolCalls([call("c1", "t")], new NullCtx());
  assertEquals(result.content, "the tool batch was refused: refused early");
});

Deno.test("ScriptedProvider lets a harness error from a gate or the clock escape, and records it", async () => {
  const exhausted = () => new ScriptExhausted("FakeAsker", 1, 2, "answer");
  const gated = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: { t: "ok" },
    blockOn: Promise.reject(exhausted()),
  });
  await assertRejects(
    () => gated.executeToolCalls([call("c1", "t")], new NullCtx()),
    ScriptExhausted,
  );
  assertEquals(gated.harnessErrors.length, 1);
  const slow = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: { t: "ok" },
    latencyMs: { t: 5 },
  });
  const clock = { now: () => 0, sleep: () => Promise.reject(exhausted()) };
  const ctx = new RunContext({ services: new Services({ clock }) });
  await assertRejects(() => slow.executeToolCalls([call("c1", "t")], ctx), ScriptExhausted);
  // Any other failure of a call is its result, and not a harness error.
  const failing = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: { t: () => Promise.reject(new Error("down")) },
  });
  const [result] = await failing.executeToolCalls([call("c1", "t")], new NullCtx());
  assertEquals([result.isError, result.content, failing.harnessErrors.length], [true, "down", 0]);
});

Deno.test("ScriptedProvider answers raw args that are JSON but not an object with an error", async () => {
  const provider = new ScriptedProvider({ tools: [{ name: "t" }], results: { t: "ok" } });
  for (const raw of ["null", "5", '"x"', "[1]"]) {
    const [result] = await provider.executeToolCalls(
      [{ id: "c", name: "t", args: {}, rawArgs: raw }],
      new NullCtx(),
    );
    assertEquals(result, {
      callId: "c",
      isError: true,
      content: `The arguments of tool "t" must be a JSON object, got: ${raw}`,
    });
  }
});

Deno.test("ScriptedProvider names every tool for an unknown one, suggesting only a near name", async () => {
  const provider = new ScriptedProvider({
    tools: [{ name: "fs_read" }, { name: "fs_write" }],
    results: { fs_read: "a", fs_write: "b" },
  });
  const [near, far] = await provider.executeToolCalls(
    [call("c1", "fs_reed"), call("c2", "http_get")],
    new NullCtx(),
  );
  assertEquals(
    near.content,
    'Unknown tool "fs_reed"; did you mean "fs_read"?; the tools are fs_read, fs_write',
  );
  assertEquals(far.content, 'Unknown tool "http_get"; the tools are fs_read, fs_write');
});

Deno.test("ScriptedProvider answers a cancelled run's calls as cancelled, without waiting", async () => {
  const controller = new AbortController();
  controller.abort(new Error("stopped"));
  let ran = 0;
  const provider = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: { t: () => String(++ran) },
  });
  const ctx = clockCtx(new FakeClock({ autoAdvance: false }), controller.signal);
  const [result] = await provider.executeToolCalls([call("c1", "t")], ctx);
  assertEquals([result.isError, result.content, ran], [true, "Cancelled: stopped", 0]);
});

Deno.test("ScriptedProvider sleeps only for a positive latency", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const provider = new ScriptedProvider({
    tools: [{ name: "t" }, { name: "u" }],
    results: { t: "ok", u: "ok" },
    latencyMs: { t: 0 },
  });
  // With no time passing, both answer: neither a zero latency nor none waits on the clock.
  const results = await provider.executeToolCalls(
    [call("c1", "t"), call("c2", "u")],
    clockCtx(clock),
  );
  assertEquals(results.map((r) => r.content), ["ok", "ok"]);
  assertEquals(clock.now(), 0);
});

Deno.test("ScriptedProvider answers undefined with empty content, and keeps uncloneable args", async () => {
  const seen: unknown[] = [];
  const provider = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: {
      t: (args: Record<string, unknown>) => {
        seen.push(args.fn);
        return undefined;
      },
    },
  });
  const fn = () => 1;
  const [result] = await provider.executeToolCalls([call("c1", "t", { fn })], new NullCtx());
  assertEquals([result.isError, result.content], [false, ""]);
  assertEquals(seen, [fn]);
  assertEquals(provider.recordedCalls[0].args, { fn });
});

Deno.test("ScriptedProvider names what is wrong in its script", () => {
  // deno-lint-ignore no-explicit-any
  const build = (o: any) => () => new ScriptedProvider(o);
  assertThrows(build({ tools: [{ name: "t" }] }), TypeError, '"results"');
  assertThrows(
    build({ tools: [{ name: 5 }], results: {} }),
    InvalidScript,
    "ScriptedProvider tools[0]",
  );
  const error = assertThrows(
    build({ tools: [{ name: "fs_read" }, { name: "fs_write" }], results: { http: 1 } }),
    InvalidScript,
  );
  assertEquals(
    error.message,
    'ScriptedProvider has a result for "http", which is not one of its tools (fs_read, fs_write)',
  );
});
