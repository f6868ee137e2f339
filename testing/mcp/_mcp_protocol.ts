// The protocol versions and the params of the methods FakeMcpServer serves,
// as zod schemas built on first use (importing the package builds none).
// The versions are the official TypeScript SDK's (1.32.2, src/types.ts:
// LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS); the shapes are the
// MCP schema's (2025-11-25), loose where the schema lets fields grow.
import type { z } from "zod";
import { zod } from "../../runtime/internal.ts";

/** The version this server prefers, the SDK's LATEST_PROTOCOL_VERSION. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";

/** Every version it negotiates, newest first (the SDK's SUPPORTED_PROTOCOL_VERSIONS). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];

/** The params schemas, built once, when a server first reads a request. */
export interface ParamsSchemas {
  readonly initialize: z.ZodType<{ protocolVersion: string }>;
  readonly callTool: z.ZodType<{
    name: string;
    arguments?: Record<string, unknown>;
    _meta?: { progressToken?: string | number };
  }>;
  readonly list: z.ZodType<{ cursor?: string }>;
  readonly readResource: z.ZodType<{ uri: string }>;
  readonly getPrompt: z.ZodType<{ name: string; arguments?: Record<string, string> }>;
  readonly cancelled: z.ZodType<{ requestId?: string | number; reason?: string }>;
  readonly complete: z.ZodType<{
    ref: { type: "ref/prompt"; name?: string; uri?: string } | {
      type: "ref/resource";
      name?: string;
      uri?: string;
    };
    argument: { name: string; value: string };
  }>;
}

let built: ParamsSchemas | undefined;

/** The schemas (built on the first call). */
export function schemas(): ParamsSchemas {
  return built ??= build();
}

function build(): ParamsSchemas {
  const z = zod();
  const meta = z.looseObject({ progressToken: z.union([z.string(), z.number().int()]).optional() });
  return {
    initialize: z.looseObject({
      protocolVersion: z.string(),
      capabilities: z.looseObject({}),
      clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
    }),
    callTool: z.looseObject({
      name: z.string(),
      arguments: z.record(z.string(), z.unknown()).optional(),
      _meta: meta.optional(),
    }),
    list: z.looseObject({ cursor: z.string().optional() }),
    readResource: z.looseObject({ uri: z.string() }),
    getPrompt: z.looseObject({
      name: z.string(),
      arguments: z.record(z.string(), z.string()).optional(),
    }),
    // CompleteRequestParams: a PromptReference or a ResourceTemplateReference.
    complete: z.looseObject({
      ref: z.union([
        z.looseObject({ type: z.literal("ref/prompt"), name: z.string() }),
        z.looseObject({ type: z.literal("ref/resource"), uri: z.string() }),
      ]),
      argument: z.looseObject({ name: z.string(), value: z.string() }),
      context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() })
        .optional(),
    }),
    cancelled: z.looseObject({
      requestId: z.union([z.string(), z.number().int()]).optional(),
      reason: z.string().optional(),
    }),
  };
}

/** The issues of a failed parse, as one line for an error message. */
export function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => i.path.length ? `${i.message} at ${i.path.join(".")}` : i.message)
    .join("; ");
}
