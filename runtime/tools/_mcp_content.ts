// An MCP `tools/call` result as the one string a model reads. The shapes are
// the MCP specification's (2025-11-25, "Tools" > "Tool Result"): `content`
// is a list of text, image, audio, resource_link and resource blocks;
// `structuredContent` is a JSON object which, the specification says, a tool
// SHOULD also serialise into a text block; `isError` marks a tool-level
// failure. Servers on the 2024-10-07 protocol answer `{ toolResult }`.
import type { ToolResult } from "../../ports/tool.ts";
import { preview } from "../_preview.ts";

/** One content block of a tool result (MCP `ContentBlock`), as far as it is read here. */
export interface McpContentBlock {
  /** `"text"`, `"image"`, `"audio"`, `"resource_link"` or `"resource"`. */
  readonly type: string;
  /** A text block's text. */
  readonly text?: string;
  /** An image or audio block's base64 data. */
  readonly data?: string;
  /** An image, audio or linked resource's MIME type. */
  readonly mimeType?: string;
  /** A resource link's URI. */
  readonly uri?: string;
  /** A resource link's name. */
  readonly name?: string;
  /** An embedded resource: its URI and its text or base64 blob. */
  readonly resource?: {
    readonly uri?: string;
    readonly mimeType?: string;
    readonly text?: string;
    readonly blob?: string;
  };
}

/** An MCP `CallToolResult`, or the 2024-10-07 `{ toolResult }` one. */
export interface McpCallToolResult {
  /** The result's blocks. */
  readonly content?: readonly McpContentBlock[];
  /** The result as a JSON object (a tool with an `outputSchema`). */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** True for a tool-level failure, which `content` describes. */
  readonly isError?: boolean;
  /** The 2024-10-07 protocol's result. */
  readonly toolResult?: unknown;
}

/**
 * The tool result the model is given for `result`: structured content, when
 * the result has it and is not an error, is its JSON text (the text blocks
 * mirroring it are not repeated); otherwise the blocks, one per line. A
 * result of no recognised shape is an error result that says so.
 */
export function mcpToolResult(callId: string, tool: string, result: unknown): ToolResult {
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    return malformed(callId, tool, result);
  }
  const r = result as McpCallToolResult;
  const isError = r.isError === true;
  if (r.isError !== undefined && typeof r.isError !== "boolean") {
    return malformed(callId, tool, result);
  }
  const structured = r.structuredContent;
  if (!isError && structured !== null && typeof structured === "object") {
    return { callId, isError, content: JSON.stringify(structured) };
  }
  if (r.content === undefined && "toolResult" in r) {
    const legacy = r.toolResult;
    return { callId, isError, content: typeof legacy === "string" ? legacy : json(legacy) };
  }
  if (r.content !== undefined && !Array.isArray(r.content)) return malformed(callId, tool, result);
  const text = (r.content ?? []).map(blockText).join("\n");
  if (isError && text === "") {
    return { callId, isError, content: `Tool "${tool}" failed and gave no message` };
  }
  return { callId, isError, content: text };
}

/** One block as text: a text block as is, media and resources by what they are. */
export function blockText(block: unknown): string {
  if (block === null || typeof block !== "object") return json(block);
  const b = block as McpContentBlock;
  switch (b.type) {
    case "text":
      if (typeof b.text === "string") return b.text;
      break;
    case "image":
    case "audio":
      if (typeof b.data === "string") {
        return `[${b.type}: ${b.mimeType ?? "unknown type"}, ${base64Bytes(b.data)} bytes]`;
      }
      break;
    case "resource_link":
      if (typeof b.uri === "string") {
        return `[resource link: ${b.name ?? b.uri} <${b.uri}>]`;
      }
      break;
    case "resource": {
      const res = b.resource;
      if (res && typeof res.uri === "string") {
        if (typeof res.text === "string") return `[resource: ${res.uri}]\n${res.text}`;
        if (typeof res.blob === "string") {
          return `[resource: ${res.uri}, ${res.mimeType ?? "unknown type"}, ${
            base64Bytes(res.blob)
          } bytes]`;
        }
      }
      break;
    }
  }
  // A block of another kind (a later protocol's) or a malformed one: its
  // JSON, so nothing the server said is dropped.
  return json(block);
}

// The decoded size of base64 text: 3 bytes per 4 characters, less the padding.
function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor(data.length * 3 / 4) - padding);
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function malformed(callId: string, tool: string, result: unknown): ToolResult {
  return {
    callId,
    isError: true,
    content: `The MCP server answered the call of tool "${tool}" with ${
      preview(result)
    }, which is not a tool result ({ content: [...], isError?, structuredContent? })`,
  };
}
