/**
 * The model double: `FakeLLM` answers from a script of `Turn`s (text, tool
 * calls, usage, streamed chunks, faults, delays on the clock), from a
 * responder function, or on its own from the tools' schemas
 * (`FakeLLM.auto`), and records every request it was sent.
 *
 * @example A scripted fault, then the answer
 * ```ts
 * import { Agent, retry } from "@agentkit/testing/runtime";
 * import { ProviderTimeoutError } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * using llm = FakeLLM.script([{ error: new ProviderTimeoutError() }, "ok"]);
 * const ctx = makeTestCtx({ llm, chatMiddleware: [retry()] });
 * assertEquals((await new Agent("a", { model: "fake-model" }).run("go", ctx)).output, "ok");
 * assertEquals(llm.calls, 2);
 * ```
 *
 * @module
 */
export * from "./turn.ts";
export * from "./fake_llm.ts";
export * from "./schema_limit_exceeded.ts";
export * from "./misbehave.ts";
