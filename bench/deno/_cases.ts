/**
 * The benchmark cases, written once and run by both harnesses: `deno bench`
 * (bench/deno/*.bench.ts) and the Node harness (bench/node/, which bundles
 * this file against the npm build). Nothing here uses Deno or Node globals.
 *
 * A case builds a *state* (untimed) and returns a function that does one
 * run on it. A state serves `uses` runs, then the harness builds a fresh
 * one: doubles record every request, so a state reused a million times
 * would grow without bound, and a script or a `failTimes` count is used up.
 *
 * @module
 */
import {
  Agent,
  Budget,
  meter,
  OpenAIChatLLM,
  ReActCognition,
  retry,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
import { z } from "zod";

/** One benchmark case. */
export interface BenchCase {
  /** A stable id, shared with the Node harness and the results table. */
  readonly id: string;
  /** What one run does, for the results table. */
  readonly title: string;
  /** How many runs one state serves (1: built fresh for every run). */
  readonly uses: number;
  /** How many steps one run is (the per-step cost is time / steps). */
  readonly steps: number;
  /** Builds a state and returns the function that does one run on it. */
  prepare(): () => Promise<unknown>;
}

const MODEL = "fake-model";
// A state that records requests is replaced after this many runs, so the
// record stays small; building it costs < 0.1% of the runs it serves.
const RECORD_ROTATION = 1_000;

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

/** Case 1: one blocking `agent.run` through `retry()` and `meter()` with a budget. */
export function singleTurn(): BenchCase {
  const agent = new Agent("bench", { model: MODEL });
  return {
    id: "single_turn",
    title: "single-turn `agent.run` (retry + meter + budget)",
    uses: RECORD_ROTATION,
    steps: 1,
    prepare() {
      const ctx = makeTestCtx({
        llm: new FakeLLM("ok"),
        chatMiddleware: [retry(), meter()],
        budget: new Budget({ maxCostUsd: "10" }),
      });
      return async () => {
        const r = await agent.run("go", ctx);
        check(r.output === "ok", "single_turn output");
        return r;
      };
    },
  };
}

/** Case 2: the same run streamed: 3 text chunks, every event consumed. */
export function streamed(): BenchCase {
  const agent = new Agent("bench", { model: MODEL });
  return {
    id: "stream_3_chunks",
    title: "`agent.stream`, 3 text chunks consumed (retry + meter + budget)",
    uses: RECORD_ROTATION,
    steps: 1,
    prepare() {
      const ctx = makeTestCtx({
        llm: FakeLLM.script([{ chunks: ["o", "k", "!"] }], { repeatLast: true }),
        chatMiddleware: [retry(), meter()],
        budget: new Budget({ maxCostUsd: "10" }),
      });
      return async () => {
        let deltas = 0;
        for await (const event of agent.stream("go", ctx)) {
          if (event.type === "text_delta") deltas++;
        }
        check(deltas === 3, "stream_3_chunks deltas");
        return deltas;
      };
    },
  };
}

// The schema is a module constant, as a tool's schema usually is: zod
// compiles its parser on a schema's first parse, once per schema object.
const LOOKUP_ARGS = z.object({ host: z.string() });

const CERT = { notAfter: "2026-08-01" };

// `work`, when given, runs in the tool before it answers: the regression
// check's deliberate slowdown of the tool path (bench/check.ts).
function lookupTool(work?: () => void): FakeTool {
  return new FakeTool({
    name: "lookup_cert",
    parameters: LOOKUP_ARGS,
    responder: work
      ? () => {
        work();
        return CERT;
      }
      : CERT,
  });
}

const LOOKUP = toolCall("c1", "lookup_cert", { host: "example.com" });

// The agent of the tool loops, with its FakeTool, which records every call:
// it is replaced once it has served about RECORD_ROTATION tool calls, so the
// record stays small (one agent for every run would hold millions of
// records, and the heap they fill slows the collector), and built anew
// rarely enough that its first run's one-time work weighs nothing.
const toolAgents = new Map<number | (() => void), { agent: Agent; left: number }>();

function toolAgent(steps: number, work?: () => void): Agent {
  const key = work ?? steps;
  let held = toolAgents.get(key);
  if (!held || held.left-- <= 0) {
    const agent = new Agent("bench", {
      model: MODEL,
      cognition: new ReActCognition({ tools: [lookupTool(work)], maxIterations: steps }),
    });
    held = { agent, left: Math.max(1, Math.floor(RECORD_ROTATION / steps)) - 1 };
    toolAgents.set(key, held);
  }
  return held.agent;
}

/**
 * Case 3: a 2-step ReAct loop: one tool call with a zod schema, then an answer.
 *
 * @param toolWork Runs in the tool before it answers (the regression check's
 *   injected slowdown of the tool path); none by default.
 */
export function react2(toolWork?: () => void): BenchCase {
  return {
    id: "react_2_steps",
    title: "2-step ReAct loop (a zod-schema tool call, then the answer)",
    uses: 1,
    steps: 2,
    prepare() {
      const agent = toolAgent(2, toolWork);
      const ctx = makeTestCtx({
        llm: FakeLLM.script([{ toolCalls: [LOOKUP] }, { content: "expired" }]),
        chatMiddleware: [retry(), meter()],
        budget: new Budget({ maxCostUsd: "10" }),
      });
      return async () => {
        const r = await agent.run("why?", ctx);
        check(r.output === "expired" && r.messages.length === 4, "react_2_steps transcript");
        return r;
      };
    },
  };
}

/**
 * Case 4: an n-step scripted ReAct loop, each step a model call and a tool
 * call; the per-step cost must stay flat as n grows.
 */
export function reactSteps(steps: number): BenchCase {
  return {
    id: `react_${steps}_steps`,
    title: `${steps}-step ReAct loop (each step a model call and a tool call)`,
    uses: 1,
    steps,
    prepare() {
      const agent = toolAgent(steps);
      const ctx = makeTestCtx({
        llm: FakeLLM.script([{ toolCalls: [LOOKUP] }], { repeatLast: true }),
        chatMiddleware: [retry(), meter()],
        budget: new Budget({ maxCostUsd: "10" }),
      });
      return async () => {
        const r = await agent.run("why?", ctx);
        check(
          r.stopReason === "max_iterations" && r.messages.length === 2 * steps + 1,
          `react_${steps}_steps transcript`,
        );
        return r;
      };
    },
  };
}

/** Case 5: ten failed calls, each followed by a 30 s backoff on a FakeClock, then the answer. */
export function backoff(): BenchCase {
  const agent = new Agent("bench", { model: MODEL });
  return {
    id: "retry_10x30s",
    title: "retry: 10 backoffs of 30 s on a FakeClock (wall time)",
    uses: 1,
    steps: 1,
    prepare() {
      const clock = new FakeClock();
      // Builds the clock's timer engine now (it is built on first use), so the
      // run times the backoffs, not the engine.
      void clock.pending;
      const ctx = makeTestCtx({
        llm: new FakeLLM("recovered", { failTimes: 10 }),
        clock,
        chatMiddleware: [retry({ maxAttempts: 11, backoff: () => 30_000 })],
      });
      return async () => {
        const r = await agent.run("go", ctx);
        check(r.output === "recovered" && clock.now() === 300_000, "retry_10x30s virtual time");
        return r;
      };
    },
  };
}

/** Case 6: what each test pays before it runs: a context around a 2-turn script. */
export function construction(): BenchCase {
  return {
    id: "construct",
    title: "`makeTestCtx` + `FakeLLM.script` (2 turns) construction",
    uses: Number.MAX_SAFE_INTEGER,
    steps: 1,
    prepare() {
      return () => {
        const ctx = makeTestCtx({
          llm: FakeLLM.script([{ toolCalls: [LOOKUP] }, { content: "expired" }]),
        });
        return Promise.resolve(ctx);
      };
    },
  };
}

/**
 * Case 7: `OpenAIChatLLM.stream` parsing an SSE body of `n` text chunks (plus
 * the finish and usage chunks and `[DONE]`), built once; every event consumed.
 * The per-chunk cost (time / n) should stay flat as n grows.
 */
export function sseParse(n: number): BenchCase {
  const id = "chatcmpl-bench";
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${
      JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created: 0,
        model: "gpt-4o-mini",
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      })
    }\n\n`;
  let text = chunk({ role: "assistant", content: "" });
  for (let i = 0; i < n; i++) text += chunk({ content: `tok${i % 10} ` });
  text += chunk({}, "stop");
  text += `data: ${
    JSON.stringify({ id, choices: [], usage: { prompt_tokens: 10, completion_tokens: n } })
  }\n\ndata: [DONE]\n\n`;
  const body = new TextEncoder().encode(text);
  // A network read brings at most 64 KiB: the body arrives in such pieces.
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < body.length; at += 65_536) pieces.push(body.subarray(at, at + 65_536));
  const fetch = () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            for (const p of pieces) c.enqueue(p);
            c.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      ),
    );
  const request = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "go" }] };
  return {
    id: `sse_parse_${n}`,
    title: `\`OpenAIChatLLM.stream\` parsing a ${n.toLocaleString("en-US")}-chunk SSE body`,
    uses: Number.MAX_SAFE_INTEGER,
    steps: n,
    prepare() {
      // Made here, not as the cases are listed: a port whose fetch is not a
      // FakeProvider's could reach the network, and its making arms the
      // guard's ambient policy for the whole process (runtime/_ambient.ts),
      // which would then be measured by every case that shares the process.
      const llm = new OpenAIChatLLM({ apiKey: "sk-bench", fetch });
      return async () => {
        let deltas = 0;
        let end = 0;
        for await (const e of llm.stream(request)) {
          if (e.type === "text_delta") deltas++;
          else if (e.type === "message_end") end = e.usage.outputTokens;
        }
        check(deltas === n && end === n, `sse_parse_${n} events`);
        return deltas;
      };
    },
  };
}

// A realistic tool: what a search tool of a support agent takes, written
// as zod writes it (enums, bounds, a format, nested objects and arrays).
const SEARCH_TOOL = {
  name: "search_tickets",
  description: "Search the support tickets.",
  parameters: z.toJSONSchema(z.object({
    query: z.string().min(3).max(200),
    status: z.enum(["open", "pending", "closed"]),
    priority: z.number().int().min(1).max(5).optional(),
    assignee: z.email().optional(),
    created: z.object({ from: z.iso.date(), to: z.iso.date().optional() }),
    tags: z.array(z.string().regex(/^[a-z-]+$/)).min(1).max(10),
    page: z.object({ size: z.number().int().min(1).max(100), cursor: z.string().nullable() }),
  })) as Record<string, unknown>,
};
const SEARCH_ARGS = {
  query: "aaa",
  status: "open",
  created: { from: "2024-01-01" },
  tags: ["a"],
  page: { size: 1, cursor: "a" },
};
const ASK = { model: MODEL, messages: [{ role: "user" as const, content: "find it" }] };

/**
 * Case 9: one `FakeLLM.auto` call that generates a tool call from the
 * tool's schema and checks it with the validator, next to case 10.
 */
export function autoToolCall(): BenchCase {
  return {
    id: "auto_tool_call",
    title: "`FakeLLM.auto` tool call generated from a 7-field schema, validated",
    uses: RECORD_ROTATION,
    steps: 1,
    prepare() {
      const llm = FakeLLM.auto();
      return async () => {
        const r = await llm.chat({ ...ASK, tools: [SEARCH_TOOL] });
        check(JSON.stringify(r.toolCalls?.[0].args) === JSON.stringify(SEARCH_ARGS), "auto args");
        return r;
      };
    },
  };
}

/** Case 10: the same tool call, scripted: the nearest peer of case 9. */
export function scriptedToolCall(): BenchCase {
  return {
    id: "scripted_tool_call",
    title: "the same tool call, scripted (`FakeLLM.script`)",
    uses: RECORD_ROTATION,
    steps: 1,
    prepare() {
      const call = toolCall("c1", SEARCH_TOOL.name, SEARCH_ARGS);
      const llm = FakeLLM.script([{ toolCalls: [call] }], { repeatLast: true });
      return async () => {
        const r = await llm.chat({ ...ASK, tools: [SEARCH_TOOL] });
        check(r.toolCalls?.[0].name === SEARCH_TOOL.name, "scripted args");
        return r;
      };
    },
  };
}

/** Every case, in results-table order. */
export function allCases(): BenchCase[] {
  return [
    singleTurn(),
    streamed(),
    react2(),
    reactSteps(10),
    reactSteps(100),
    reactSteps(1000),
    backoff(),
    construction(),
    sseParse(100),
    sseParse(1000),
    autoToolCall(),
    scriptedToolCall(),
  ];
}
