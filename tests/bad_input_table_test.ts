// One table of bad inputs across the public entries, as a new user would
// type them: a mistyped key, a value of the wrong type, a number out of
// range, a bag that is not an object, a port that is not one. Each must be
// an error that names the problem (the option, the key or the argument);
// none may hang or crash from inside. The bar is 97% of the table.
import { assert } from "@std/assert";
import {
  Agent,
  Budget,
  KVSessionStore,
  PriceTable,
  ReActCognition,
  Session,
} from "@agentkit/testing/runtime";
import {
  cassette,
  FakeAsker,
  FakeClaudeCli,
  FakeLLM,
  FakeProvider,
  FakeTool,
  LLMJudge,
  makeTestCtx,
  toHar,
  verifyCassette,
} from "@agentkit/testing/testing";
import { agent, ENTRIES } from "./fuzz/_entries.ts";
import { isInternalError, noHang } from "./fuzz/_fuzz.ts";

// A mistyped key as people type them: case slip, one letter missing.
function typo(key: string): string {
  const lower = key.toLowerCase();
  return lower !== key ? lower : key.slice(0, -1);
}

interface Case {
  readonly entry: string;
  readonly what: string;
  readonly run: () => unknown;
  /** Words of which the message must contain one. */
  readonly names: readonly string[];
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const [entry, e] of Object.entries(ENTRIES)) {
    const base = e.base ?? {};
    for (const bag of [42, "options", [1]]) {
      out.push({
        entry,
        what: `the bag ${JSON.stringify(bag)}`,
        run: () => e.call(bag),
        names: ["option"],
      });
    }
    for (const [key, values] of Object.entries(e.bad)) {
      const t = typo(key);
      out.push({
        entry,
        what: `the key "${t}"`,
        run: () => e.call({ ...base, [t]: (base as Record<string, unknown>)[key] ?? 1 }),
        names: [`"${t}"`],
      });
      for (const v of values) {
        out.push({
          entry,
          what: `${key}: ${typeof v === "function" ? v.name : String(JSON.stringify(v) ?? v)}`,
          run: () => e.call({ ...base, [key]: v }),
          names: [key],
        });
      }
    }
  }
  // Port-shaped positional arguments.
  const port = (entry: string, run: () => unknown, names: string[]) =>
    out.push({ entry, what: "a missing or wrong port", run, names });
  port("agent.run()", () => agent.run("x", undefined as never), ["ctx", "context"]);
  port("agent.run()", () => agent.run("x", {} as never), ["ctx", "context"]);
  port("agent.run()", () => agent.run("x", null as never), ["ctx", "context"]);
  port("agent.run()", () => agent.run(5 as never, makeTestCtx()), ["task"]);
  port("agent.start()", () => agent.start("x", undefined as never).result, ["ctx", "context"]);
  port("agent.start()", () => agent.start("x", {} as never).result, ["ctx", "context"]);
  port("agent.stream()", async () => {
    for await (const _ of agent.stream("x", undefined as never)) { /* drain */ }
  }, ["ctx", "context"]);
  port("new Agent()", () => new Agent("", { model: "m" }), ["name"]);
  port("new Agent()", () => new Agent("a", undefined as never), ["model", "option"]);
  port("new Agent()", () => new Agent("a", { model: "m", tools: [] } as never), ["tools"]);
  port("new ReActCognition()", () => new ReActCognition({ tool: [] } as never), ['"tool"']);
  port("new LLMJudge()", () => new LLMJudge({} as never), ["LLMPort", "llm"]);
  port("new KVSessionStore()", () => new KVSessionStore({} as never), ["database", "kv"]);
  port("new Session()", () => new Session("", {}), ["id"]);
  port("PriceTable", () => new PriceTable({ m: 5 } as never), ["price", "m"]);
  port("PriceTable", () => new PriceTable(5 as never), ["prices"]);
  port(
    "PriceTable",
    () => PriceTable.default().costUsd("fake-model", { inputTokens: -1, outputTokens: 0 }),
    ["inputTokens"],
  );
  port("PriceTable", () => PriceTable.default().costUsd("fake-model", undefined as never), [
    "inputTokens",
    "usage",
  ]);
  port("Budget.add()", () => new Budget().add(-1), ["negative"]);
  port("Budget.add()", () => new Budget().add("1 "), ["whitespace"]);
  port("Budget.add()", () => new Budget().add(undefined as never), ["amount"]);
  port("new FakeLLM()", () => new FakeLLM(undefined as never), ["FakeLLM"]);
  port("new FakeTool()", () => new FakeTool(undefined as never), ["name", "option"]);
  port("FakeLLM.script()", () => FakeLLM.script(undefined as never), ["turn", "array"]);
  port("FakeClaudeCli.script()", () => FakeClaudeCli.script(undefined as never), ["array"]);
  port("FakeClaudeCli.replay()", () => FakeClaudeCli.replay(5 as never), ["recording"]);
  port("new FakeAsker()", () => new FakeAsker(undefined as never), ["answers"]);
  // Issue 41: the cassette's new options, toHar(), verifyCassette(), FakeProvider's record.
  const tape = "never-written.jsonl";
  port("cassette()", () => cassette(tape, { match: "key" } as never), ["match"]);
  port("cassette()", () => cassette(tape, { timing: "slow" } as never), ["timing"]);
  port("cassette()", () => cassette(tape, { timing: -1 }), ["timing"]);
  port("cassette()", () => cassette(tape, { staleAfterDays: NaN }), ["staleAfterDays"]);
  port("cassette()", () => cassette(tape, { normalize: 5 } as never), ["normalize"]);
  port("cassette()", () => cassette(tape, { mode: "newEpisode" } as never), ["mode"]);
  port("toHar()", () => toHar(tape, { api: "responses" } as never), ["api"]);
  port("toHar()", () => toHar(tape, { stream: "yes" } as never), ["stream"]);
  port("verifyCassette()", () => verifyCassette(tape, { budgetUsd: "lots" }), ["budgetUsd"]);
  port(
    "verifyCassette()",
    () => verifyCassette(tape, { upstream: () => new FakeLLM("x") }),
    ["budgetUsd"],
  );
  port("verifyCassette()", () => verifyCassette(tape, { staleAfterDays: -3 }), ["staleAfterDays"]);
  port(
    "new FakeProvider()",
    () => new FakeProvider({ record: { upstream: 5, path: tape } as never }),
    ["upstream"],
  );
  port("new FakeProvider()", () => new FakeProvider({ record: { path: tape } as never }), [
    "upstream",
  ]);
  return out;
}

Deno.test("bad inputs across the public entries: at least 97% get an error naming the problem, none hangs", async () => {
  const all = cases();
  assert(all.length >= 300, `only ${all.length} cases`);
  const misses: string[] = [];
  for (const c of all) {
    let error: unknown;
    try {
      await noHang(Promise.resolve().then(c.run), 2_000);
    } catch (e) {
      error = e;
    }
    const label = `${c.entry} with ${c.what}`;
    if (error === undefined) misses.push(`${label}: accepted`);
    else if (error instanceof Error && /hung/.test(error.message)) {
      throw new Error(`${label} hung`);
    } else if (isInternalError(error)) misses.push(`${label}: internal ${error}`);
    else if (!c.names.some((n) => (error as Error).message.includes(n))) {
      misses.push(`${label}: ${(error as Error).message}`);
    }
  }
  const rate = 1 - misses.length / all.length;
  console.log(`${all.length - misses.length} of ${all.length} bad inputs named the problem`);
  if (misses.length) console.log(`missed:\n${misses.join("\n")}`);
  assert(
    rate >= 0.97,
    `${(rate * 100).toFixed(1)}% named the problem; misses:\n${misses.join("\n")}`,
  );
});
