// Random scripts through the production path: Agent + ReActCognition +
// retry() + meter() + Budget on a FakeClock. The run never hangs; what the
// budget spent is exactly the sum of the priced usage of the calls the model
// answered (or failed with usage); every error is a kind the package means.
import fc from "fast-check";
import { assert, assertEquals } from "@std/assert";
import { z } from "zod";
import {
  Agent,
  Budget,
  BudgetExceeded,
  meter,
  PriceTable,
  ReActCognition,
  retry,
} from "@agentkit/testing/runtime";
import { ProviderError, RateLimitError, toolCall, type Usage } from "@agentkit/testing/ports";
import {
  FakeClock,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptExhausted,
  type Turn,
} from "@agentkit/testing/testing";
import { formatUnits } from "../../runtime/money/_decimal.ts";
import { fuzz, isInternalError, noHang } from "./_fuzz.ts";

const usage: fc.Arbitrary<Usage> = fc.record({
  inputTokens: fc.nat({ max: 5_000 }),
  outputTokens: fc.nat({ max: 5_000 }),
  cachedInputTokens: fc.option(fc.nat({ max: 5_000 }), { nil: undefined }),
}).map((u) => u.cachedInputTokens === undefined ? { ...u, cachedInputTokens: undefined } : u)
  .map(({ cachedInputTokens, ...u }) =>
    cachedInputTokens === undefined ? u : { ...u, cachedInputTokens }
  );

type Step =
  | { kind: "text"; text: string; usage: Usage }
  | { kind: "tool"; name: string; args: Record<string, unknown>; usage: Usage }
  | { kind: "fail"; usage: Usage; retryable: boolean }
  | { kind: "limit" };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("text" as const), text: fc.string(), usage }),
  fc.record({
    kind: fc.constant("tool" as const),
    name: fc.constantFrom("lookup", "lookpu", "broken"),
    args: fc.oneof(
      fc.record({ q: fc.string() }),
      fc.record({ q: fc.integer() }),
      fc.constant({}),
    ),
    usage,
  }),
  fc.record({ kind: fc.constant("fail" as const), usage, retryable: fc.boolean() }),
  fc.constant({ kind: "limit" as const }),
);

// A failing turn with usage bills it (a provider error carrying usage);
// a RateLimitError thrown as is carries none.
function toTurn(s: Step, i: number): Turn {
  switch (s.kind) {
    case "text":
      return { content: s.text, usage: s.usage };
    case "tool":
      return { toolCalls: [toolCall(`c${i}`, s.name, s.args)], usage: s.usage };
    case "fail":
      return {
        error: new ProviderError("upstream broke", { retryable: s.retryable, usage: s.usage }),
      };
    case "limit":
      return { error: new RateLimitError("slow down") };
  }
}

function billed(s: Step): Usage | undefined {
  return s.kind === "limit" ? undefined : s.usage;
}

Deno.test("fuzz: random scripts through Agent + ReAct + retry + meter + Budget never hang and bill exactly", async () => {
  const prices = PriceTable.default();
  await fuzz("agent scripts", 2026, 120, () =>
    fc.asyncProperty(
      fc.array(step, { minLength: 1, maxLength: 12 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 6 }),
      fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
      fc.option(fc.constantFrom("0", "0.0001", "0.05", "1"), { nil: undefined }),
      fc.boolean(),
      async (steps, maxAttempts, maxIterations, maxCalls, maxCostUsd, asyncTool) => {
        const llm = FakeLLM.script(steps.map(toTurn), { allowUnused: true });
        const lookup = new FakeTool({
          name: "lookup",
          parameters: z.object({ q: z.string() }),
          responder: asyncTool
            ? async ({ q }: { q: string }) => await Promise.resolve(`found ${q}`)
            : ({ q }: { q: string }) => `found ${q}`,
        });
        const broken = new FakeTool({ name: "broken", failWith: "tool down" });
        const budget = new Budget({ maxCalls, maxCostUsd });
        const clock = new FakeClock();
        const ctx = makeTestCtx({
          llm,
          clock,
          budget,
          chatMiddleware: [retry({ maxAttempts }), meter()],
        });
        const agent = new Agent("fuzz", {
          model: "fake-model",
          cognition: new ReActCognition({ tools: [lookup, broken], maxIterations }),
        });
        let error: unknown;
        try {
          const r = await noHang(agent.run("go", ctx));
          assert(["stop", "max_iterations", "length", "error"].includes(r.stopReason));
        } catch (e) {
          error = e;
        }
        if (error !== undefined) {
          assert(!isInternalError(error), `internal error: ${(error as Error)?.stack}`);
          assert(
            error instanceof BudgetExceeded || error instanceof ProviderError ||
              error instanceof ScriptExhausted,
            `unexpected error kind: ${(error as Error)?.name}: ${(error as Error)?.message}`,
          );
        }
        // The model answered (or failed) llm.calls times, in script order.
        let units = 0n;
        let calls = 0;
        for (const s of steps.slice(0, llm.calls)) {
          const u = billed(s);
          if (!u) continue;
          calls++;
          units += prices.costUnits("fake-model", u)!;
        }
        assertEquals(budget.spent(), formatUnits(units));
        assertEquals(budget.calls, calls);
        clock[Symbol.dispose]?.();
      },
    ));
});
