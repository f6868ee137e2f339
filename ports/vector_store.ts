/**
 * The vector seam and the embedder that feeds it.
 *
 * @module
 */
import type { Scope } from "./scope.ts";

/**
 * Turns texts into embedding vectors.
 *
 * @example
 * ```ts
 * import type { EmbedderPort } from "@agentkit/testing/ports";
 * const e: EmbedderPort = { embed: (texts) => Promise.resolve(texts.map((t) => [t.length, 1])) };
 * ```
 */
export interface EmbedderPort {
  /** One vector per text, in order. */
  embed(texts: readonly string[]): Promise<number[][]>;
}

/**
 * One similarity match.
 *
 * @example
 * ```ts
 * import type { VectorHit } from "@agentkit/testing/ports";
 * const hit: VectorHit = { id: "a", score: 0.98, text: "rotate every 90d" };
 * ```
 */
export interface VectorHit {
  /** The stored item's id. */
  readonly id: string;
  /** Similarity in [-1, 1]; higher is closer. */
  readonly score: number;
  /** The stored text. */
  readonly text: string;
  /** Whatever was stored with it. */
  readonly payload?: unknown;
}

/**
 * A similarity index partitioned by {@linkcode Scope}.
 *
 * @example
 * ```ts
 * import type { VectorStore } from "@agentkit/testing/ports";
 * const none: VectorStore = {
 *   upsert: () => Promise.resolve(),
 *   query: () => Promise.resolve([]),
 *   delete: () => Promise.resolve(false),
 * };
 * ```
 */
export interface VectorStore {
  /** Stores (or replaces) a text under an id. */
  upsert(scope: Scope, id: string, text: string, payload?: unknown): Promise<void>;
  /** The `k` nearest stored texts to `text`, best first. */
  query(scope: Scope, text: string, options?: { readonly k?: number }): Promise<VectorHit[]>;
  /** Removes an id; resolves whether it existed. */
  delete(scope: Scope, id: string): Promise<boolean>;
}
