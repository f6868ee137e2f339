// The public entries that take an options bag, with a valid base and, per
// option, values of the wrong type or out of range: shared by the bad-input
// table and the option-bag fuzzer.
import {
  Agent,
  Budget,
  ClaudeCliCognition,
  CodexCliCognition,
  CodexCliSession,
  idempotent,
  idleTimeout,
  InMemorySessionStore,
  InMemoryVector,
  Invoker,
  JsonlSession,
  KVSessionStore,
  McpToolProvider,
  memoize,
  meter,
  PriceTable,
  Quota,
  ReActCognition,
  RequestBuilder,
  retry,
  RunContext,
  semanticMemoize,
  Services,
  Session,
  SummaryCompactor,
  timeout,
  ToolPolicy,
} from "@agentkit/testing/runtime";
import {
  AgentTest,
  ApiTestClient,
  chaos,
  FakeAsker,
  FakeClaudeCli,
  FakeClock,
  FakeCodexCli,
  FakeCompactor,
  FakeCtx,
  FakeEmbedder,
  FakeLLM,
  FakeMcpServer,
  FakeTool,
  HaltingHook,
  LLMJudge,
  makeTestCtx,
  RecordingHook,
  RecordingTracer,
  runSettled,
  ScriptedProvider,
  ScriptedProviderWithGrants,
  serveAgent,
} from "@agentkit/testing/testing";
import { evaluate, trials } from "@agentkit/testing/testing";

export type Call = (bag: unknown) => unknown;

export interface Entry {
  /** Builds (or calls) the entry with an options bag. */
  readonly call: Call;
  /** The keys it needs to be valid at all. */
  readonly base?: Readonly<Record<string, unknown>>;
  /** Leave it out of the random bags (a valid bag would open a socket). */
  readonly fuzz?: false;
  /** Per option: values of the wrong type or out of range. */
  readonly bad: Readonly<Record<string, readonly unknown[]>>;
}

export const llm = (): FakeLLM => new FakeLLM("ok");
const cli = () => FakeClaudeCli.script(["x"], { allowUnused: true });
const codex = () => FakeCodexCli.script(["x"], { allowUnused: true });
export const agent: Agent = new Agent("a", { model: "fake-model" });
const COUNT = [-1, 1.5, NaN, "3", null];
const MS = [-5, NaN, Infinity, "100"];
const MONEY = [-1, "-0.5", " 1", "0.0000000000001", "ten", NaN, true];
const BOOL = ["yes", 1, null];
const TEXT = ["", 5, {}, null];
const FN = ["f", 5, {}];
const PORT = [{}, 5, "x", null];

export const ENTRIES: Readonly<Record<string, Entry>> = {
  "new Budget()": {
    call: (o) => new Budget(o as never),
    bad: { maxCostUsd: MONEY, maxCalls: COUNT, maxTokens: COUNT },
  },
  "new Quota()": {
    call: (o) => new Quota(o as never),
    bad: { maxCostUsd: MONEY, maxCalls: COUNT, maxTokens: COUNT },
  },
  "PriceTable.with()": {
    call: (o) => PriceTable.default().with("m", o as never),
    base: { inputPerMTok: "1", outputPerMTok: "2" },
    bad: { inputPerMTok: MONEY, outputPerMTok: MONEY, cachedInputPerMTok: MONEY },
  },
  "new Session()": {
    call: (o) => new Session("s", o as never),
    bad: {
      scope: [{}, "org1", 5],
      store: PORT,
      persistent: [5, "x", []],
      transcript: [5, "x", [5]],
    },
  },
  "Session.open()": {
    call: (o) => Session.open("s", o as never),
    base: { store: new InMemorySessionStore() },
    bad: { store: [{}, 5, "x"], scope: [{}, "org1"] },
  },
  "JsonlSession.load()": {
    call: (o) => JsonlSession.load("/nonexistent/x.jsonl", o as never),
    bad: { sync: BOOL, lenient: BOOL },
  },
  "KVSessionStore.open()": {
    call: (o) => KVSessionStore.open(":memory:", o as never),
    bad: { prefix: TEXT },
  },
  "new ClaudeCliCognition()": {
    call: (o) => new ClaudeCliCognition(o as never),
    base: { spawn: cli() },
    bad: {
      spawn: [5, "claude", {}],
      binary: TEXT,
      args: ["--x", [1], 5],
      cwd: TEXT,
      env: [5, { A: 1 }, "x"],
      model: TEXT,
    },
  },
  "new CodexCliCognition()": {
    call: (o) => new CodexCliCognition(o as never),
    base: { spawn: codex() },
    bad: { spawn: [5, "codex"], binary: TEXT, args: [[1], 5], cwd: TEXT, env: [{ A: 1 }] },
  },
  "new CodexCliSession()": {
    call: (o) => new CodexCliSession(o as never),
    base: { spawn: codex() },
    bad: { spawn: [5, "codex"], binary: TEXT, args: [[1]], cwd: TEXT },
  },
  "new FakeMcpServer()": {
    call: (o) => new FakeMcpServer(o as never),
    base: { tools: [] },
    bad: {
      tools: [5, "x", [5], [{ name: "t" }], [{ name: "", result: 1 }]],
      resources: [5, [5], [{ uri: "a" }]],
      prompts: [5, [5], [{ name: "p" }]],
      clock: PORT,
      name: TEXT,
      auth: [{}, "tok", { token: "" }, { token: "t", realm: "x" }, 5],
      strict: BOOL,
      unknownTool: ["ignore", 5, null],
      progressIntervalMs: MS,
    },
  },
  "new FakeLLM()": {
    call: (o) => new FakeLLM("x", o as never),
    bad: {
      failTimes: COUNT,
      failWith: ["boom", 5, {}],
      delayMs: MS,
      usage: [5, "x"],
      strict: BOOL,
      repeatLast: BOOL,
      allowUnused: BOOL,
      model: TEXT,
    },
  },
  "FakeLLM.script()": {
    call: (o) => FakeLLM.script(["a"], o as never),
    bad: { failTimes: COUNT, delayMs: MS, repeatLast: BOOL, allowUnused: BOOL },
  },
  "FakeLLM.auto()": {
    call: (o) => FakeLLM.auto(o as never),
    bad: { answer: [5, {}], tools: ["dns", [5], [""]], delayMs: MS },
  },
  "new FakeTool()": {
    call: (o) => new FakeTool(o as never),
    base: { name: "t", responder: "ok" },
    bad: {
      name: TEXT,
      description: [5, {}],
      parameters: [5, "x"],
      failWith: [5, {}],
      failTimes: COUNT,
      requiresApproval: BOOL,
      allowUnused: BOOL,
    },
  },
  "new ScriptedProvider()": {
    call: (o) => new ScriptedProvider(o as never),
    base: { tools: [{ name: "t" }], results: { t: "ok" } },
    bad: {
      tools: [[], 5, "x", [5]],
      results: [5, "x", null],
      blockOn: ["soon", 5],
      latencyMs: [{ t: -5 }, { t: "5" }, 5],
      blockCall: [{ t: 5 }, 5],
      allowUnused: BOOL,
    },
  },
  "new ScriptedProviderWithGrants()": {
    call: (o) => new ScriptedProviderWithGrants(o as never),
    base: { tools: [{ name: "t" }], results: { t: "ok" } },
    bad: { grants: [5, "x", [5]], allowUnused: BOOL },
  },
  "new McpToolProvider()": {
    call: (o) =>
      new McpToolProvider({
        listTools: () => Promise.resolve({ tools: [] }),
        callTool: () => Promise.resolve({ content: [] }),
      }, o as never),
    bad: { prefix: TEXT, cacheToolsList: BOOL },
  },
  "new ToolPolicy()": {
    call: (o) =>
      new ToolPolicy(
        new ScriptedProvider({ tools: [{ name: "t" }], results: { t: "ok" }, allowUnused: true }),
        o as never,
      ),
    bad: {
      allow: [5, [5], [""], "", {}, null, new Set(["t"])],
      deny: [5, ["t", 1], [""], null],
      approve: [true, [null], [""]],
    },
  },
  "new FakeClock()": {
    call: (o) => new FakeClock(o as never),
    bad: { start: [NaN, Infinity, "0"], autoAdvance: BOOL },
  },
  "new FakeAsker()": {
    call: (o) => new FakeAsker(["y"], o as never),
    bad: { repeatLast: BOOL, allowUnused: BOOL, delayMs: MS },
  },
  "new FakeCompactor()": {
    call: (o) => new FakeCompactor(o as never),
    bad: { returns: [5, "x", [5]] },
  },
  "new FakeCtx()": {
    call: (o) => new FakeCtx(o as never),
    bad: { scope: [{}, "x"], signal: [{}, true], clock: PORT, correlationId: TEXT },
  },
  "new FakeEmbedder()": {
    call: (o) => new FakeEmbedder(o as never),
    bad: { dimensions: [0, -1, 1.5, "512", NaN] },
  },
  "new HaltingHook()": {
    call: (o) => new HaltingHook(o as never),
    bad: { name: TEXT, reply: [5, {}], when: FN, replaceWith: [5, "x"] },
  },
  "new RecordingHook()": {
    call: (o) => new RecordingHook(o as never),
    bad: { name: TEXT },
  },
  "new RecordingTracer()": {
    call: (o) => new RecordingTracer(o as never),
    bad: { exporter: FN },
  },
  "new LLMJudge()": {
    call: (o) => new LLMJudge(llm(), o as never),
    bad: { model: TEXT, threshold: [-0.1, 1.5, NaN, "0.5"] },
  },
  "makeTestCtx()": {
    call: (o) => makeTestCtx(o as never),
    bad: {
      llm: PORT,
      budget: [5, {}, "1"],
      store: PORT,
      vector: PORT,
      checkpointer: PORT,
      asker: PORT,
      observer: PORT,
      trace: PORT,
      clock: PORT,
      signal: [{}, true],
      chatMiddleware: [meter, [meter], [5], {}],
      toolMiddleware: [[5], {}],
      meters: [[5], 5],
      correlationId: TEXT,
      autonomy: ["yes", 1],
      prices: PORT,
      scope: [{}, "org"],
    },
  },
  "AgentTest.compare()": {
    call: (o) => AgentTest.compare("a", "a", o as never),
    base: { config: false },
    bad: {
      mode: ["fast", 1],
      threshold: [-1, 2, "0.5"],
      judge: PORT,
      judgeModel: TEXT,
      judgeThreshold: [1.5, -1],
      returnMetrics: BOOL,
      question: [5, {}],
    },
  },
  "runSettled()": {
    call: (o) => runSettled(agent.start("go", makeTestCtx({ llm: llm() })), "r", o as never),
    bad: { timeoutMs: [0, -1, NaN, "5"] },
  },
  "FakeClaudeCli.script()": {
    call: (o) => FakeClaudeCli.script(["x"], o as never),
    bad: { repeatLast: BOOL, allowUnused: BOOL, lineDelayMs: MS },
  },
  "FakeCodexCli.script()": {
    call: (o) => FakeCodexCli.script(["x"], o as never),
    bad: { repeatLast: BOOL, allowUnused: BOOL, lineDelayMs: MS },
  },
  "new Agent()": {
    call: (o) => new Agent("a", o as never),
    base: { model: "fake-model" },
    bad: { model: TEXT, system: [5, {}], cognition: PORT, hooks: [5, "x"] },
  },
  "agent.run()": {
    call: (o) => agent.run("go", makeTestCtx({ llm: llm() }), o as never),
    bad: { context: [5, "x", [5]], session: [5, {}, "s"] },
  },
  "new ReActCognition()": {
    call: (o) => new ReActCognition(o as never),
    bad: {
      tools: [5, [5], [{}], "t"],
      provider: PORT,
      maxIterations: [0, -1, 1.5, "3"],
      toolTimeoutMs: MS,
    },
  },
  "new Invoker()": {
    call: (o) => new Invoker(o as never),
    base: { llm: llm() },
    bad: { llm: PORT, chatMiddleware: [meter, [meter], [5]], toolMiddleware: [[5], 5] },
  },
  "retry()": {
    call: (o) => retry(o as never),
    bad: { maxAttempts: [0, -1, 1.5, "3"], sleep: FN, backoff: FN, retryOn: FN },
  },
  "timeout()": {
    call: (o) => timeout(o as never),
    base: { ms: 100 },
    bad: { ms: [0, -1, NaN, "5"] },
  },
  "idleTimeout()": {
    call: (o) => idleTimeout(o as never),
    base: { ms: 100 },
    bad: { ms: [0, -1, NaN, "5"] },
  },
  "meter()": {
    call: (o) => meter(o as never),
    bad: { prices: PORT },
  },
  "memoize()": {
    call: (o) => memoize(o as never),
    bad: { store: PORT, key: FN },
  },
  "semanticMemoize()": {
    call: (o) => semanticMemoize(o as never),
    bad: { vector: PORT, threshold: [-0.5, 1.5, NaN, "0.9"], context: FN },
  },
  "idempotent()": {
    call: (o) => idempotent(o as never),
    bad: { store: PORT, key: FN },
  },
  "new RunContext()": {
    call: (o) => new RunContext(o as never),
    bad: {
      services: PORT,
      scope: [{}, "x"],
      budget: [5, {}],
      meters: [[5], 5],
      correlationId: TEXT,
      autonomy: ["yes"],
      signal: [{}, true],
      allowModelRequests: BOOL,
    },
  },
  "new Services()": {
    call: (o) => new Services(o as never),
    bad: {
      invoker: PORT,
      observer: PORT,
      trace: PORT,
      clock: PORT,
      store: PORT,
      vector: PORT,
      checkpointer: PORT,
      asker: PORT,
      prices: PORT,
    },
  },
  "new InMemoryVector()": {
    call: (o) => new InMemoryVector(o as never),
    base: { embedder: new FakeEmbedder() },
    bad: { embedder: PORT, defaultK: [0, -1, 1.5, "4"] },
  },
  "new RequestBuilder()": {
    call: (o) => new RequestBuilder(o as never),
    bad: { grounder: PORT, version: TEXT, compactor: PORT },
  },
  "serveAgent()": {
    call: (o) => serveAgent(agent, o as never),
    fuzz: false,
    bad: { ctx: PORT, port: [-1, 70_000, 1.5, "80"], hostname: TEXT, store: PORT },
  },
  "new ApiTestClient()": {
    call: (o) => new ApiTestClient("http://127.0.0.1:1/", o as never),
    bad: { sessionId: TEXT, agent: TEXT },
  },
  // A valid bag runs the scenario (100 times by default, and a stalled call
  // waits up to hangMs of real time), so random bags would time the fuzzer
  // out; every bad value here fails before the first run.
  "chaos()": {
    call: (o) => chaos((world) => agent.run("go", world.ctx()), o as never),
    base: { script: ["ok"] },
    fuzz: false,
    bad: {
      script: [5, "turns", {}, null, [], [5], [{ tool_calls: [] }]],
      faults: [
        ["rateLimt"],
        ["nope"],
        [5],
        [],
        {},
        { stal: 1 },
        { rateLimit: -1 },
        { rateLimit: 1.5 },
        { rateLimit: "3" },
        { rateLimit: 0 },
        "rateLimit",
        5,
        null,
      ],
      runs: [0, -1, 1.5, NaN, Infinity, "100"],
      seed: [1.5, NaN, "1"],
      path: [5, "", "4:x", "a path"],
      maxFaults: COUNT,
      maxSteps: [0, -1, 1.5, "20"],
      maxVirtualMs: [0, ...MS],
      hangMs: [0, ...MS],
      invariants: [5, "terminates", null, [5], [() => {}, "x"], { mine: 5 }, {
        terminates: () => {},
      }],
      skip: ["terminates", [5], ["terminate"], ["noHarness"], ["nope"], {}],
    },
  },
  "new SummaryCompactor()": {
    call: (o) => new SummaryCompactor(o as never),
    base: { maxTokens: 100 },
    bad: {
      maxTokens: [0, -1, NaN, "100"],
      keepRecent: COUNT,
      summarise: FN,
      model: TEXT,
      estimate: FN,
    },
  },
  // Trials (SPEC §24). A valid bag runs its trials, so no random bags.
  "trials()": {
    call: (o) => trials(() => {}, o as never),
    base: { n: 3 },
    fuzz: false,
    bad: {
      n: [0, -1, 1.5, NaN, "3", null],
      k: [0, 1.5, 4, "2"],
      threshold: [-0.1, 1.5, NaN, "0.9"],
      seed: [1.5, NaN, "1"],
      concurrency: [0, -1, 1.5, "2"],
      budgetUsd: [-1, "abc", NaN, {}],
      earlyStop: ["yes", 1, null],
      name: TEXT,
    },
  },
  "evaluate()": {
    call: (o) => evaluate([{ name: "a", input: "x", expected: "x" }], (i) => String(i), o as never),
    base: { config: false },
    fuzz: false,
    bad: {
      trials: [0, -1, 1.5, "3", null, { n: 0 }, { n: 2, k: 3 }, { n: 2, earlyStop: true }],
      shard: ["3/2", "0/2", "1-2", 5, ""],
      cache: [5, "", {}],
      name: TEXT,
      mode: ["nope", 5],
      threshold: [2, -1, "0.8"],
      judge: PORT,
    },
  },
};
