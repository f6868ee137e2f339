// makeTestCtx's common bag (a model and the run's own fields) builds its
// services when they are first read; every other bag takes the checked path.
// A bag with a default price table added first takes the checked path (its
// first key is not of the common bag) and means the same, so the two are
// compared on every bag generated: the same error (class and message), or
// the same context.
import { assert, assertEquals, assertInstanceOf, assertStrictEquals } from "@std/assert";
import fc from "fast-check";
import {
  Agent,
  Budget,
  Invoker,
  meter,
  NoopObserver,
  NoopTrace,
  PriceTable,
  RunContext,
  Services,
} from "@agentkit/testing/runtime";
import { Scope } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const llm = new FakeLLM("ok");
const budget = new Budget({ maxCostUsd: "1" });
const scope = new Scope({ orgId: 3 });
const signal = new AbortController().signal;
const odd = fc.constantFrom<unknown>(null, 0, "", "x", true, [], {}, () => {}, 1n);

// Valid values of the common bag's keys, and values some rule refuses.
const good = {
  llm: fc.constantFrom<unknown>(
    llm,
    { chat() {}, stream() {} },
    Object.assign(() => {}, { chat() {}, stream() {} }),
    undefined,
  ),
  scope: fc.constantFrom<unknown>(scope, undefined),
  budget: fc.constantFrom<unknown>(budget, undefined),
  meters: fc.constantFrom<unknown>([], [budget], undefined),
  correlationId: fc.constantFrom<unknown>("run-1", undefined),
  autonomy: fc.constantFrom<unknown>("auto", "manual", undefined),
  signal: fc.constantFrom<unknown>(signal, undefined),
  allowModelRequests: fc.constantFrom<unknown>(true, false, undefined),
};
const bad = {
  llm: fc.oneof(
    fc.constantFrom<unknown>({ chat() {} }, { stream() {} }, { chat: 1, stream() {} }),
    odd,
  ),
  scope: fc.oneof(fc.constant<unknown>({ orgId: 1 }), odd),
  budget: odd,
  meters: fc.oneof(fc.constant<unknown>([{}]), odd),
  correlationId: odd,
  autonomy: fc.oneof(fc.constant<unknown>("none"), odd),
  signal: odd,
  allowModelRequests: odd,
};
// Not of the common bag: each sends it down the checked path.
const others = {
  chatMiddleware: fc.constantFrom<unknown>([meter()], [], undefined, [meter]),
  clock: fc.constantFrom<unknown>(new FakeClock({ start: 5 }), undefined, {}),
  invoker: fc.constantFrom<unknown>(undefined, new Invoker({ llm })),
  tools: fc.constantFrom<unknown>(undefined, []),
  contnet: fc.constant(undefined),
};
type Key = keyof typeof good;
const mixed = Object.fromEntries(
  (Object.keys(good) as Key[]).map((k) => [k, fc.oneof(good[k], bad[k])]),
) as Record<Key, fc.Arbitrary<unknown>>;

// A good bag with no undefined value, and one key that is not a knob.
const defined = Object.fromEntries(
  (Object.keys(good) as Key[]).map((k) => [k, good[k].filter((v) => v !== undefined)]),
) as Record<Key, fc.Arbitrary<unknown>>;
const unknownKey = fc.tuple(
  fc.record(defined, { requiredKeys: [] }),
  fc.constantFrom("contnet", "tools", "model", "llM", "clock_"),
  fc.constantFrom<unknown>(undefined, 1, llm),
).map(([b, key, value]) => ({ ...b, [key]: value }));
// One bad value in an otherwise good bag.
const oneBad = fc.tuple(
  fc.record(defined, { requiredKeys: [] }),
  fc.constantFrom(...(Object.keys(good) as Key[])),
  fc.nat(),
).chain(([b, key]) => bad[key].map((v) => ({ ...b, [key]: v })));

const bag = fc.oneof(
  { arbitrary: unknownKey, weight: 2 },
  { arbitrary: oneBad, weight: 3 },
  {
    arbitrary: fc.constantFrom<unknown>(null, 0, 5, "x", "", true, [], [llm], () => {}),
    weight: 1,
  },
  { arbitrary: fc.record(good, { requiredKeys: [] }), weight: 3 },
  { arbitrary: fc.record(mixed, { requiredKeys: [] }), weight: 3 },
  { arbitrary: fc.record({ ...good, ...others }, { requiredKeys: [] }), weight: 2 },
  { arbitrary: fc.record({ ...mixed, ...others }, { requiredKeys: [] }), weight: 1 },
);

type Outcome =
  | { error: string; message: string }
  | { ctx: Record<string, unknown> };

function outcome(options: unknown): Outcome {
  let ctx: RunContext;
  try {
    ctx = makeTestCtx(options as Parameters<typeof makeTestCtx>[0]);
  } catch (e) {
    // Only makeTestCtx's own refusals: anything else is a failure here.
    if (!(e instanceof TypeError || e instanceof RangeError)) throw e;
    return { error: e.constructor.name, message: e.message };
  }
  const s = ctx.services;
  return {
    ctx: {
      scope: ctx.scope,
      budget: ctx.budget,
      meters: ctx.meters,
      allMeters: ctx.allMeters,
      correlationId: ctx.correlationId,
      autonomy: ctx.autonomy,
      signal: ctx.signal,
      allowModelRequests: ctx.allowModelRequests,
      llm: s.invoker?.llm,
      chatMiddleware: s.invoker?.chatMiddleware,
      clock: s.clock instanceof FakeClock ? ["FakeClock", s.clock.now()] : s.clock,
      observer: s.observer,
      trace: s.trace,
      prices: s.prices,
      store: s.store,
    },
  };
}

Deno.test("makeTestCtx: the common bag answers as the checked path does, every error and every field", () => {
  let common = 0;
  fc.assert(
    fc.property(bag, (options) => {
      // A bag that is not an object stays as it is: no key to add.
      const checked = options !== null && typeof options === "object" && !Array.isArray(options)
        ? { prices: PriceTable.default(), ...options }
        : options;
      const got = outcome(options);
      if (checked === options) {
        // Not an options object: refused before any key is looked at.
        if (!("error" in got)) throw new Error(`built a context from ${Deno.inspect(options)}`);
        assertEquals(got.error, "TypeError");
        assert(got.message.startsWith("makeTestCtx() takes an options object ({ llm, invoker"));
        return;
      }
      const want = outcome(checked);
      assertEquals(got, want, Deno.inspect(options));
      if ("ctx" in got) common++;
    }),
    { seed: 20261202, numRuns: 2_000 },
  );
  assert(common > 100, `bags that build a context: ${common}`);
});

Deno.test("makeTestCtx: a common bag's context builds its services once, on first read, as the checked path would", () => {
  const ctx = makeTestCtx({ llm, budget });
  const services = ctx.services;
  assertInstanceOf(services, Services);
  assertStrictEquals(ctx.services, services);
  assertStrictEquals(ctx.invoker, services.invoker);
  assertStrictEquals(ctx.invoker?.llm, llm);
  assertEquals(ctx.invoker?.chatMiddleware, []);
  assertInstanceOf(ctx.clock, FakeClock);
  assertInstanceOf(ctx.observer, NoopObserver);
  assertInstanceOf(ctx.trace, NoopTrace);
  assertStrictEquals(services.prices, PriceTable.default());
  assertEquals([ctx.correlationId, ctx.allowModelRequests, ctx.autonomy], [
    "test-run",
    false,
    "auto",
  ]);
  assertEquals(ctx.allMeters, [budget]);
  // Two contexts never share their services (each its own clock).
  const other = makeTestCtx({ llm });
  assert(other.services !== services && other.clock !== ctx.clock);
  // With no model, no invoker.
  assertStrictEquals(makeTestCtx({ scope }).invoker, undefined);
  assertStrictEquals(makeTestCtx().invoker, undefined);
});

Deno.test("makeTestCtx: ctx.with() of a common bag's context shares its services", () => {
  const ctx = makeTestCtx({ llm });
  const child = ctx.with({ correlationId: "child" });
  assertStrictEquals(child.services, ctx.services);
  assertEquals(child.correlationId, "child");
  assertEquals(child.allowModelRequests, false);
});

Deno.test("makeTestCtx: a context built after a common one checks its own options again", () => {
  makeTestCtx({ llm });
  let error: unknown;
  try {
    new RunContext({ correlationId: 1 as unknown as string });
  } catch (e) {
    error = e;
  }
  assertInstanceOf(error, TypeError);
  assert(new RunContext().services instanceof Services);
});

Deno.test("makeTestCtx: a common bag's context runs an agent", async () => {
  const ctx = makeTestCtx({ llm: FakeLLM.script(["hi"]), scope });
  const result = await new Agent("a", { model: "fake-model" }).run("go", ctx);
  assertEquals(result.output, "hi");
});

Deno.test("makeTestCtx: a bag changed after the call does not change the context", () => {
  const options: { llm?: FakeLLM } = { llm };
  const ctx = makeTestCtx(options);
  options.llm = new FakeLLM("other");
  assertStrictEquals(ctx.invoker?.llm, llm);
});

Deno.test("makeTestCtx names where a misplaced option goes, and what a knob takes", async (t) => {
  const cases: Array<[string, unknown, string]> = [
    [
      "tools",
      { tools: [] },
      "tools go to new ReActCognition({ tools }) or a FakeTool in a ScriptedProvider",
    ],
    ["model", { model: "m" }, 'the model goes to new Agent(name, { model: "..." })'],
    ["provider", { provider: {} }, "a tool provider goes to new ReActCognition({ provider })"],
    [
      "an invoker without callTool()",
      { invoker: { chat() {} } },
      "makeTestCtx(): invoker must be an Invoker, got an object with chat without callTool()",
    ],
    [
      "prices without costUnits()",
      { prices: {} },
      "makeTestCtx(): prices must be a PriceTable, got {} without costUnits()",
    ],
    ["an autonomy of neither", { autonomy: "none" }, 'must be one of "auto", "manual", got "none"'],
    ["a model without stream()", { llm: { chat() {} } }, "without stream()"],
    ["a model without chat()", { llm: { stream() {} } }, "without chat()"],
  ];
  for (const [name, options, message] of cases) {
    await t.step(name, () => {
      let error: unknown;
      try {
        makeTestCtx(options as Parameters<typeof makeTestCtx>[0]);
      } catch (e) {
        error = e;
      }
      assertInstanceOf(error, TypeError);
      assert((error as TypeError).message.includes(message), (error as TypeError).message);
    });
  }
});
