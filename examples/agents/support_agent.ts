/**
 * An agent definition module, as `AgentTest.start()` loads one: it exports
 * the agent and `makeCtx()`, which builds the context the harness runs it on.
 * It lives in `examples/agents/` so the example runner does not run it on
 * its own; `examples/agent_test_harness.ts` tests it.
 *
 * The agent answers order questions with one tool, and a `beforeRun` hook
 * halts any request that contains a card number before the model sees it.
 */
import { Agent, ReActCognition, type RunContext } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
import { z } from "zod";

const ORDERS: Record<string, { status: string; eta: string }> = {
  "A-17": { status: "shipped", eta: "Friday" },
  "B-42": { status: "packed", eta: "next week" },
};

/** The order lookup (a database query in production). */
export const orderStatus: FakeTool = new FakeTool({
  name: "order_status",
  description: "Look up an order by its id",
  parameters: z.object({ id: z.string() }),
  responder: ({ id }: { id: string }) => ({ id, ...(ORDERS[id] ?? { status: "unknown" }) }),
});

const CARD = /\b\d{4}(?:[ -]?\d{4}){3}\b/;

/** The agent under test. */
export const agent: Agent = new Agent("support", {
  model: "fake-model",
  system: "You answer questions about orders. Look orders up; never guess.",
  cognition: new ReActCognition({ tools: [orderStatus] }),
  hooks: {
    beforeRun: [{
      name: "no-card-numbers",
      beforeRun: (request) =>
        CARD.test(request.task)
          ? { reply: "Please never share card numbers here; our team will not ask for them." }
          : undefined,
    }],
  },
});

/**
 * The context for a test: a scripted model that plays the support role. It
 * looks up the order a question names (or the one named earlier in the
 * conversation, which it only knows through the session) and answers from
 * the tool's result.
 */
export function makeCtx(): RunContext {
  const llm = new FakeLLM(({ messages, user }) => {
    const last = messages[messages.length - 1];
    if (last.role === "tool") {
      const order = JSON.parse(last.content) as { id: string; status: string; eta?: string };
      if (order.status === "unknown") return `I cannot find order ${order.id}.`;
      return /when|arrive/i.test(user)
        ? `Order ${order.id} should arrive ${order.eta}.`
        : `Order ${order.id} has been ${order.status}.`;
    }
    const named = /\b[A-Z]-\d+\b/.exec(user)?.[0] ??
      messages.map((m) => /\b[A-Z]-\d+\b/.exec(m.content)?.[0]).filter(Boolean).pop();
    if (named) {
      return { toolCalls: [toolCall(`c-${messages.length}`, "order_status", { id: named })] };
    }
    return "Which order do you mean? Please give its id, such as A-17.";
  });
  return makeTestCtx({ llm });
}
