/**
 * The embedder double.
 *
 * @module
 */
import type { EmbedderPort } from "../../ports/vector_store.ts";
import { checkOptions, is } from "../../runtime/internal.ts";
import { argProblem } from "./_arg.ts";

// Real embedders stay in the low thousands (3072 for OpenAI's largest); a
// typo'd 1e9 would allocate gigabytes per call.
const MAX_DIMENSIONS = 65_536;
const TEXTS = is.arrayOf(is.string, 0, "an array of strings");

/**
 * Options for {@linkcode FakeEmbedder}.
 *
 * @example
 * ```ts
 * import { FakeEmbedder, type FakeEmbedderOptions } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const options: FakeEmbedderOptions = { dimensions: 64 };
 * const [vector] = await new FakeEmbedder(options).embed(["hello"]);
 * assertEquals(vector.length, 64);
 * ```
 */
export interface FakeEmbedderOptions {
  /**
   * The length of every vector. More dimensions, fewer hash collisions
   * between unrelated words.
   * @default {512}
   */
  readonly dimensions?: number;
}

/**
 * A deterministic embedder: a hashed bag of words. Each text is lower-cased
 * and split into words (runs of letters and digits); each word adds ±1 to
 * the dimension its hash picks; the vector is scaled to unit length. The same
 * text always gets the same vector on every machine, texts that share most of
 * their words are close (cosine similarity = the overlap of their word
 * counts), and texts with no word in common score 0 unless two words collide
 * in a bucket. It knows nothing of synonyms: "car" and "automobile" are
 * strangers. `.calls` records the texts of each `embed` call.
 *
 * @example Near-duplicates are close, unrelated texts are not
 * ```ts
 * import { FakeEmbedder } from "@agentkit/testing/testing";
 * import { assert, assertEquals } from "@std/assert";
 *
 * const embedder = new FakeEmbedder();
 * assertEquals(await embedder.similarity("What is the capital of France?", "what is the capital of france"), 1);
 * assert(await embedder.similarity("What is the capital of France?", "Please, what is the capital of France") > 0.9);
 * assertEquals(await embedder.similarity("capital of France", "lunch menu today"), 0);
 * assertEquals(embedder.calls.length, 3);
 * ```
 */
export class FakeEmbedder implements EmbedderPort {
  /** The length of every vector. */
  readonly dimensions: number;
  /** The texts of each `embed` call, in order. */
  readonly calls: string[][] = [];

  /**
   * Vectors have 512 dimensions unless `dimensions` says otherwise.
   *
   * @param options The vector length.
   * @throws {RangeError} When `dimensions` is not an integer from 1 to 65536.
   */
  constructor(options: FakeEmbedderOptions = {}) {
    checkOptions("new FakeEmbedder()", options, {
      dimensions: is.number({ min: 1, max: MAX_DIMENSIONS, integer: true }),
    });
    const d = options.dimensions ?? 512;
    this.dimensions = d;
  }

  /**
   * One unit vector per text (the zero vector for a text with no words).
   * @param texts The texts: an array of strings.
   * @returns Their vectors, in order.
   * @throws {TypeError} (as a rejection) When `texts` is not an array of strings.
   */
  embed(texts: readonly string[]): Promise<number[][]> {
    const problem = argProblem("FakeEmbedder.embed()", "the texts", texts, TEXTS);
    if (problem) return Promise.reject(problem);
    this.calls.push([...texts]);
    return Promise.resolve(texts.map((t) => this.#vector(t)));
  }

  /**
   * The cosine similarity of two texts' embeddings, to pick a threshold.
   * @param a One text: a string.
   * @param b The other: a string.
   * @returns A number in [-1, 1]; 1 for texts with the same words.
   */
  async similarity(a: string, b: string): Promise<number> {
    const [x, y] = await this.embed([a, b]);
    let dot = 0;
    for (let i = 0; i < x.length; i++) dot += x[i] * y[i];
    return Math.round(dot * 1e12) / 1e12; // 0.9999999999999998 is 1 to a reader
  }

  #vector(text: string): number[] {
    const v = new Array<number>(this.dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const h = fnv1a(word);
      v[h % this.dimensions] += (h & 0x80000000) === 0 ? 1 : -1;
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    if (norm === 0) return v;
    norm = Math.sqrt(norm);
    return v.map((x) => x / norm);
  }
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
