import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "@std/assert";
import fc from "fast-check";
import {
  HarnessError,
  McpToolProvider,
  NullCtx,
  ToolNameCollision,
  ToolRegistry,
} from "@agentkit/testing/runtime";
import type { ToolCall, ToolProvider, ToolResult, ToolSpec } from "@agentkit/testing/ports";
import { ScriptedProvider, ScriptedProviderWithGrants } from "@agentkit/testing/testing";

const spec = (name: string): ToolSpec => ({
  name,
  description: "",
  parameters: { type: "object" },
});

// A provider that lists `names` (at once, or as a promise) and answers each
// call with "<label>:<name>", recording the batches it received.
function provider(label: string, names: string[], async = false) {
  const batches: string[][] = [];
  const p: ToolProvider & { batches: string[][] } = {
    batches,
    listTools: () => async ? Promise.resolve(names.map(spec)) : names.map(spec),
    executeToolCalls: (calls: readonly ToolCall[]) => {
      batches.push(calls.map((c) => c.id));
      return Promise.resolve(
        calls.map((c): ToolResult => ({
          callId: c.id,
          isError: false,
          content: `${label}:${c.name}`,
        })),
      );
    },
  };
  return p;
}

const calls = (...names: string[]): ToolCall[] =>
  names.map((name, i) => ({ id: `c${i + 1}`, name, args: {} }));

Deno.test("ToolRegistry lists every provider's tools in order, at once when they all answer at once", async () => {
  const registry = new ToolRegistry([provider("a", ["x", "y"]), provider("b", ["z"])]);
  const listed = registry.listTools();
  assert(Array.isArray(listed));
  assertEquals((listed as readonly ToolSpec[]).map((s) => s.name), ["x", "y", "z"]);
  const mixed = new ToolRegistry([provider("a", ["x"]), provider("b", ["z"], true)]).listTools();
  assert(mixed instanceof Promise);
  assertEquals((await mixed).map((s) => s.name), ["x", "z"]);
});

Deno.test("ToolRegistry sends each call to its provider, one batch each, results in the caller's order", async () => {
  const a = provider("a", ["x", "y"]);
  const b = provider("b", ["z"], true);
  const registry = new ToolRegistry([a, b]);
  await registry.listTools();
  const results = await registry.executeToolCalls(calls("z", "x", "nope", "y", "z"), new NullCtx());
  assertEquals(results.map((r) => [r.callId, r.isError, r.content]), [
    ["c1", false, "b:z"],
    ["c2", false, "a:x"],
    ["c3", true, 'Unknown tool "nope"; the tools are x, y, z'],
    ["c4", false, "a:y"],
    ["c5", false, "b:z"],
  ]);
  assertEquals(b.batches, [["c1", "c5"]]);
  assertEquals(a.batches, [["c2", "c4"]]);
});

Deno.test("ToolRegistry suggests the nearest name for an unknown tool", async () => {
  const registry = new ToolRegistry([provider("a", ["fs_read"])]);
  const [r] = await registry.executeToolCalls(calls("fs_raed"), new NullCtx());
  assertEquals(r.content, 'Unknown tool "fs_raed"; did you mean "fs_read"?; the tools are fs_read');
  const empty = new ToolRegistry([provider("a", [])]);
  const [none] = await empty.executeToolCalls(calls("x"), new NullCtx());
  assertEquals(none.content, 'Unknown tool "x"; the tools are none');
});

Deno.test("ToolRegistry lists first when a call comes before any listing", async () => {
  const a = provider("a", ["x"], true);
  const [r] = await new ToolRegistry([a]).executeToolCalls(calls("x"), new NullCtx());
  assertEquals(r.content, "a:x");
});

Deno.test("ToolRegistry: a name two providers list is a ToolNameCollision naming both", async (t) => {
  await t.step("thrown at once when both answer at once", () => {
    const error = assertThrows(
      () =>
        new ToolRegistry([provider("a", ["x"]), provider("b", ["y"]), provider("c", ["x"])])
          .listTools(),
      ToolNameCollision,
    );
    assertEquals(error.tool, "x");
    assertEquals(error.providers, ["providers[0]", "providers[2]"]);
    assertEquals(error.name, "ToolNameCollision");
    assertMatch(
      error.message,
      /^Cannot merge the tools of a ToolRegistry: providers\[0\] and providers\[2\] both list a tool named "x"; give one of them a prefix/,
    );
  });

  await t.step(
    "as the rejection when a provider had to be asked, naming classes and servers",
    async () => {
      const mcp = new McpToolProvider({
        listTools: () =>
          Promise.resolve({ tools: [{ name: "search", inputSchema: { type: "object" } }] }),
        callTool: () => Promise.resolve({ content: [] }),
        getServerVersion: () => ({ name: "web" }),
      });
      const scripted = new ScriptedProvider({
        tools: [{ name: "search" }],
        results: { search: "s" },
        allowUnused: true,
      });
      const error = await assertRejects(
        () => Promise.resolve(new ToolRegistry([mcp, scripted]).listTools()),
        ToolNameCollision,
      );
      assertEquals(error.providers, [
        'providers[0] (McpToolProvider "web")',
        "providers[1] (ScriptedProvider)",
      ]);
    },
  );

  await t.step("checked on every listing: a list that changes can collide later", () => {
    let names = ["x"];
    const changing: ToolProvider = {
      listTools: () => names.map(spec),
      executeToolCalls: () => Promise.resolve([]),
    };
    const registry = new ToolRegistry([provider("a", ["y"]), changing]);
    assertEquals((registry.listTools() as ToolSpec[]).map((s) => s.name), ["y", "x"]);
    names = ["y"];
    assertThrows(() => registry.listTools(), ToolNameCollision, '"y"');
  });
});

Deno.test("ToolRegistry never throws from a call: a failing or silent provider is an isError result", async () => {
  const throwing: ToolProvider = {
    listTools: () => [spec("boom")],
    executeToolCalls: () => Promise.reject(new Error("socket hang up")),
  };
  const silent: ToolProvider = {
    listTools: () => [spec("quiet"), spec("half")],
    executeToolCalls: (cs) =>
      Promise.resolve(
        cs.filter((c) => c.name === "half").map((c) => ({
          callId: c.id,
          isError: false,
          content: "ok",
        })),
      ),
  };
  const garbage: ToolProvider = {
    listTools: () => [spec("junk")],
    executeToolCalls: () => Promise.resolve("not an array" as never),
  };
  const registry = new ToolRegistry([throwing, silent, garbage]);
  const results = await registry.executeToolCalls(
    calls("boom", "quiet", "half", "junk"),
    new NullCtx(),
  );
  assertEquals(results.map((r) => [r.isError, r.content]), [
    [true, "providers[0] failed: socket hang up"],
    [true, 'providers[1] gave no result for call "c2" of tool "quiet"'],
    [false, "ok"],
    [true, 'providers[2] gave no result for call "c4" of tool "junk"'],
  ]);
  const stringThrow: ToolProvider = {
    listTools: () => [spec("s")],
    executeToolCalls: () => Promise.reject("plain"),
  };
  const [s] = await new ToolRegistry([stringThrow]).executeToolCalls(calls("s"), new NullCtx());
  assertEquals(s.content, "providers[0] failed: plain");
});

Deno.test("ToolRegistry lets harness errors through, and a failed listing makes every call an error", async () => {
  const harness: ToolProvider = {
    listTools: () => [spec("h")],
    executeToolCalls: () => Promise.reject(new HarnessError("script ran out")),
  };
  await assertRejects(
    () => new ToolRegistry([harness]).executeToolCalls(calls("h"), new NullCtx()),
    HarnessError,
  );
  const down: ToolProvider = {
    listTools: () => Promise.reject(new Error("server down")),
    executeToolCalls: () => Promise.resolve([]),
  };
  const results = await new ToolRegistry([down]).executeToolCalls(calls("a", "b"), new NullCtx());
  assertEquals(results, [
    { callId: "c1", isError: true, content: "server down" },
    { callId: "c2", isError: true, content: "server down" },
  ]);
  const downHard: ToolProvider = {
    ...down,
    listTools: () => Promise.reject(new HarnessError("bad script")),
  };
  await assertRejects(
    () => new ToolRegistry([downHard]).executeToolCalls(calls("a"), new NullCtx()),
    HarnessError,
  );
  const downPlain: ToolProvider = { ...down, listTools: () => Promise.reject("refused") };
  const [p] = await new ToolRegistry([downPlain]).executeToolCalls(calls("a"), new NullCtx());
  assertEquals(p.content, "refused");
});

Deno.test("ToolRegistry refuses a provider whose listTools() gives no array", async () => {
  const bad: ToolProvider = {
    listTools: () => ({}) as never,
    executeToolCalls: () => Promise.resolve([]),
  };
  await assertRejects(
    () => Promise.resolve(new ToolRegistry([provider("a", []), bad]).listTools()),
    TypeError,
    "providers[1]'s listTools() did not give an array of tool specs",
  );
});

Deno.test("ToolRegistry has grants() only when a provider has one: the union of theirs", async () => {
  assertEquals("grants" in new ToolRegistry([provider("a", ["x"])]), false);
  const g1 = new ScriptedProviderWithGrants({
    tools: [{ name: "a" }],
    results: { a: "" },
    grants: ["fs_read", "net"],
  });
  const g2 = new ScriptedProviderWithGrants({
    tools: [{ name: "b" }],
    results: { b: "" },
    grants: ["net", "fs_write"],
  });
  const registry = new ToolRegistry([g1, provider("p", ["c"]), g2]);
  assertEquals(await registry.grants!(), ["fs_read", "net", "fs_write"]);
  assertEquals([g1.grantsCalls, g2.grantsCalls], [1, 1]);
});

Deno.test("new ToolRegistry() checks its providers", () => {
  assertThrows(
    () => new ToolRegistry([]),
    RangeError,
    "providers must be an array of ToolProvider",
  );
  assertThrows(
    () => new ToolRegistry(provider("a", []) as never),
    TypeError,
    "new ToolRegistry(): providers must be an array of ToolProvider",
  );
  assertThrows(
    () => new ToolRegistry([provider("a", []), { listTools: () => [] } as never]),
    TypeError,
    "providers[1] must be a ToolProvider",
  );
});

Deno.test("ToolRegistry (property): the merge keeps every tool in order and routes each call to its owner", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 12 }),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      async (names, owners, asyncs) => {
        // Deal the names out to four providers.
        const dealt: string[][] = [[], [], [], []];
        names.forEach((n, i) => dealt[(owners[i] ?? i) % 4].push(n));
        const providers = dealt.map((ns, p) => provider(`p${p}`, ns, asyncs[p]));
        const registry = new ToolRegistry(providers);
        const listed = await registry.listTools();
        assertEquals(listed.map((s) => s.name), dealt.flat());
        const results = await registry.executeToolCalls(calls(...names), new NullCtx());
        assertEquals(
          results.map((r) => r.content),
          names.map((n) => `p${dealt.findIndex((ns) => ns.includes(n))}:${n}`),
        );
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("ToolRegistry (property): a name dealt to two providers is a collision naming the first two", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 8 }),
      fc.nat(),
      fc.integer({ min: 0, max: 2 }),
      fc.integer({ min: 1, max: 3 }),
      async (names, pick, first, gap) => {
        const dup = names[pick % names.length];
        const second = Math.min(3, first + gap);
        const dealt: string[][] = [[], [], [], []];
        names.forEach((n, i) => {
          if (n !== dup) dealt[i % 4].includes(n) || dealt[i % 4].push(n);
        });
        dealt[first].push(dup);
        dealt[second].push(dup);
        const registry = new ToolRegistry(dealt.map((ns, p) => provider(`p${p}`, ns, p % 2 === 1)));
        const error = await assertRejects(
          () => Promise.resolve(registry.listTools()),
          ToolNameCollision,
        );
        assertEquals(error.tool, dup);
        assertEquals(error.providers, [`providers[${first}]`, `providers[${second}]`]);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("ToolRegistry: the edges of routing and naming", async (t) => {
  await t.step("a call after a listing routes by it, without listing again", async () => {
    let listings = 0;
    const p = provider("a", ["x"]);
    const counted: ToolProvider = { ...p, listTools: () => (listings++, p.listTools()) };
    const registry = new ToolRegistry([counted]);
    registry.listTools();
    await registry.executeToolCalls(calls("x"), new NullCtx());
    await registry.executeToolCalls(calls("x"), new NullCtx());
    assertEquals(listings, 1);
  });

  await t.step("holes in a provider's answer are missing results", async () => {
    const holey: ToolProvider = {
      listTools: () => [spec("x")],
      executeToolCalls: () => Promise.resolve([null as never]),
    };
    const [r] = await new ToolRegistry([holey]).executeToolCalls(calls("x"), new NullCtx());
    assertEquals(r.content, 'providers[0] gave no result for call "c1" of tool "x"');
  });

  await t.step("a provider is named by its class, and by its name only when that is text", () => {
    class Named {
      name: unknown;
      constructor(name: unknown) {
        this.name = name;
      }
      listTools = () => [spec("x")];
      executeToolCalls = () => Promise.resolve([]);
    }
    const bare = Object.assign(Object.create(null), {
      listTools: () => [spec("x")],
      executeToolCalls: () => Promise.resolve([]),
    });
    const error = assertThrows(
      () => new ToolRegistry([new Named(5), new Named("files"), bare]).listTools(),
      ToolNameCollision,
    );
    assertEquals(error.providers, ["providers[0] (Named)", 'providers[1] (Named "files")']);
    const third = assertThrows(
      () => new ToolRegistry([new Named(""), bare]).listTools(),
      ToolNameCollision,
    );
    assertEquals(third.providers, ["providers[0] (Named)", "providers[1]"]);
  });
});
