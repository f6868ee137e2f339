/**
 * Caching of model answers by meaning: a near-duplicate question is answered
 * from the cache.
 *
 * @module
 */
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { VectorStore } from "../../ports/vector_store.ts";
import type { RunContext } from "../context.ts";
import { MisconfiguredMiddleware } from "../errors.ts";
import type { ChatMiddleware } from "./types.ts";
import { replay, streamOf, type StreamStage, tapped, withStage } from "./_stream_stage.ts";
import { checkOptions, is, ports } from "../_options.ts";

/**
 * Options for {@linkcode semanticMemoize}.
 *
 * @example
 * ```ts
 * import { semanticMemoize, type SemanticMemoizeOptions } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const options: SemanticMemoizeOptions = { threshold: 0.95, context: (req) => req.model };
 * assertEquals(semanticMemoize(options).name, "semanticMemoize");
 * ```
 */
export interface SemanticMemoizeOptions {
  /**
   * Where questions and answers are indexed (an `InMemoryVector`).
   * @default {ctx.vector}
   */
  readonly vector?: VectorStore;
  /**
   * The least cosine similarity at which a stored question counts as the
   * same question, in (0, 1]. `1` answers only (near-)identical wording.
   * @default {0.9}
   */
  readonly threshold?: number;
  /**
   * What must match exactly, besides the question, for a cached answer to be
   * used. Grounding and earlier turns are part of the default, so an answer
   * given with other facts in front of the model is not reused; return
   * `request.model` to match on the question alone.
   * @default {the model, every message before the question, tool names and settings}
   */
  readonly context?: (request: ChatRequest) => string;
}

interface ChatEntry {
  readonly context: string;
  readonly response: ChatResponse;
}

interface StreamEntry {
  readonly context: string;
  readonly events: readonly StreamEvent[];
}

// Hits examined per lookup: the nearest questions may belong to another context.
const CANDIDATES = 8;

function defaultContext(request: ChatRequest): string {
  return JSON.stringify([
    request.model,
    request.messages.slice(0, -1),
    request.tools?.map((t) => t.name) ?? [],
    request.settings ?? null,
  ]);
}

// The question of a request that may be answered from the cache: its last
// message, when that is the user's. A request that ends with tool results is
// the middle of a tool loop and always goes to the model.
function questionOf(request: ChatRequest): string | undefined {
  const last = request.messages[request.messages.length - 1];
  return last?.role === "user" ? last.content : undefined;
}

function vectorOf(vector: VectorStore | undefined, ctx: RunContext): VectorStore {
  const v = vector ?? ctx.vector;
  if (!v) {
    throw new MisconfiguredMiddleware(
      "semanticMemoize",
      "Cannot semanticMemoize without a vector store: the middleware would be a silent no-op; pass semanticMemoize({ vector: new InMemoryVector({ embedder }) }) or makeTestCtx({ vector })",
    );
  }
  return v;
}

/**
 * Answers a question from the cache when a stored question of the same tenant
 * is near enough in meaning (cosine similarity at least `threshold`) and was
 * asked in the same context (see `context`); otherwise asks the model and
 * indexes the question with its answer. Only a request whose last message is
 * the user's is looked up; the later turns of a tool loop always reach the
 * model. With no vector store on the middleware or the context, the first
 * call throws `MisconfiguredMiddleware`, as `memoize()` does without a store.
 * Streams are cached as their events (a stream that failed is not cached).
 *
 * @param options The vector store, the threshold and the context key.
 * @returns The middleware.
 * @throws {RangeError} For a threshold outside (0, 1].
 * @throws {TypeError} For an unknown option.
 *
 * @example A reworded question is answered from the cache
 * ```ts
 * import { Agent, InMemoryVector, semanticMemoize } from "@agentkit/testing/runtime";
 * import { FakeEmbedder, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = new FakeLLM("Paris.");
 * const ctx = makeTestCtx({
 *   llm,
 *   vector: new InMemoryVector({ embedder: new FakeEmbedder() }),
 *   chatMiddleware: [semanticMemoize({ threshold: 0.9 })],
 * });
 * const agent = new Agent("geo", { model: "fake-model" });
 * await agent.run("What is the capital of France?", ctx);
 * const again = await agent.run("Please, what is the capital of France", ctx);
 * assertEquals([again.output, llm.calls], ["Paris.", 1]);
 * await agent.run("What is the capital of Peru?", ctx);
 * assertEquals(llm.calls, 2);
 * ```
 */
export function semanticMemoize(options: SemanticMemoizeOptions = {}): ChatMiddleware {
  checkOptions("semanticMemoize()", options, {
    vector: ports.vector,
    threshold: is.number({ min: Number.MIN_VALUE, max: 1 }),
    context: is.function,
  });
  const threshold = options.threshold ?? 0.9;
  const contextOf = options.context ?? defaultContext;

  async function lookup<T extends { readonly context: string }>(
    vector: VectorStore,
    ctx: RunContext,
    question: string,
    context: string,
  ): Promise<T | undefined> {
    const hits = await vector.query(ctx.scope, question, { k: CANDIDATES });
    for (const hit of hits) {
      if (hit.score < threshold) break;
      const entry = hit.payload as T | undefined;
      if (entry?.context === context) return entry;
    }
    return undefined;
  }

  // A stream is cached as its events once it completed without an error.
  const stage: StreamStage = async (req, ctx, next) => {
    const vector = vectorOf(options.vector, ctx);
    const question = questionOf(req);
    if (question === undefined) return next(req, ctx);
    const context = `stream:${contextOf(req)}`;
    const hit = await lookup<StreamEntry>(vector, ctx, question, context);
    if (hit) return replay(hit.events);
    const events: StreamEvent[] = [];
    return tapped(next(req, ctx), {
      event: (event) => void events.push(event),
      end: async () => {
        if (events.some((e) => e.type === "error")) return;
        const entry: StreamEntry = { context, events };
        await vector.upsert(ctx.scope, `${context}\u0000${question}`, question, entry);
      },
    });
  };
  return withStage({
    name: "semanticMemoize",
    async chat(req, ctx, next) {
      const vector = vectorOf(options.vector, ctx);
      const question = questionOf(req);
      if (question === undefined) return next(req, ctx);
      const context = `chat:${contextOf(req)}`;
      const hit = await lookup<ChatEntry>(vector, ctx, question, context);
      if (hit) return hit.response;
      const response = await next(req, ctx);
      const entry: ChatEntry = { context, response };
      await vector.upsert(ctx.scope, `${context}\u0000${question}`, question, entry);
      return response;
    },
    stream: streamOf(stage),
  }, stage);
}
