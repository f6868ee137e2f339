// The second table of bad inputs: the positional arguments, the return values
// of callbacks and the values hidden inside options, across the doubles and
// the core, as a careless user would pass them (wrong types, NaN, Infinity,
// negatives, huge values, empty strings, null, arrays for objects,
// non-functions for callbacks). Each must be an error of the expected class
// whose message names what was given and what is accepted; none may pass
// silently, hang, or fail from inside. (The options bags themselves are in
// bad_input_table_test.ts.)
import { assert } from "@std/assert";
import { z } from "zod";
import {
  Agent,
  Budget,
  InMemorySessionStore,
  Invoker,
  PriceTable,
  Quota,
  RunContext,
  Session,
} from "@agentkit/testing/runtime";
import { type ChatRequest, Scope, toolCall } from "@agentkit/testing/ports";
import {
  chaos,
  type ChaosWorld,
  FakeAsker,
  FakeClock,
  FakeCompactor,
  FakeCtx,
  FakeEmbedder,
  FakeFetch,
  FakeGrounder,
  FakeLLM,
  FakeMemory,
  FakeSearch,
  FakeTool,
  InvalidScenario,
  InvalidScript,
  makeTestCtx,
  RecordingTracer,
} from "@agentkit/testing/testing";
import { isInternalError, noHang } from "./fuzz/_fuzz.ts";
// Issue 38's rows (below, at the end of cases()).
import { ProviderResponseError as ScriptedProviderError } from "@agentkit/testing/ports";
import { McpToolProvider, OpenAIChatLLM } from "@agentkit/testing/runtime";
import { cassette, FakeProvider, transcript } from "@agentkit/testing/testing";
// Issue 37's rows.
import { mcpClientHandlers } from "@agentkit/testing/runtime";
import { FakeMcpServer } from "@agentkit/testing/testing";

type ErrorClass = abstract new (...args: never[]) => Error;

interface Case {
  readonly entry: string;
  readonly what: string;
  readonly run: () => unknown;
  /** The class the error must be. */
  readonly error: ErrorClass;
  /** Every one of these must be in the message: what was given, what is accepted. */
  readonly names: readonly string[];
}

const cyclic = (): Record<string, unknown> => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
};
const ctx = () => new FakeCtx();
const request: ChatRequest = { model: "m", messages: [{ role: "user", content: "go" }] };
const charge = (usage: unknown, costUnits: unknown = 0n) =>
  ({ model: "m", usage, costUnits }) as never;
const loads = (state: unknown) =>
  ({
    load: () => Promise.resolve(state),
    save: () => Promise.resolve(),
    delete: () => Promise.resolve(false),
  }) as never;
const TOOL_NAME = "a tool name is 1 to 64 letters, digits, underscores or dashes";
const MS = "a finite number of milliseconds, 0 or more";
const ROLES = "the roles are system, user, assistant, tool";

function cases(): Case[] {
  const out: Case[] = [];
  const add = (
    entry: string,
    what: string,
    run: () => unknown,
    error: ErrorClass,
    ...names: string[]
  ) => out.push({ entry, what, run, error, names });

  // Money: exact or refused, never rounded to zero; counts are counts.
  for (const v of ["0.0000000000001", 1e-13, "0.1234567890123"]) {
    add(
      "new Budget()",
      `maxCostUsd ${v}`,
      () => new Budget({ maxCostUsd: v }),
      RangeError,
      `${v}`,
      "12 decimals",
    );
  }
  add(
    "new Budget()",
    'maxCostUsd "0.0000001" reads back as kept',
    () => {
      const b = new Budget({ maxCostUsd: "0.0000001" });
      if (b.maxCostUsd !== "0.0000001") return b.maxCostUsd;
      throw new RangeError(`kept as ${b.maxCostUsd}, as given`);
    },
    RangeError,
    "0.0000001",
  );
  add(
    "Budget.spent()",
    "a spend of 0.0000001 reads back as kept",
    () => {
      const b = new Budget();
      b.add("0.0000001");
      if (b.spent() !== "0.0000001") return b.spent();
      throw new RangeError(`spent ${b.spent()}, as added`);
    },
    RangeError,
    "0.0000001",
  );
  add(
    "Quota",
    'maxCostUsd "0.0000001" reads back as kept',
    () => {
      const q = new Quota({ maxCostUsd: "0.0000001" });
      if (q.maxCostUsd !== "0.0000001") return q.maxCostUsd;
      throw new RangeError(`kept as ${q.maxCostUsd}, as given`);
    },
    RangeError,
    "0.0000001",
  );
  for (
    const [v, type] of [
      [NaN, RangeError],
      [Infinity, RangeError],
      [-0.5, RangeError],
      [1e300, RangeError],
      [" 1", RangeError],
      ["1e-7", TypeError],
      ["", TypeError],
      [true, TypeError],
      [null, TypeError],
      [[1], TypeError],
      [{}, TypeError],
    ] as const
  ) {
    const given = typeof v === "number" ? String(v) : JSON.stringify(v);
    add("Budget.add()", given, () => new Budget().add(v as never), type, "amount", given);
  }
  for (
    const [what, usage, type, name] of [
      ["NaN input", { inputTokens: NaN, outputTokens: 0 }, RangeError, "got NaN"],
      ["Infinity output", { inputTokens: 1, outputTokens: Infinity }, RangeError, "got Infinity"],
      ["string output", { inputTokens: 1, outputTokens: "2" }, TypeError, 'got "2"'],
      [
        "negative cached",
        { inputTokens: 1, outputTokens: 1, cachedInputTokens: -1 },
        RangeError,
        "got -1",
      ],
      ["2^53 input", { inputTokens: 2 ** 53, outputTokens: 0 }, RangeError, "got 9007199254740992"],
      ["no usage", undefined, TypeError, "usage must be a Usage object"],
      ["an array usage", [1, 2], TypeError, "usage must be a Usage object"],
    ] as const
  ) {
    add(
      "Budget.charge()",
      what,
      () => new Budget().charge(charge(usage)),
      type,
      "Budget.charge()",
      name,
    );
    add(
      "Quota.charge()",
      what,
      () => new Quota().charge(charge(usage), makeTestCtx()),
      type,
      "Quota.charge()",
      name,
    );
    add(
      "PriceTable.costUsd()",
      what,
      () => PriceTable.default().costUsd("fake-model", usage as never),
      type,
      "PriceTable.costUsd()",
      name,
    );
    add(
      "PriceTable.costUnits()",
      `${what}, unpriced model`,
      () => PriceTable.default().costUnits("nope", usage as never),
      type,
      "PriceTable.costUnits()",
      name,
    );
  }
  add(
    "Budget.charge()",
    "costUnits 5 (a number)",
    () => new Budget().charge(charge({ inputTokens: 1, outputTokens: 0 }, 5)),
    TypeError,
    "costUnits",
    "got 5",
    "bigint",
  );
  add(
    "Budget.charge()",
    "costUnits -1n",
    () => new Budget().charge(charge({ inputTokens: 1, outputTokens: 0 }, -1n)),
    RangeError,
    "costUnits",
    "got -1n",
    "0n or more",
  );
  add(
    "Budget.charge()",
    "no charge",
    () => new Budget().charge(undefined as never),
    TypeError,
    "charge",
    "got undefined",
  );
  add(
    "Quota.charge()",
    "costUnits 1.5",
    () => new Quota().charge(charge({ inputTokens: 1, outputTokens: 0 }, 1.5), makeTestCtx()),
    TypeError,
    "costUnits",
    "got 1.5",
  );
  add(
    "Quota.charge()",
    "no ctx",
    () => new Quota().charge(charge({ inputTokens: 1, outputTokens: 0 }), undefined as never),
    TypeError,
    "ctx",
    "Scope",
  );
  add(
    "Quota.check()",
    "no ctx",
    () => new Quota().check(undefined as never),
    TypeError,
    "Quota.check()",
    "Scope",
  );
  add(
    "Quota.check()",
    "a ctx without a scope",
    () => new Quota().check({} as never),
    TypeError,
    "Quota.check()",
    "Scope",
  );
  add(
    "Quota.used()",
    "no scope",
    () => new Quota().used(undefined as never),
    TypeError,
    "Quota.used()",
    "got undefined",
    "Scope",
  );
  add(
    "Quota.used()",
    "a string scope",
    () => new Quota().used("org1" as never),
    TypeError,
    'got "org1"',
    "Scope",
  );
  for (const model of [undefined, 5, null, {}]) {
    const given = model === undefined ? "undefined" : JSON.stringify(model);
    add(
      "PriceTable.costUsd()",
      `model ${given}`,
      () => PriceTable.default().costUsd(model as never, { inputTokens: 1, outputTokens: 1 }),
      TypeError,
      "model name",
      "a string",
      `got ${given}`,
    );
    add(
      "PriceTable.has()",
      `model ${given}`,
      () => PriceTable.default().has(model as never),
      TypeError,
      "model name",
      "a string",
    );
  }
  add(
    "PriceTable.costUsd()",
    "(undefined, undefined)",
    () => PriceTable.default().costUsd(undefined as never, undefined as never),
    TypeError,
    "model name",
    "got undefined",
  );

  // FakeTool: names providers accept, schemas that are schemas, answers that are JSON.
  for (
    const name of [
      "my tool",
      "a".repeat(65),
      "a".repeat(1 << 20),
      "fs.read",
      "9lives",
      "-x",
      "tool!",
      "ünï",
    ]
  ) {
    add(
      "new FakeTool()",
      `name ${JSON.stringify(name.slice(0, 12))} (${name.length})`,
      () => new FakeTool({ name, responder: "x" }),
      RangeError,
      "name",
      TOOL_NAME,
    );
  }
  for (
    const [what, parameters, names] of [
      ["a string", "x", ['got "x"', "JSON Schema"]],
      ["an array", [], ["got an array", "JSON Schema"]],
      ["a number", 5, ["got 5", "JSON Schema"]],
      ["type bogus", { type: "bogus" }, ['"bogus"', "the types are"]],
      ["properties 5", { type: "object", properties: 5 }, ["properties", "got 5"]],
      ["a property that is a string", { properties: { a: "string" } }, [
        "properties.a",
        'got "string"',
      ]],
      ["required a string", { required: "a" }, ["required", 'got "a"']],
      ["a nested bad type", { properties: { a: { type: "str" } } }, ['"str"', "the types are"]],
    ] as const
  ) {
    add(
      "new FakeTool()",
      `parameters ${what}`,
      () => new FakeTool({ name: "t", responder: "x", parameters: parameters as never }),
      TypeError,
      "parameters",
      ...names,
    );
  }
  for (
    const [what, value, name] of [
      ["a BigInt", () => 1n, "BigInt (1n)"],
      ["a cycle", () => cyclic(), "a cycle"],
      ["NaN inside", () => ({ score: NaN }), "NaN"],
      ["a Map", () => new Map(), "a Map"],
      ["a promised BigInt", () => Promise.resolve({ n: 2n }), "BigInt (2n)"],
      ["a function inside", () => ({ f() {} }), "a function"],
    ] as const
  ) {
    add(
      "FakeTool.call()",
      `a responder answering ${what}`,
      () => new FakeTool({ name: "t", responder: value }).call({}, ctx()),
      InvalidScript,
      'FakeTool "t"',
      "call 1",
      name,
      "JSON",
    );
  }
  add(
    "new FakeTool()",
    "responder value with a BigInt",
    () => new FakeTool({ name: "t", responder: { n: 1n } }),
    TypeError,
    "responder.n",
    "BigInt",
    "JSON",
  );
  add(
    "new FakeTool()",
    "responder value with a cycle",
    () => new FakeTool({ name: "t", responder: cyclic() }),
    TypeError,
    "responder.self",
    "cycle",
  );

  // FakeLLM: no key that matches everything, JSON arguments, a real request.
  add(
    "new FakeLLM()",
    'the key ""',
    () => new FakeLLM({ "": "x" }),
    InvalidScript,
    'key ""',
    "every prompt",
    "non-empty",
  );
  add(
    "new FakeLLM()",
    'the key "" among others',
    () => new FakeLLM({ a: "1", "": "x" }),
    InvalidScript,
    'key ""',
  );
  add(
    "FakeLLM responder",
    "tool-call args with a BigInt",
    () =>
      new FakeLLM(() => ({ toolCalls: [toolCall("c", "t", { n: 1n as never })] })).chat(request),
    InvalidScript,
    "FakeLLM",
    "call 1",
    "BigInt (1n)",
  );
  add(
    "FakeLLM responder",
    "tool-call args with a cycle",
    () => new FakeLLM(() => ({ toolCalls: [toolCall("c", "t", cyclic())] })).chat(request),
    InvalidScript,
    "FakeLLM",
    "call 1",
    "cycle",
  );
  add(
    "FakeLLM responder",
    "an async answer with a BigInt",
    () =>
      new FakeLLM(() => Promise.resolve({ toolCalls: [toolCall("c", "t", { n: 3n as never })] }))
        .chat(request),
    InvalidScript,
    "call 1",
    "BigInt (3n)",
  );
  add(
    "FakeLLM responder",
    "a number",
    () => new FakeLLM(() => 5 as never).chat(request),
    InvalidScript,
    "call 1",
    "got number",
    "a turn object or a string",
  );
  add(
    "FakeLLM.script()",
    "tool-call args with NaN",
    () => FakeLLM.script([{ toolCalls: [toolCall("c", "t", { x: NaN })] }]),
    InvalidScript,
    "turn 1",
    "NaN",
  );
  add(
    "FakeLLM.script()",
    "tool-call args with a Set",
    () => FakeLLM.script([{ toolCalls: [toolCall("c", "t", { s: new Set() as never })] }]),
    InvalidScript,
    "turn 1",
    "a Set",
  );
  for (const bad of [undefined, null, "hi", { model: "m", messages: "hi" }]) {
    const given = bad === undefined ? "undefined" : JSON.stringify(bad);
    add(
      "FakeLLM.chat()",
      `request ${given}`,
      () => new FakeLLM("x").chat(bad as never),
      TypeError,
      "FakeLLM.chat()",
      "ChatRequest",
      `got ${given}`,
    );
    add(
      "FakeLLM.stream()",
      `request ${given}`,
      async () => {
        for await (const _ of new FakeLLM("x").stream(bad as never)) { /* drain */ }
      },
      TypeError,
      "FakeLLM.stream()",
      "ChatRequest",
    );
  }
  for (const bad of [undefined, null, "hi", { system: "s", model: "m" }, { user: 7 }]) {
    const given = bad === undefined ? "undefined" : JSON.stringify(bad);
    add(
      "FakeLLM.complete()",
      `request ${given}`,
      () => new FakeLLM("x").complete(bad as never),
      TypeError,
      "FakeLLM.complete()",
      "CompleteRequest ({ system, user, model })",
      `got ${given}`,
    );
  }

  // FakeClock: finite milliseconds, 0 or more.
  for (
    const [ms, type] of [
      [Infinity, RangeError],
      [-Infinity, RangeError],
      [NaN, RangeError],
      [-1, RangeError],
      ["10", TypeError],
      [null, TypeError],
      [undefined, TypeError],
      [10n, TypeError],
    ] as const
  ) {
    const given = typeof ms === "string"
      ? `"${ms}"`
      : typeof ms === "bigint"
      ? `${ms}n`
      : String(ms);
    add(
      "FakeClock.sleep()",
      given,
      () => new FakeClock().sleep(ms as never),
      type,
      "FakeClock.sleep()",
      `got ${given}`,
      MS,
    );
    add(
      "FakeClock.advance()",
      given,
      () => new FakeClock().advance(ms as never),
      type,
      "FakeClock.advance()",
      `got ${given}`,
      MS,
    );
  }
  add(
    "FakeClock.sleep()",
    "signal 5",
    () => new FakeClock().sleep(1, 5 as never),
    TypeError,
    "signal",
    "AbortSignal",
    "got 5",
  );

  // Sessions: a message has a valid role and string content, wherever it comes in.
  for (
    const [what, message, name] of [
      ["role robot", { role: "robot", content: "x" }, '"robot"'],
      ["no role", { content: "x" }, "undefined"],
      ["content 5", { role: "user", content: 5 }, "content 5"],
      ["content null", { role: "user", content: null }, "content null"],
      ["null", null, "not a message object"],
      ["a string", "hi", "not a message object"],
    ] as const
  ) {
    const accepts = name.startsWith("content")
      ? "content must be a string"
      : name.startsWith("not")
      ? "{ role, content }"
      : ROLES;
    add(
      "new Session()",
      `transcript with ${what}`,
      () => new Session("s", { transcript: [message as never] }),
      TypeError,
      "new Session()",
      // Not an object at all, it fails the option's own rule first.
      ...(typeof message === "object" && message !== null
        ? [name, accepts]
        : ["transcript[0] must be an object", `got ${JSON.stringify(message)}`]),
    );
    add(
      "Session.append()",
      what,
      () => new Session("s").append(message as never),
      TypeError,
      "Session.append()",
      name,
      accepts,
    );
    add(
      "Session.open()",
      `a store loading ${what}`,
      () => Session.open("s", { store: loads({ persistent: {}, transcript: [message] }) }),
      TypeError,
      "Session.open()",
      name,
      accepts,
    );
    add(
      "InMemorySessionStore.save()",
      `a transcript with ${what}`,
      () =>
        new InMemorySessionStore().save(new Scope(), "s", {
          persistent: {},
          transcript: [message as never],
        }),
      TypeError,
      "InMemorySessionStore.save()",
      name,
      accepts,
    );
  }
  add(
    "Session.open()",
    "a store loading 5",
    () => Session.open("s", { store: loads(5) }),
    TypeError,
    "as 5",
    "SessionState",
  );
  add(
    "Session.open()",
    "a store loading a string transcript",
    () => Session.open("s", { store: loads({ transcript: "hi" }) }),
    TypeError,
    'transcript "hi"',
    "an array of messages",
  );
  add(
    "Session.run()",
    "fn 5",
    () => new Session("s").run(5 as never),
    TypeError,
    "Session.run()",
    "got 5",
    "a function",
  );
  add(
    "InMemorySessionStore.save()",
    "no scope",
    () =>
      new InMemorySessionStore().save(undefined as never, "s", { persistent: {}, transcript: [] }),
    TypeError,
    "scope",
    "got undefined",
    "a Scope",
  );
  add(
    "InMemorySessionStore.save()",
    "state 5",
    () => new InMemorySessionStore().save(new Scope(), "s", 5 as never),
    TypeError,
    "state",
    "got 5",
    "{ persistent",
  );
  add(
    "InMemorySessionStore.load()",
    "id 5",
    () => new InMemorySessionStore().load(new Scope(), 5 as never),
    TypeError,
    "the id",
    "got 5",
    "non-empty string",
  );
  add(
    "InMemorySessionStore.delete()",
    'id ""',
    () => new InMemorySessionStore().delete(new Scope(), ""),
    TypeError,
    "the id",
    'got ""',
  );

  // Structured output: what really happened.
  for (
    const [finishReason, says] of [["content_filter", "refused"], ["length", "maxTokens"]] as const
  ) {
    add(
      "Agent output",
      `finishReason ${finishReason}`,
      () => {
        const agent = new Agent("a", { model: "fake-model", output: z.object({ a: z.number() }) });
        const llm = FakeLLM.script([{ content: '{"a":', finishReason }, {
          content: '{"a":',
          finishReason,
        }]);
        return agent.run("go", makeTestCtx({ llm }));
      },
      Error,
      finishReason,
      says,
    );
  }

  // The other doubles' methods.
  add(
    "new FakeSearch()",
    'the key ""',
    () => new FakeSearch({ "": [] }),
    InvalidScript,
    'key ""',
    "every query",
  );
  add(
    "FakeSearch.search()",
    "query 5",
    () => new FakeSearch({}).search(5 as never),
    TypeError,
    "the query",
    "a string",
    "got 5",
  );
  add(
    "FakeSearch.search()",
    "options 5",
    () => new FakeSearch({}).search("q", 5 as never),
    TypeError,
    "the options",
    "an object",
    "got 5",
  );
  add(
    "FakeFetch.fetch()",
    "url 5",
    () => new FakeFetch({}).fetch(5 as never),
    TypeError,
    "the url",
    "a string",
    "got 5",
  );
  add(
    "FakeFetch.fetch()",
    "url undefined",
    () => new FakeFetch({}).fetch(undefined as never),
    TypeError,
    "the url",
    "got undefined",
  );
  add(
    "new FakeMemory()",
    'the key ""',
    () => new FakeMemory({ responses: { "": [] } }),
    InvalidScript,
    'key ""',
    "every query",
  );
  add(
    "FakeMemory.query()",
    "no options",
    () => new FakeMemory({ items: [] }).query("x", undefined as never),
    TypeError,
    "the options",
    "an object",
    "got undefined",
  );
  add(
    "FakeMemory.query()",
    "query 5",
    () => new FakeMemory({ items: [] }).query(5 as never, { k: 1 } as never),
    TypeError,
    "the query",
    "a string",
    "got 5",
  );
  add(
    "FakeMemory.write()",
    "null",
    () => new FakeMemory({ items: [] }).write(null as never, ctx()),
    InvalidScript,
    "FakeMemory.write()",
    "object",
  );
  add(
    "FakeAsker.ask()",
    "question 5",
    () => new FakeAsker(["y"]).ask(5 as never, ctx()),
    TypeError,
    "the question",
    "a string",
    "got 5",
  );
  add(
    "FakeAsker.ask()",
    "no ctx",
    () => new FakeAsker(["y"]).ask("q", undefined as never),
    TypeError,
    "the ctx",
    "a context",
    "got undefined",
  );
  add(
    "new FakeEmbedder()",
    "dimensions 1e9",
    () => new FakeEmbedder({ dimensions: 1e9 }),
    RangeError,
    "dimensions",
    "from 1 to 65536",
    "got 1000000000",
  );
  add(
    "FakeEmbedder.embed()",
    'texts "abc"',
    () => new FakeEmbedder().embed("abc" as never),
    TypeError,
    "the texts",
    "an array of strings",
    'got "abc"',
  );
  add(
    "FakeEmbedder.embed()",
    "texts [5]",
    () => new FakeEmbedder().embed([5] as never),
    TypeError,
    "texts[0]",
    "a string",
    "got 5",
  );
  add(
    "FakeEmbedder.similarity()",
    "5",
    () => new FakeEmbedder().similarity(5 as never, "x"),
    TypeError,
    "texts[0]",
    "got 5",
  );
  add(
    "FakeGrounder.ground()",
    "a function returning 5",
    () => new FakeGrounder(() => 5 as never).ground(ctx(), "t"),
    TypeError,
    "returned 5",
    "a fact (a string) or an array of facts",
  );
  add(
    "FakeGrounder.ground()",
    "a function returning [1]",
    () => new FakeGrounder(() => [1] as never).ground(ctx(), "t"),
    TypeError,
    "returned an array",
    "array of facts",
  );
  add(
    "FakeCompactor.compact()",
    "messages 5",
    () => new FakeCompactor().compact(5 as never, ctx()),
    TypeError,
    "the messages",
    "an array of messages",
    "got 5",
  );
  add(
    "FakeCompactor.compact()",
    "returns () => 5",
    () => new FakeCompactor({ returns: () => 5 as never }).compact([], ctx()),
    TypeError,
    "returns",
    "an array of messages",
    "got 5",
  );
  add(
    "FakeCtx.emit()",
    "kind 5",
    () => new FakeCtx().emit(5 as never, "x"),
    TypeError,
    "the kind",
    "a string",
    "got 5",
  );
  add(
    "RecordingTracer.span()",
    "name 5",
    () => new RecordingTracer().span(5 as never, "llm"),
    TypeError,
    "the name",
    "a string",
    "got 5",
  );
  add(
    "RecordingTracer.span()",
    "attrs []",
    () => new RecordingTracer().span("x", "llm", [] as never),
    TypeError,
    "the attributes",
    "an object",
  );
  add(
    "RecordingTracer.named()",
    "5",
    () => new RecordingTracer().named(5 as never),
    TypeError,
    "the name",
    "got 5",
  );

  // The core's methods.
  add(
    "ctx.with()",
    "5",
    () => new RunContext().with(5 as never),
    TypeError,
    "ctx.with()",
    "options object",
    "got 5",
  );
  add(
    "ctx.with()",
    "a mistyped key",
    () => new RunContext().with({ scop: new Scope() } as never),
    TypeError,
    '"scop"',
    'did you mean "scope"',
  );
  add(
    "ctx.emit()",
    "kind 5",
    () => new RunContext().emit(5 as never, "x"),
    TypeError,
    "ctx.emit()",
    "strings",
    "got 5",
  );
  const invoker = () => new Invoker({ llm: new FakeLLM("x") });
  add(
    "Invoker.chat()",
    "no request",
    () => invoker().chat(undefined as never, makeTestCtx()),
    TypeError,
    "Invoker.chat()",
    "ChatRequest",
    "got undefined",
  );
  add(
    "Invoker.chat()",
    "ctx {}",
    () => invoker().chat(request, {} as never),
    TypeError,
    "Invoker.chat()",
    "RunContext",
    "got {}",
  );
  add(
    "Invoker.stream()",
    "no ctx",
    async () => {
      for await (const _ of invoker().stream(request, undefined as never)) { /* drain */ }
    },
    TypeError,
    "Invoker.stream()",
    "RunContext",
    "got undefined",
  );
  add(
    "Invoker.callTool()",
    "no invocation",
    () => invoker().callTool(undefined as never, makeTestCtx()),
    TypeError,
    "Invoker.callTool()",
    "{ tool, call, args }",
    "got undefined",
  );
  // chaos(): its scenario, every option, and the world's methods. What a
  // scenario does wrong with the world surfaces as InvalidScenario, whose
  // message carries the method's own error ("it threw first: TypeError:
  // world.ctx() ..."; the bare name is in every InvalidScenario's hint).
  const script = ["It is 42."];
  const runs = (world: ChaosWorld) =>
    new Agent("a", { model: "fake-model" }).run("go", world.ctx());
  const chaosWith = (options: unknown) => () => chaos(runs, options as never);
  add(
    "chaos()",
    'the scenario "agent"',
    () => chaos("agent" as never, { script }),
    TypeError,
    "chaos()",
    "the scenario must be a function (world) =>",
    'got "agent"',
  );
  add(
    "chaos()",
    "the scenario null",
    () => chaos(null as never, { script }),
    TypeError,
    "chaos()",
    "scenario",
    "got null",
  );
  add(
    "chaos()",
    "no options",
    () => chaos(runs, undefined as never),
    TypeError,
    "chaos()",
    'needs an options object with "script"',
  );
  add(
    "chaos()",
    "the options 42",
    chaosWith(42),
    TypeError,
    "chaos()",
    "takes an options object ({ script, faults, runs,",
    "got 42",
  );
  add(
    "chaos()",
    "the key rnus",
    chaosWith({ script, rnus: 3 }),
    TypeError,
    "chaos()",
    '"rnus"',
    'did you mean "runs"?',
    "the options are script, faults",
  );
  add(
    "chaos()",
    "runs: 0",
    chaosWith({ script, runs: 0 }),
    RangeError,
    "chaos()",
    '"runs"',
    "got 0",
    "an integer 1 or more",
  );
  add(
    "chaos()",
    'runs: "100"',
    chaosWith({ script, runs: "100" }),
    TypeError,
    "chaos()",
    '"runs"',
    'got "100"',
    "an integer 1 or more",
  );
  add(
    "chaos()",
    "seed: 1.5",
    chaosWith({ script, seed: 1.5 }),
    RangeError,
    "chaos()",
    '"seed"',
    "got 1.5",
    "an integer",
  );
  add(
    "chaos()",
    'path: "4:x"',
    chaosWith({ script, seed: 1, path: "4:x" }),
    RangeError,
    "chaos()",
    '"path"',
    'got "4:x"',
    `run numbers joined by ":" ("4:1:1")`,
  );
  add(
    "chaos()",
    "a path without its seed",
    chaosWith({ script, path: "4:1" }),
    TypeError,
    "chaos()",
    '"path"',
    "no seed was given",
    "{ seed, path }",
  );
  add(
    "chaos()",
    "maxFaults: -1",
    chaosWith({ script, maxFaults: -1 }),
    RangeError,
    "chaos()",
    '"maxFaults"',
    "got -1",
    "an integer, 0 or more",
  );
  add(
    "chaos()",
    "maxSteps: 0",
    chaosWith({ script, maxSteps: 0 }),
    RangeError,
    "chaos()",
    '"maxSteps"',
    "got 0",
    "an integer 1 or more",
  );
  add(
    "chaos()",
    "maxVirtualMs: Infinity",
    chaosWith({ script, maxVirtualMs: Infinity }),
    RangeError,
    "chaos()",
    '"maxVirtualMs"',
    "got Infinity",
    "a positive number of milliseconds",
  );
  add(
    "chaos()",
    'hangMs: "50"',
    chaosWith({ script, hangMs: "50" }),
    TypeError,
    "chaos()",
    '"hangMs"',
    'got "50"',
    "a positive number of milliseconds",
  );
  add(
    "chaos()",
    "an unknown fault kind",
    chaosWith({ script, faults: ["rateLimt"] }),
    TypeError,
    "chaos()",
    "faults",
    'unknown fault kind "rateLimt"',
    'did you mean "rateLimit"?',
    "the kinds are rateLimit, serverError",
  );
  add(
    "chaos()",
    "an unknown weighted fault kind",
    chaosWith({ script, faults: { stal: 1 } }),
    TypeError,
    "chaos()",
    "faults",
    '"stal"',
    'did you mean "stall"?',
    "the kinds are",
  );
  add(
    "chaos()",
    "a fault kind that is no string",
    chaosWith({ script, faults: [5] }),
    TypeError,
    "chaos()",
    "faults",
    "got 5",
    "fault kinds (strings)",
  );
  add(
    "chaos()",
    "no fault kinds",
    chaosWith({ script, faults: [] }),
    RangeError,
    "chaos()",
    "faults",
    "an empty list",
    "name at least one kind",
  );
  add(
    "chaos()",
    "an empty record of weights",
    chaosWith({ script, faults: {} }),
    RangeError,
    "chaos()",
    "faults",
    "an empty record",
    "give a kind a weight",
  );
  add(
    "chaos()",
    "a negative weight",
    chaosWith({ script, faults: { rateLimit: -1 } }),
    RangeError,
    "chaos()",
    "faults",
    '"rateLimit"',
    "got -1",
    "an integer, 0 or more",
  );
  add(
    "chaos()",
    'a weight "3"',
    chaosWith({ script, faults: { rateLimit: "3" } }),
    TypeError,
    "chaos()",
    "faults",
    '"rateLimit"',
    'got "3"',
    "an integer, 0 or more",
  );
  add(
    "chaos()",
    "every weight 0",
    chaosWith({ script, faults: { rateLimit: 0 } }),
    RangeError,
    "chaos()",
    "faults",
    "every fault kind has weight 0",
    "give one a weight",
  );
  add(
    "chaos()",
    'faults: "rateLimit"',
    chaosWith({ script, faults: "rateLimit" }),
    TypeError,
    "chaos()",
    "faults",
    'got "rateLimit"',
    "a list of kinds or a record of kind to weight",
  );
  add(
    "chaos()",
    "invariants: 5",
    chaosWith({ script, invariants: 5 }),
    TypeError,
    "chaos()",
    "invariants",
    "got 5",
    "a function, a list of functions, or a record",
  );
  add(
    "chaos()",
    "invariants: [5]",
    chaosWith({ script, invariants: [5] }),
    TypeError,
    "chaos()",
    "invariants[0]",
    "got 5",
    "a function (outcome) => void",
  );
  add(
    "chaos()",
    "invariants: { mine: 5 }",
    chaosWith({ script, invariants: { mine: 5 } }),
    TypeError,
    "chaos()",
    'invariants: invariant "mine"',
    "got 5",
    "a function (outcome) => void",
  );
  add(
    "chaos()",
    "an invariant named like a built-in",
    chaosWith({ script, invariants: { terminates: () => {} } }),
    TypeError,
    "chaos()",
    'invariants: invariant "terminates"',
    "is a built-in one",
    "the built-in invariants are terminates",
  );
  add(
    "chaos()",
    "an unknown invariant name in skip",
    chaosWith({ script, skip: ["terminate"] }),
    TypeError,
    "chaos()",
    "skip",
    '"terminate"',
    'did you mean "terminates"?',
    "the built-in invariants are terminates",
  );
  add(
    "chaos()",
    'skip: "terminates"',
    chaosWith({ script, skip: "terminates" }),
    TypeError,
    "chaos()",
    '"skip"',
    'got "terminates"',
    "an array of string",
  );
  add(
    "chaos()",
    "script: 5",
    chaosWith({ script: 5 }),
    TypeError,
    "chaos()",
    "script",
    "got 5",
    "the model's turns (an array",
  );
  add(
    "chaos()",
    "script: []",
    chaosWith({ script: [] }),
    InvalidScript,
    "chaos()",
    "script",
    "needs at least one turn",
  );
  add(
    "chaos()",
    "a script turn with tool_calls",
    chaosWith({ script: [{ tool_calls: [] }] }),
    InvalidScript,
    "chaos()",
    "script turn 1",
    '"tool_calls"',
    'did you mean "toolCalls"?',
  );
  add(
    "chaos()",
    "a scenario that never calls the model",
    () => chaos(() => "no agent", { script, runs: 1 }),
    InvalidScenario,
    "chaos()",
    "the scenario never called the model",
    "world.ctx() (or world.llm)",
  );
  add(
    "chaos()",
    "a scenario that never awaits the agent",
    () => chaos((world) => void runs(world).catch(() => {}), { script, runs: 1 }),
    InvalidScenario,
    "chaos()",
    "the scenario returned before the agent's run was over",
    "return or await the run",
  );
  const scenario = (use: (world: ChaosWorld) => unknown) => () =>
    chaos((world) => use(world), { script, runs: 1 });
  add(
    "world.ctx()",
    "the options 5",
    scenario((w) => w.ctx(5 as never)),
    InvalidScenario,
    "TypeError: world.ctx()",
    "got 5",
    "makeTestCtx's options without llm, invoker and clock",
  );
  add(
    "world.ctx()",
    'the options "x"',
    scenario((w) => w.ctx("x" as never)),
    InvalidScenario,
    "TypeError: world.ctx()",
    'got "x"',
    "makeTestCtx's options",
  );
  add(
    "world.ctx()",
    "llm",
    scenario((w) => w.ctx({ llm: new FakeLLM("x") } as never)),
    InvalidScenario,
    "TypeError: world.ctx()",
    "do not pass llm",
    "the world's model (world.llm), which is what chaos() injects faults into",
  );
  add(
    "world.ctx()",
    "invoker",
    scenario((w) => w.ctx({ invoker: {} } as never)),
    InvalidScenario,
    "TypeError: world.ctx()",
    "do not pass invoker",
    "the world's model (world.llm)",
  );
  add(
    "world.ctx()",
    "clock",
    scenario((w) => w.ctx({ clock: new FakeClock() })),
    InvalidScenario,
    "TypeError: world.ctx()",
    "do not pass clock",
    "the world's clock (world.clock)",
  );
  add(
    "world.ctx()",
    "the options null",
    scenario((w) => w.ctx(null as never)),
    InvalidScenario,
    "TypeError: world.ctx()",
    "got null",
    "makeTestCtx's options",
  );
  add(
    "world.ctx()",
    'correlationId: ""',
    scenario((w) => w.ctx({ correlationId: "" })),
    InvalidScenario,
    "RangeError: world.ctx(): makeTestCtx()",
    '"correlationId"',
    'got ""',
    "a non-empty string",
  );
  add(
    "world.ctx()",
    "the options [1]",
    scenario((w) => w.ctx([1] as never)),
    InvalidScenario,
    "TypeError: world.ctx()",
    "got an array ([1])",
    "makeTestCtx's options",
  );
  add(
    "world.ctx()",
    "toolMiddleware: 5",
    scenario((w) => w.ctx({ toolMiddleware: 5 as never })),
    InvalidScenario,
    "TypeError: world.ctx()",
    '"toolMiddleware"',
    "got 5",
    "an array of tool middleware",
  );
  add(
    "world.ctx()",
    "signal: 5",
    scenario((w) => w.ctx({ signal: 5 as never })),
    InvalidScenario,
    "TypeError: world.ctx()",
    '"signal"',
    "got 5",
    "AbortSignal",
  );
  add(
    "world.ctx()",
    "the key budgte",
    scenario((w) => w.ctx({ budgte: 1 } as never)),
    InvalidScenario,
    "TypeError: world.ctx()",
    '"budgte"',
    'did you mean "budget"?',
  );
  add(
    "world.aiSdkModel()",
    "the options 5",
    scenario((w) => w.aiSdkModel(5 as never)),
    InvalidScenario,
    "TypeError: world.aiSdkModel()",
    "got 5",
    "(modelId, specificationVersion)",
  );
  add(
    "world.aiSdkModel()",
    "ctx",
    scenario((w) => w.aiSdkModel({ ctx: new FakeCtx() } as never)),
    InvalidScenario,
    "TypeError: world.aiSdkModel()",
    "do not pass ctx",
    "world.ctx()",
  );
  add(
    "world.aiSdkModel()",
    "the key modelid",
    scenario((w) => w.aiSdkModel({ modelid: "m" } as never)),
    InvalidScenario,
    "TypeError: world.aiSdkModel()",
    '"modelid"',
    'did you mean "modelId"?',
  );
  add(
    "world.aiSdkModel()",
    'specificationVersion: "v5"',
    scenario((w) => w.aiSdkModel({ specificationVersion: "v5" as never })),
    InvalidScenario,
    "TypeError: world.aiSdkModel()",
    '"specificationVersion"',
    'got "v5"',
    '"v4", "v3"',
  );
  add(
    "world.tool()",
    "the tool 5",
    scenario((w) => w.tool(5 as never)),
    InvalidScenario,
    "TypeError: world.tool()",
    "got 5",
    "a FakeTool, or any ToolPort with name and call",
  );
  // Issue 38: nothing accepted in silence, errors that help.
  add(
    "transcript()",
    "a message whose content is 5",
    () => transcript([{ role: "user", content: 5 }] as never),
    TypeError,
    "message 1 has content 5",
    "content must be a string",
  );
  add(
    "agent.run()",
    'a context message with role "bogus"',
    () =>
      new Agent("a", { model: "m" }).run("x", makeTestCtx({ llm: new FakeLLM("ok") }), {
        context: [{ role: "bogus", content: "hi" }],
      } as never),
    TypeError,
    "context",
    'message 1 has role "bogus"',
    "the roles are system, user, assistant, tool",
  );
  add(
    "agent.run()",
    "a context message whose content is 1",
    () =>
      new Agent("a", { model: "m" }).run("x", makeTestCtx({ llm: new FakeLLM("ok") }), {
        context: [{ role: "user", content: "a" }, { role: "assistant", content: 1 }],
      } as never),
    TypeError,
    "message 2 has content 1",
  );
  add(
    "new FakeTool()",
    'parameters { type: "string" }',
    () => new FakeTool({ name: "t", responder: "x", parameters: { type: "string" } as never }),
    TypeError,
    'parameters has type "string"',
    'type "object"',
  );
  add(
    "new FakeTool()",
    "parameters z.string()",
    () => new FakeTool({ name: "t", responder: "x", parameters: z.string() as never }),
    TypeError,
    'parameters has type "string"',
    "z.object",
  );
  for (
    const [entry, make] of [
      ["new Budget()", (v: string) => new Budget({ maxCostUsd: v })],
      ["new Quota()", (v: string) => new Quota({ maxCostUsd: v })],
    ] as const
  ) {
    add(
      entry,
      'maxCostUsd "0.0000001", finer than a micro-dollar',
      () => make("0.0000001"),
      RangeError,
      '"0.0000001"',
      "finer than a micro-dollar",
      'e.g. "0.000001"',
    );
  }
  add(
    "makeTestCtx()",
    "llm and an invoker that is not one",
    () => makeTestCtx({ llm: new FakeLLM("x"), invoker: {} as never }),
    TypeError,
    "both llm and invoker",
    "pass llm alone",
  );
  add(
    "cassette()",
    "a path with a NUL byte",
    () => cassette("tests/cassettes/a\0b.jsonl", { mode: "replay" }),
    TypeError,
    "NUL byte at position 17",
  );
  add(
    "new OpenAIChatLLM()",
    "headers as a list of pairs",
    () => new OpenAIChatLLM({ apiKey: "k", headers: [["x-a", "b"]] as never }),
    TypeError,
    "headers",
    "or a Headers",
  );
  add(
    "new McpToolProvider()",
    "secrets: 5",
    () =>
      new McpToolProvider({
        listTools: () => Promise.resolve({ tools: [] }),
        callTool: () => Promise.resolve({ content: [] }),
      }, { secrets: 5 as never }),
    TypeError,
    "secrets",
    "got 5",
  );
  for (
    const [what, answer, says] of [
      ["content 5", { content: 5, finishReason: "stop" }, "has content 5"],
      ["finishReason bogus", { content: "a", finishReason: "bogus" }, 'has finishReason "bogus"'],
    ] as const
  ) {
    add(
      "FakeProvider",
      `a model answering ${what}`,
      async () => {
        const llm = {
          chat: () =>
            Promise.resolve({
              toolCalls: [],
              usage: { inputTokens: 1, outputTokens: 1 },
              ...answer,
            }),
          stream: () => (async function* () {})(),
          complete: () => Promise.reject(new Error("unused")),
        };
        const provider = new FakeProvider({ llm: llm as never });
        await new OpenAIChatLLM({ apiKey: "k", fetch: provider.fetch })
          .chat(request)
          .catch(() => {});
        provider.verify();
      },
      InvalidScript,
      says,
      "answers a ChatResponse",
    );
  }
  add(
    "FakeProvider",
    "a model streaming finishReason bogus",
    async () => {
      const llm = {
        chat: () => Promise.reject(new Error("unused")),
        complete: () => Promise.reject(new Error("unused")),
        stream: async function* () {
          yield { type: "message_start", messageId: "m" };
          yield { type: "text_delta", messageId: "m", content: "hi" };
          yield { type: "message_end", messageId: "m", finishReason: "bogus" };
        },
      };
      const provider = new FakeProvider({ llm: llm as never });
      const port = new OpenAIChatLLM({ apiKey: "k", fetch: provider.fetch });
      for await (const _ of port.stream(request)) { /* drain */ }
      provider.verify();
    },
    InvalidScript,
    'ends with finishReason "bogus"',
  );
  add(
    "FakeLLM.script()",
    "a scripted error with an empty message",
    () => FakeLLM.script([{ error: "" }]).chat(request),
    ScriptedProviderError,
    "empty message",
    '{ error: "overloaded" }',
  );
  add(
    "chaos()",
    "an invariant that never settles",
    () =>
      chaos((w) => new Agent("a", { model: "fake-model" }).run("q", w.ctx()), {
        script: ["ok"],
        runs: 1,
        maxFaults: 0,
        hangMs: 5,
        invariants: { never: () => new Promise<void>(() => {}) },
      }),
    InvalidScenario,
    'invariant "never" did not settle',
    "hangMs",
  );
  // Issue 37's rows: the MCP surfaces SPEC §22 added.
  const mcpClient = {
    listTools: () => Promise.resolve({ tools: [] }),
    callTool: () => Promise.resolve({ content: [] }),
  };
  add(
    "new McpToolProvider()",
    "timeoutMs: -1",
    () => new McpToolProvider(mcpClient, { timeoutMs: -1 }),
    RangeError,
    '"timeoutMs"',
    "got -1",
  );
  add(
    "new McpToolProvider()",
    'timeoutMs: "5"',
    () => new McpToolProvider(mcpClient, { timeoutMs: "5" as never }),
    TypeError,
    '"timeoutMs"',
    'got "5"',
  );
  add(
    "mcpClientHandlers()",
    "asker: 5",
    () => mcpClientHandlers({ asker: 5 as never }),
    TypeError,
    '"asker"',
    "AskerPort",
    "got 5",
  );
  add(
    "mcpClientHandlers()",
    "a mistyped key",
    () => mcpClientHandlers({ askr: new FakeAsker([]) } as never),
    TypeError,
    '"askr"',
    'did you mean "asker"',
  );
  add(
    "FakeMcpServer.script()",
    'a step with "latencyMS"',
    () => FakeMcpServer.script([{ latencyMS: 5, result: "x" } as never]),
    InvalidScript,
    '"latencyMS"',
    'did you mean "latencyMs"',
  );
  add(
    "new FakeMcpServer()",
    "a raw image result whose data is 5",
    () =>
      new FakeMcpServer({
        tools: [{ name: "t", result: { content: [{ type: "image", data: 5 }] } as never }],
      }),
    InvalidScript,
    "needs data as a string",
    "got 5",
  );
  return out;
}

Deno.test("bad inputs to the doubles and the core: each a clear error of its class naming what was given and what is accepted", async () => {
  const all = cases();
  assert(all.length >= 150, `only ${all.length} cases`);
  const tally = { clear: 0, silent: 0, crash: 0, hang: 0, unclear: 0 };
  const misses: string[] = [];
  for (const c of all) {
    let error: unknown;
    let passed = false;
    try {
      await noHang(Promise.resolve().then(c.run), 2_000);
      passed = true;
    } catch (e) {
      error = e;
    }
    const label = `${c.entry} with ${c.what}`;
    let kind: keyof typeof tally = "clear";
    if (passed) kind = "silent";
    else if (error instanceof Error && /hung: no result/.test(error.message)) kind = "hang";
    else if (isInternalError(error)) kind = "crash";
    else if (
      !(error instanceof c.error) || !c.names.every((n) => (error as Error).message.includes(n))
    ) {
      kind = "unclear";
    }
    tally[kind]++;
    if (kind !== "clear") {
      misses.push(
        `${kind}: ${label}: ${
          error instanceof Error ? `${error.name}: ${error.message}` : "accepted"
        }`,
      );
    }
  }
  console.log(`${tally.clear} of ${all.length} clear`, tally);
  assert(misses.length === 0, `${misses.length} of ${all.length} not clear:\n${misses.join("\n")}`);
});
