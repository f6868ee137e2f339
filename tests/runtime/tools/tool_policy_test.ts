import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  CollectingObserver,
  HarnessError,
  NoAsker,
  NullCtx,
  ReActCognition,
  ToolPolicy,
} from "@agentkit/testing/runtime";
import { type ToolCall, toolCall, type ToolProvider, type ToolSpec } from "@agentkit/testing/ports";
import {
  FakeAsker,
  FakeClock,
  FakeLLM,
  makeTestCtx,
  ScriptedProvider,
  ScriptedProviderWithGrants,
  ScriptExhausted,
} from "@agentkit/testing/testing";

function files(): ScriptedProvider {
  return new ScriptedProvider({
    tools: [{ name: "fs_read" }, { name: "fs_write" }, { name: "fs_delete" }, { name: "fs_list" }],
    results: {
      fs_read: ({ path }) => `contents of ${path}`,
      fs_write: "written",
      fs_delete: "deleted",
      fs_list: "a.txt",
    },
    allowUnused: true,
  });
}

const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCall => ({
  id,
  name,
  args,
});
const names = (specs: readonly ToolSpec[] | Promise<readonly ToolSpec[]>) =>
  (specs as readonly ToolSpec[]).map((s) => s.name);

Deno.test("ToolPolicy hides denied tools and refuses a call of one anyway", async () => {
  const inner = files();
  const policy = new ToolPolicy(inner, { deny: ["fs_delete", "fs_write"] });
  assertEquals(names(policy.listTools()), ["fs_read", "fs_list"]);
  const results = await policy.executeToolCalls(
    [call("c1", "fs_delete"), call("c2", "fs_read", { path: "a" })],
    new NullCtx(),
  );
  assertEquals(results, [
    {
      callId: "c1",
      isError: true,
      content: 'Refused: tool "fs_delete" is denied by the tool policy',
    },
    { callId: "c2", isError: false, content: "contents of a" },
  ]);
  assertEquals(
    inner.recordedCalls.map((c) => c.id),
    ["c2"],
    "the refused call never reached the provider",
  );
});

Deno.test("ToolPolicy with allow offers only those, and refuses the rest", async () => {
  const inner = files();
  const policy = new ToolPolicy(inner, { allow: ["fs_read", "fs_list"] });
  assertEquals(names(policy.listTools()), ["fs_read", "fs_list"]);
  const [r] = await policy.executeToolCalls([call("c1", "fs_write")], new NullCtx());
  assertEquals(r, {
    callId: "c1",
    isError: true,
    content:
      'Refused: tool "fs_write" is not allowed by the tool policy (allowed: fs_read, fs_list)',
  });
  assertEquals(inner.recordedCalls.length, 0);
  const none = new ToolPolicy(files(), { allow: [] });
  assertEquals(names(none.listTools()), []);
  const [n] = await none.executeToolCalls([call("c1", "fs_read")], new NullCtx());
  assertMatch(n.content, /\(allowed: none\)$/);
  // One name as a string is a list of one.
  assertEquals(names(new ToolPolicy(files(), { allow: "fs_list" }).listTools()), ["fs_list"]);
  assertEquals(names(new ToolPolicy(files(), { deny: "fs_list" }).listTools()), [
    "fs_read",
    "fs_write",
    "fs_delete",
  ]);
  assertEquals(names(new ToolPolicy(files()).listTools()), [
    "fs_read",
    "fs_write",
    "fs_delete",
    "fs_list",
  ]);
});

Deno.test("ToolPolicy asks ctx.asker about a tool in approve; yes runs it, no refuses it", async () => {
  const inner = files();
  const policy = new ToolPolicy(inner, { approve: ["fs_write", "fs_delete"] });
  using asker = new FakeAsker(["yes", "no thanks"]);
  const observer = new CollectingObserver();
  const ctx = makeTestCtx({ asker, observer });
  const results = await policy.executeToolCalls([
    call("c1", "fs_write", { path: "a" }),
    call("c2", "fs_read", { path: "b" }),
    call("c3", "fs_delete", { path: "a" }),
  ], ctx);
  assertEquals(asker.questions, [
    'Allow tool "fs_write" with {"path":"a"}? (yes/no)',
    'Allow tool "fs_delete" with {"path":"a"}? (yes/no)',
  ]);
  assertEquals(results, [
    { callId: "c1", isError: false, content: "written" },
    { callId: "c2", isError: false, content: "contents of b" },
    {
      callId: "c3",
      isError: true,
      content: 'Denied: the user did not approve tool "fs_delete" (answered "no thanks")',
    },
  ]);
  assertEquals(inner.recordedCalls.map((c) => c.id), ["c1", "c2"]);
  assertEquals(inner.turnsTaken, 1, "what passed went as one batch");
  assertEquals(
    observer.items.filter((o) => o.kind === "approval_denied").map((o) => [o.text, o.payload]),
    [['tool "fs_delete" was not approved', { tool: "fs_delete", answer: "no thanks" }]],
  );
});

Deno.test("ToolPolicy shows the human the raw arguments, parsed when they parse", async () => {
  const policy = new ToolPolicy(files(), { approve: "fs_write" });
  using asker = new FakeAsker(["no", "no"]);
  await policy.executeToolCalls([
    { id: "c1", name: "fs_write", args: {}, rawArgs: '{"path":"x"}' },
    { id: "c2", name: "fs_write", args: {}, rawArgs: '{"path":' },
  ], makeTestCtx({ asker }));
  assertEquals(asker.questions, [
    'Allow tool "fs_write" with {"path":"x"}? (yes/no)',
    'Allow tool "fs_write" with "{\\"path\\":"? (yes/no)',
  ]);
});

Deno.test("ToolPolicy: a ScriptedProvider under a real policy in a ReAct run", async () => {
  const inner = files();
  const provider = new ToolPolicy(inner, { deny: "fs_delete", approve: "fs_write" });
  using asker = new FakeAsker(["approve"]);
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "fs_write", { path: "a.txt" })] },
    { toolCalls: [toolCall("c2", "fs_delete", { path: "a.txt" })] },
    { content: "Written; deleting is not allowed." },
  ]);
  const agent = new Agent("a", { model: "m", cognition: new ReActCognition({ provider }) });
  const result = await agent.run("write, then delete", makeTestCtx({ llm, asker }));
  assertEquals(result.output, "Written; deleting is not allowed.");
  assertEquals(llm.requests[0].tools.map((t) => t.name), ["fs_read", "fs_write", "fs_list"]);
  assertEquals(result.messages[2].content, "written");
  assertEquals(
    result.messages[4].content,
    'Error: Refused: tool "fs_delete" is denied by the tool policy',
  );
  assertEquals(inner.recordedCalls.map((c) => c.name), ["fs_write"]);
});

Deno.test("ToolPolicy without an asker for a call to approve throws NoAsker (a harness error)", async () => {
  const policy = new ToolPolicy(files(), { approve: ["fs_write"] });
  const error = await assertRejects(
    () => policy.executeToolCalls([call("c1", "fs_write")], new NullCtx()),
    NoAsker,
  );
  assertMatch(
    error.message,
    /tool "fs_write": a ToolPolicy lists it in approve but the context has no asker/,
  );
  assert(error instanceof HarnessError);
  // A call that needs no approval needs no asker.
  const [r] = await policy.executeToolCalls([call("c2", "fs_read", { path: "a" })], new NullCtx());
  assertEquals(r.isError, false);
});

Deno.test("ToolPolicy: an asker that fails refuses the call; a harness error from it escapes", async () => {
  const policy = new ToolPolicy(files(), { approve: ["fs_write"] });
  const failing = { ask: () => Promise.reject(new Error("the pager is down")) };
  const [r] = await policy.executeToolCalls(
    [call("c1", "fs_write")],
    makeTestCtx({ asker: failing }),
  );
  assertEquals(r, {
    callId: "c1",
    isError: true,
    content: 'Refused: tool "fs_write" needs approval, and asking failed: the pager is down',
  });
  const plain = { ask: () => Promise.reject("no line") };
  const [p] = await policy.executeToolCalls(
    [call("c1", "fs_write")],
    makeTestCtx({ asker: plain }),
  );
  assertMatch(p.content, /asking failed: no line$/);
  const asker = new FakeAsker([]);
  await assertRejects(
    () => policy.executeToolCalls([call("c1", "fs_write")], makeTestCtx({ asker })),
    ScriptExhausted,
  );
});

Deno.test("ToolPolicy: a cancellation while the human thinks is a Cancelled result", async () => {
  const clock = new FakeClock();
  const controller = new AbortController();
  using asker = new FakeAsker(["yes"], { delayMs: 60_000, allowUnused: true });
  const inner = files();
  const policy = new ToolPolicy(inner, { approve: ["fs_write"] });
  const pending = policy.executeToolCalls(
    [call("c1", "fs_write")],
    makeTestCtx({ asker, clock, signal: controller.signal }),
  );
  clock.advance(1_000); // the human is still thinking
  controller.abort(new Error("stopped"));
  const [r] = await pending;
  assertEquals(r, { callId: "c1", isError: true, content: "Cancelled: stopped" });
  assertEquals(inner.recordedCalls.length, 0);
});

Deno.test("ToolPolicy never throws from the provider under it: a failure or a missing result is an isError result", async () => {
  const throwing: ToolProvider = {
    listTools: () => [{ name: "t", description: "", parameters: {} }],
    executeToolCalls: () => Promise.reject(new Error("socket hang up")),
  };
  const [r] = await new ToolPolicy(throwing).executeToolCalls([call("c1", "t")], new NullCtx());
  assertEquals(r, {
    callId: "c1",
    isError: true,
    content: "The tool provider under the policy failed: socket hang up",
  });
  const plain: ToolProvider = { ...throwing, executeToolCalls: () => Promise.reject("eof") };
  const [p] = await new ToolPolicy(plain).executeToolCalls([call("c1", "t")], new NullCtx());
  assertEquals(p.content, "The tool provider under the policy failed: eof");
  const silent: ToolProvider = { ...throwing, executeToolCalls: () => Promise.resolve([]) };
  const [s] = await new ToolPolicy(silent).executeToolCalls([call("c1", "t")], new NullCtx());
  assertEquals(
    s.content,
    'The tool provider under the policy gave no result for call "c1" of tool "t"',
  );
  const holey: ToolProvider = {
    ...throwing,
    executeToolCalls: () => Promise.resolve([null as never]),
  };
  const [h] = await new ToolPolicy(holey).executeToolCalls([call("c1", "t")], new NullCtx());
  assertEquals(
    h.content,
    'The tool provider under the policy gave no result for call "c1" of tool "t"',
  );
  const garbage: ToolProvider = {
    ...throwing,
    executeToolCalls: () => Promise.resolve(7 as never),
  };
  const [g] = await new ToolPolicy(garbage).executeToolCalls([call("c1", "t")], new NullCtx());
  assertEquals(g.isError, true);
  const harness: ToolProvider = {
    ...throwing,
    executeToolCalls: () => Promise.reject(new HarnessError("script ran out")),
  };
  await assertRejects(
    () => new ToolPolicy(harness).executeToolCalls([call("c1", "t")], new NullCtx()),
    HarnessError,
  );
  // Nothing passed: the provider is not asked at all.
  let asked = 0;
  const counting: ToolProvider = {
    ...throwing,
    executeToolCalls: () => (asked++, Promise.resolve([])),
  };
  const out = await new ToolPolicy(counting, { deny: "t" }).executeToolCalls(
    [call("c1", "t")],
    new NullCtx(),
  );
  assertEquals([asked, out.length], [0, 1]);
});

Deno.test("ToolPolicy filters a provider's list that has to be asked for", async () => {
  const mcpLike: ToolProvider = {
    listTools: () =>
      Promise.resolve(["a", "b", "c"].map((name) => ({ name, description: "", parameters: {} }))),
    executeToolCalls: () => Promise.resolve([]),
  };
  const listed = new ToolPolicy(mcpLike, { deny: "b" }).listTools();
  assert(listed instanceof Promise);
  assertEquals((await listed).map((s) => s.name), ["a", "c"]);
  const bad: ToolProvider = { ...mcpLike, listTools: () => Promise.resolve({} as never) };
  await assertRejects(
    () => Promise.resolve(new ToolPolicy(bad).listTools()),
    TypeError,
    "The tool provider under a ToolPolicy gave no array from listTools()",
  );
});

Deno.test("ToolPolicy has grants() only when the provider under it has one", async () => {
  assertEquals("grants" in new ToolPolicy(files()), false);
  const inner = new ScriptedProviderWithGrants({
    tools: [{ name: "fs_read" }],
    results: { fs_read: "" },
    grants: ["fs_read"],
  });
  const policy = new ToolPolicy(inner, { deny: [] });
  assertEquals(await policy.grants!(), ["fs_read"]);
  assertEquals(inner.grantsCalls, 1);
});

Deno.test("new ToolPolicy() checks its provider and options", async (t) => {
  const p = files();
  const cases: [string, () => unknown, ErrorConstructor | RangeErrorConstructor, string][] = [
    [
      "no provider",
      () => new ToolPolicy(undefined as never),
      TypeError,
      "new ToolPolicy(): the provider must be a ToolProvider",
    ],
    [
      "a provider without executeToolCalls",
      () => new ToolPolicy({ listTools: () => [] } as never),
      TypeError,
      "without executeToolCalls()",
    ],
    [
      "an unknown option",
      () => new ToolPolicy(p, { denny: ["x"] } as never),
      TypeError,
      'unknown option "denny"; did you mean "deny"? (the options are allow, deny, approve)',
    ],
    [
      "a number for names",
      () => new ToolPolicy(p, { allow: 5 } as never),
      TypeError,
      'option "allow" must be a tool name or an array of tool names (non-empty strings), got 5',
    ],
    [
      "an array holding a number",
      () => new ToolPolicy(p, { deny: ["a", 1] } as never),
      TypeError,
      'option "deny" must be a tool name or an array of tool names',
    ],
    [
      "an empty name",
      () => new ToolPolicy(p, { approve: [""] }),
      RangeError,
      'new ToolPolicy(): approve[0] must be a non-empty string, got ""',
    ],
    ["an empty string", () => new ToolPolicy(p, { deny: "" }), RangeError, 'option "deny"'],
    [
      "a set instead of an array",
      () => new ToolPolicy(p, { allow: new Set(["a"]) } as never),
      TypeError,
      'option "allow" must be',
    ],
    [
      "options that are not an object",
      () => new ToolPolicy(p, ["fs_read"] as never),
      TypeError,
      "new ToolPolicy() takes an options object",
    ],
    [
      "allowed and denied",
      () => new ToolPolicy(p, { allow: ["a", "b"], deny: ["b"] }),
      TypeError,
      '"b" is in both allow and deny; take it out of one of them',
    ],
    [
      "approve a denied tool",
      () => new ToolPolicy(p, { deny: "a", approve: "a" }),
      TypeError,
      '"a" is in approve but denied, so it is never offered; take it out of deny or out of approve',
    ],
    [
      "approve a tool not allowed",
      () => new ToolPolicy(p, { allow: "b", approve: "a" }),
      TypeError,
      '"a" is in approve but not in allow, so it is never offered; add it to allow or out of approve',
    ],
  ];
  for (const [name, build, type, message] of cases) {
    await t.step(name, () => {
      assertThrows(build, type, message);
    });
  }
  // Consistent lists are fine.
  new ToolPolicy(p, { allow: ["a", "b"], deny: ["c"], approve: ["b"] });
});
