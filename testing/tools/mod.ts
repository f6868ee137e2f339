/**
 * Tool doubles: `FakeTool` (one tool with a fixed or computed answer, a
 * schema, failures and latency) and `ScriptedProvider` (a whole tool provider
 * answering batches of calls from a script, grants included). Both record
 * every call.
 *
 * @example A tool that fails once
 * ```ts
 * import { FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const tool = new FakeTool({ name: "lookup", responder: "42", failTimes: 1 });
 * const ctx = makeTestCtx();
 * await assertRejects(() => tool.call({}, ctx));
 * assertEquals(await tool.call({}, ctx), "42");
 * assertEquals(tool.calls.length, 2);
 * ```
 *
 * @module
 */
export * from "./fake_tool.ts";
export * from "./scripted_provider.ts";
