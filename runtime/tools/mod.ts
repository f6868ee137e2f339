/**
 * Tools on the runtime's side: `prepareTool` reads a tool's parameter schema
 * (zod or JSON schema) once, giving the spec a model is offered and the
 * parser its arguments go through before the tool runs. Tool providers:
 * `McpToolProvider` (an MCP server's tools, over the SDK `Client` or
 * anything shaped like it), `ToolRegistry` (several providers as one) and
 * `ToolPolicy` (allow, deny, and approve through `ctx.asker`).
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
 * @example Two MCP servers under one policy
 * ```ts
 * import { McpToolProvider, ToolPolicy, ToolRegistry } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const server = (...names: string[]) => ({
 *   listTools: () => Promise.resolve({ tools: names.map((name) => ({ name, inputSchema: { type: "object" as const } })) }),
 *   callTool: () => Promise.resolve({ content: [] }),
 * });
 * const provider = new ToolPolicy(
 *   new ToolRegistry([
 *     new McpToolProvider(server("search", "fetch"), { prefix: "web_" }),
 *     new McpToolProvider(server("search", "delete"), { prefix: "files_" }),
 *   ]),
 *   { deny: "files_delete" },
 * );
 * assertEquals((await provider.listTools()).map((t) => t.name), ["web_search", "web_fetch", "files_search"]);
 * ```
 *
 * @module
 */
export * from "./tool_schema.ts";
export * from "./mcp_tool_provider.ts";
export * from "./tool_registry.ts";
export * from "./tool_policy.ts";
export * from "./mcp_client_handlers.ts";
