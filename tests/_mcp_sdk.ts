// The official MCP SDK (test-only, pinned in deno.json), typed. Its package
// maps "./*" to "./dist/esm/*" with types at "./dist/esm/*.d.ts", so a
// ".js" subpath (what runs) finds no types, and a bare one (what has types)
// does not run: each module is imported both ways, the runtime value under
// the types of the bare path.
import * as clientRt from "@modelcontextprotocol/sdk/client/index.js";
import type * as clientTy from "@modelcontextprotocol/sdk/client";
import * as httpRt from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type * as httpTy from "@modelcontextprotocol/sdk/client/streamableHttp";
import * as typesRt from "@modelcontextprotocol/sdk/types.js";
import type * as typesTy from "@modelcontextprotocol/sdk/types";
import * as mcpRt from "@modelcontextprotocol/sdk/server/mcp.js";
import type * as mcpTy from "@modelcontextprotocol/sdk/server/mcp";
import * as memoryRt from "@modelcontextprotocol/sdk/inMemory.js";
import type * as memoryTy from "@modelcontextprotocol/sdk/inMemory";

const client = clientRt as typeof clientTy;
const http = httpRt as typeof httpTy;
const types = typesRt as typeof typesTy;
const mcp = mcpRt as typeof mcpTy;
const memory = memoryRt as typeof memoryTy;

export const Client: typeof clientTy.Client = client.Client;
export type Client = clientTy.Client;
export const StreamableHTTPClientTransport: typeof httpTy.StreamableHTTPClientTransport =
  http.StreamableHTTPClientTransport;
export type StreamableHTTPClientTransport = httpTy.StreamableHTTPClientTransport;
export const McpError: typeof typesTy.McpError = types.McpError;
export type McpError = typesTy.McpError;
export const ErrorCode: typeof typesTy.ErrorCode = types.ErrorCode;
export const LATEST_PROTOCOL_VERSION: string = types.LATEST_PROTOCOL_VERSION;
export const SUPPORTED_PROTOCOL_VERSIONS: string[] = types.SUPPORTED_PROTOCOL_VERSIONS;
export const ToolListChangedNotificationSchema: typeof typesTy.ToolListChangedNotificationSchema =
  types.ToolListChangedNotificationSchema;
export const McpServer: typeof mcpTy.McpServer = mcp.McpServer;
export type McpServer = mcpTy.McpServer;
export const InMemoryTransport: typeof memoryTy.InMemoryTransport = memory.InMemoryTransport;
export type InMemoryTransport = memoryTy.InMemoryTransport;
