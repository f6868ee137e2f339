/**
 * Cassettes: record a real model's answers once (through any model port) and
 * replay them offline forever, as a `FakeLLM` script with the requests
 * checked. The file is JSON lines of `{ request, turn }`, editable by hand.
 *
 * @example Replay a cassette under an agent
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { cassette, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, JSON.stringify({
 *   request: { model: "fake-model", messages: [{ role: "user", content: "ping" }] },
 *   turn: { content: "pong" },
 * }) + "\n");
 * await using llm = cassette(path, { mode: "replay" });
 * const result = await new Agent("a", { model: "fake-model" }).run("ping", makeTestCtx({ llm }));
 * assertEquals(result.output, "pong");
 * await Deno.remove(path);
 * ```
 *
 * @module
 */
export * from "./cassette.ts";
export * from "./cassette_mismatch.ts";
export * from "./cassette_key.ts";
export { CassetteCanaryLeak } from "./_canary.ts";
export * from "./to_har.ts";
export * from "./verify_cassette.ts";
