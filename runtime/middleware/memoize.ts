/**
 * Caching of model answers in the context's store.
 *
 * @module
 */
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { KVStore } from "../../ports/kv_store.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { storeOf } from "./_store.ts";
import type { ChatMiddleware } from "./types.ts";
import { replay, streamOf, type StreamStage, tapped, withStage } from "./_stream_stage.ts";
import { checkOptions, is, ports } from "../_options.ts";

/** Options for {@linkcode memoize}. */
export interface MemoizeOptions {
  /**
   * Where answers are cached.
   * @default {ctx.store}
   */
  readonly store?: KVStore;
  /**
   * The cache key of a request (the tenant is added by the store).
   * @default {the model, messages, tool names and settings as JSON}
   */
  readonly key?: (request: ChatRequest) => string;
}

/**
 * The default cache key of a request.
 *
 * @param request The request.
 * @returns A string that is equal for equal requests.
 *
 * @example
 * ```ts
 * import { requestKey } from "@agentkit/testing/runtime";
 * import { assertEquals, assertNotEquals } from "@std/assert";
 *
 * const a = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };
 * assertEquals(requestKey(a), requestKey({ ...a }));
 * assertNotEquals(requestKey(a), requestKey({ ...a, model: "n" }));
 * ```
 */
export function requestKey(request: ChatRequest): string {
  return JSON.stringify([
    request.model,
    request.messages,
    request.tools?.map((t) => t.name) ?? [],
    request.settings ?? null,
  ]);
}

/**
 * Answers a request seen before (in the same tenant) from the store instead
 * of the provider. With no store on the middleware or the context, the first
 * call throws `MisconfiguredMiddleware`: a cache that cannot cache is a bug,
 * not a pass-through. Streams are cached as their events and replayed.
 *
 * @param options The store and key.
 * @returns The middleware.
 *
 * @example The provider is called once
 * ```ts
 * import { Agent, InMemoryStore, memoize } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = new FakeLLM("cached?");
 * const ctx = makeTestCtx({ llm, store: new InMemoryStore(), chatMiddleware: [memoize()] });
 * const agent = new Agent("analyst", { model: "fake-model" });
 * await agent.run("same question", ctx);
 * await agent.run("same question", ctx);
 * assertEquals(llm.calls, 1);
 * ```
 */
export function memoize(options: MemoizeOptions = {}): ChatMiddleware {
  checkOptions("memoize()", options, { store: ports.kvStore, key: is.function });
  const keyOf = options.key ?? requestKey;
  // A stream is cached as its events once it completed without an error.
  const stage: StreamStage = async (req, ctx, next) => {
    const store = storeOf("memoize", options.store, ctx);
    const key = `memoize:stream:${keyOf(req)}`;
    const hit = await store.get(ctx.scope, key) as StreamEvent[] | undefined;
    if (hit !== undefined) return replay(hit);
    const seen: StreamEvent[] = [];
    return tapped(next(req, ctx), {
      event: (event) => void seen.push(event),
      end: async () => {
        if (!seen.some((e) => e.type === "error")) await store.set(ctx.scope, key, seen);
      },
    });
  };
  return withStage({
    name: "memoize",
    async chat(req, ctx, next) {
      const store = storeOf("memoize", options.store, ctx);
      const key = `memoize:chat:${keyOf(req)}`;
      const hit = await store.get(ctx.scope, key);
      if (hit !== undefined) return hit as ChatResponse;
      const res = await next(req, ctx);
      await store.set(ctx.scope, key, res);
      return res;
    },
    stream: streamOf(stage),
  }, stage);
}
