/**
 * At-most-once tool calls.
 *
 * @module
 */
import type { KVStore } from "../../ports/kv_store.ts";
import { storeOf } from "./_store.ts";
import type { ToolInvocation, ToolMiddleware } from "./types.ts";
import { checkOptions, is, ports } from "../_options.ts";

/** Options for {@linkcode idempotent}. */
export interface IdempotentOptions {
  /**
   * Where results are kept.
   * @default {ctx.store}
   */
  readonly store?: KVStore;
  /**
   * The idempotency key of a call (the tenant and tool name are added).
   * @default {the call id}
   */
  readonly key?: (invocation: ToolInvocation) => string;
}

/**
 * A tool middleware that runs each tool call at most once per idempotency key
 * (by default the provider's call id) and tenant; a repeat (a resumed run, a
 * replayed transcript) gets the stored result and the tool is not called
 * again. With no store it throws `MisconfiguredMiddleware` at the first call.
 *
 * @param options The store and key.
 * @returns The tool middleware.
 *
 * @example A replayed call does not charge the card twice
 * ```ts
 * import { Agent, InMemoryStore, ReActCognition, idempotent } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const charge = new FakeTool({ name: "charge", responder: "charged" });
 * const turns = [{ toolCalls: [toolCall("pay-1", "charge", { cents: 500 })] }, { content: "done" }];
 * const llm = FakeLLM.script([...turns, ...turns]);
 * const ctx = makeTestCtx({ llm, store: new InMemoryStore(), toolMiddleware: [idempotent()] });
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools: [charge] }) });
 * await agent.run("pay", ctx);
 * await agent.run("pay", ctx);
 * assertEquals(charge.calls.length, 1);
 * ```
 */
export function idempotent(options: IdempotentOptions = {}): ToolMiddleware {
  checkOptions("idempotent()", options, { store: ports.kvStore, key: is.function });
  return {
    name: "idempotent",
    async call(inv, ctx, next) {
      const store = storeOf("idempotent", options.store, ctx);
      const key = `idempotent:${inv.tool.name}:${options.key ? options.key(inv) : inv.call.id}`;
      const hit = await store.get(ctx.scope, key) as { value: unknown } | undefined;
      if (hit !== undefined) return hit.value;
      const value = await next(inv, ctx);
      await store.set(ctx.scope, key, { value });
      return value;
    },
  };
}
