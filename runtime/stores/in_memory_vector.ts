/**
 * The in-process vector store.
 *
 * @module
 */
import type { Scope } from "../../ports/scope.ts";
import type { EmbedderPort, VectorHit, VectorStore } from "../../ports/vector_store.ts";
import { checkOptions, is } from "../_options.ts";

/**
 * Options for {@linkcode InMemoryVector}.
 *
 * @example
 * ```ts
 * import type { InMemoryVectorOptions } from "@agentkit/testing/runtime";
 * import { FakeEmbedder } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const options: InMemoryVectorOptions = { embedder: new FakeEmbedder(), defaultK: 2 };
 * assertEquals(options.defaultK, 2);
 * ```
 */
export interface InMemoryVectorOptions {
  /** Turns texts into vectors, for stored texts and queries alike. */
  readonly embedder: EmbedderPort;
  /**
   * How many hits `query` returns when the caller does not say.
   * @default {4}
   */
  readonly defaultK?: number;
}

interface Entry {
  readonly text: string;
  readonly vector: readonly number[];
  readonly norm: number;
  readonly payload: unknown;
}

/**
 * A `VectorStore` in memory: each text is embedded once, on `upsert`, and a
 * query ranks the stored texts of the caller's tenant by cosine similarity
 * with the query's embedding (ties keep insertion order). Tenants are
 * separate indexes, so a query never sees another tenant's texts. Payloads
 * are copied in and out. Production code for single-process deployments, not
 * a double; pair it with a real embedder, or with `FakeEmbedder` in tests.
 *
 * @example Nearest text first, and tenants apart
 * ```ts
 * import { InMemoryVector } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { FakeEmbedder } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const vector = new InMemoryVector({ embedder: new FakeEmbedder() });
 * const org7 = new Scope({ orgId: 7 });
 * await vector.upsert(org7, "certs", "rotate TLS certificates every 90 days");
 * await vector.upsert(org7, "lunch", "the cafeteria opens at noon");
 * const [best] = await vector.query(org7, "how often do we rotate certificates?");
 * assertEquals(best.id, "certs");
 * assertEquals(await vector.query(new Scope({ orgId: 8 }), "rotate certificates"), []);
 * ```
 */
export class InMemoryVector implements VectorStore {
  readonly #embedder: EmbedderPort;
  readonly #defaultK: number;
  readonly #tenants = new Map<string, Map<string, Entry>>();
  #dimensions?: number;

  /**
   * An embedder is required; `defaultK` defaults to 4.
   *
   * @param options The embedder and the default `k`.
   * @throws {TypeError} Without an embedder.
   * @throws {RangeError} When `defaultK` is not a positive integer.
   */
  constructor(options: InMemoryVectorOptions) {
    if (
      options === undefined || options === null ||
      (typeof options === "object" && !Array.isArray(options) && options.embedder === undefined)
    ) {
      throw new TypeError(
        "Cannot build an InMemoryVector without an embedder: pass new InMemoryVector({ embedder }) (FakeEmbedder in tests)",
      );
    }
    checkOptions("new InMemoryVector()", options, {
      embedder: is.port("an EmbedderPort", ["embed"]),
      defaultK: is.number({ min: 1, integer: true }),
    });
    const k = options.defaultK ?? 4;
    this.#embedder = options.embedder;
    this.#defaultK = k;
  }

  /** How many texts are stored, across every tenant. */
  get size(): number {
    let n = 0;
    for (const t of this.#tenants.values()) n += t.size;
    return n;
  }

  /**
   * Embeds `text` and stores it under `id` in the tenant's index, replacing
   * what was there.
   * @param scope The tenant.
   * @param id The item's id.
   * @param text The text to embed.
   * @param payload Anything to return with a hit (copied).
   */
  async upsert(scope: Scope, id: string, text: string, payload?: unknown): Promise<void> {
    const vector = await this.#embed(text);
    let tenant = this.#tenants.get(scope.key());
    if (!tenant) this.#tenants.set(scope.key(), tenant = new Map());
    tenant.set(id, {
      text,
      vector,
      norm: norm(vector),
      payload: payload === undefined ? undefined : structuredClone(payload),
    });
  }

  /**
   * The `k` stored texts of the tenant nearest to `text`, best first.
   * @param scope The tenant.
   * @param text The query text.
   * @param options `k`, the number of hits.
   * @returns The hits with their cosine similarity as `score`.
   */
  async query(
    scope: Scope,
    text: string,
    options: { readonly k?: number } = {},
  ): Promise<VectorHit[]> {
    const k = options.k ?? this.#defaultK;
    if (!Number.isInteger(k) || k < 0) {
      throw new RangeError(
        `Cannot query an InMemoryVector: k must be a non-negative integer, got ${k}`,
      );
    }
    const tenant = this.#tenants.get(scope.key());
    if (!tenant || tenant.size === 0 || k === 0) return [];
    const q = await this.#embed(text);
    const qNorm = norm(q);
    const scored: { id: string; entry: Entry; score: number }[] = [];
    for (const [id, entry] of tenant) {
      scored.push({ id, entry, score: cosine(q, qNorm, entry.vector, entry.norm) });
    }
    scored.sort((a, b) => b.score - a.score); // stable: ties keep insertion order
    return scored.slice(0, k).map(({ id, entry, score }) => {
      const hit: { id: string; score: number; text: string; payload?: unknown } = {
        id,
        score,
        text: entry.text,
      };
      if (entry.payload !== undefined) hit.payload = structuredClone(entry.payload);
      return hit;
    });
  }

  /**
   * Removes an id from the tenant's index.
   * @param scope The tenant.
   * @param id The item's id.
   * @returns Whether it existed.
   */
  delete(scope: Scope, id: string): Promise<boolean> {
    return Promise.resolve(this.#tenants.get(scope.key())?.delete(id) ?? false);
  }

  async #embed(text: string): Promise<number[]> {
    const [vector] = await this.#embedder.embed([text]);
    if (!Array.isArray(vector) || vector.length === 0) {
      throw new TypeError(
        `The embedder returned no vector for ${
          JSON.stringify(text.slice(0, 40))
        }; an EmbedderPort must return one non-empty vector per text`,
      );
    }
    if (this.#dimensions === undefined) this.#dimensions = vector.length;
    else if (vector.length !== this.#dimensions) {
      throw new TypeError(
        `The embedder returned a vector of ${vector.length} dimensions after earlier ones of ${this.#dimensions}; one InMemoryVector needs one embedder with a fixed dimension`,
      );
    }
    return vector;
  }
}

function norm(v: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  return Math.sqrt(sum);
}

function cosine(a: readonly number[], aNorm: number, b: readonly number[], bNorm: number): number {
  if (aNorm === 0 || bNorm === 0) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot / (aNorm * bNorm);
}
