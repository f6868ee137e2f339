/**
 * Doubles for the other ports: search, fetch, memory, embeddings, grounding,
 * compaction, the human asker, a whole `Ctx`, and `RecordingTracer` for
 * spans. Each is scripted up front and records what it saw.
 *
 * @example A scripted search, and the query it recorded
 * ```ts
 * import { FakeSearch } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const search = new FakeSearch({ "rotate cert": [{ title: "Runbook", url: "https://x/rb", snippet: "..." }] });
 * const hits = await search.search("rotate cert");
 * assertEquals(hits[0].title, "Runbook");
 * assertEquals(search.calls.map((c) => c.query), ["rotate cert"]);
 * ```
 *
 * @module
 */
export * from "./fake_search.ts";
export * from "./fake_fetch.ts";
export * from "./fake_memory.ts";
export * from "./fake_grounder.ts";
export * from "./fake_compactor.ts";
export * from "./fake_ctx.ts";
export * from "./fake_asker.ts";
export * from "./fake_embedder.ts";
export * from "./recording_tracer.ts";
