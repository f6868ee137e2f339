/**
 * Tools on the runtime's side: `prepareTool` reads a tool's parameter schema
 * (zod or JSON schema) once, giving the spec a model is offered and the
 * parser its arguments go through before the tool runs.
 *
 * @example Arguments checked before the tool sees them
 * ```ts
 * import { prepareTool } from "@agentkit/testing/runtime";
 * import { FakeTool } from "@agentkit/testing/testing";
 * import { z } from "zod";
 * import { assertEquals, assertThrows } from "@std/assert";
 *
 * const prepared = prepareTool(
 *   new FakeTool({ name: "lookup", parameters: z.object({ host: z.string() }), responder: "ok" }),
 * );
 * assertEquals(prepared.parse({ host: "a" }), { host: "a" });
 * assertThrows(() => prepared.parse({ host: 1 }));
 * ```
 *
 * @module
 */
export * from "./tool_schema.ts";
