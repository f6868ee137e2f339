// What a FakeMcpServer tool may ask the client during a call: a model
// completion (`sampling/createMessage`, client/sampling) and the user's
// input (`elicitation/create`, client/elicitation), both of the MCP
// specification 2025-11-25. The requests are checked before they are sent
// (a malformed one is the test's mistake: InvalidScript), and the client's
// answers after (a malformed answer is the client's: McpClientRequestFailed).
// The shapes are the schema's (CreateMessageRequestParams, ElicitRequest-
// FormParams with its PrimitiveSchemaDefinition: string, number, boolean and
// the five enum forms of SEP-1330, each with the `default` of SEP-1034;
// ElicitRequestURLParams); the capability errors keep the wording of the
// SDK's Server.assertCapabilityForMethod (1.32.2, src/server/index.ts).
import type { z } from "zod";
import { validate } from "@cfworker/json-schema";
import { zod } from "../../runtime/internal.ts";
import { InvalidScript } from "../errors.ts";
import { issuesText } from "./_mcp_protocol.ts";

/**
 * A tool asked the client for something it did not declare: sampling, or
 * elicitation (of that mode), in its `initialize` capabilities. `code` is
 * the JSON-RPC error MCP gives an unsupported method (-32601).
 *
 * @example
 * ```ts
 * import { McpClientCapabilityMissing } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new McpClientCapabilityMissing("sampling", "sampling/createMessage");
 * assertEquals([e.name, e.code], ["McpClientCapabilityMissing", -32601]);
 * ```
 */
export class McpClientCapabilityMissing extends Error {
  /** The JSON-RPC code: -32601, Method not found. */
  readonly code: number = -32601;
  /** The method the tool asked for. */
  readonly method: string;

  /**
   * The message names what the client lacks and how it declares it.
   *
   * @param capability What the client lacks (`"sampling"`, `"elicitation"`).
   * @param method The request's method.
   */
  constructor(capability: string, method: string) {
    super(
      `Client does not support ${capability} (required for ${method}); the client declares it in initialize (new Client(info, { capabilities: { ${
        capability.startsWith("URL") ? "elicitation: { url: {} }" : `${capability}: {}`
      } } }))`,
    );
    this.name = "McpClientCapabilityMissing";
    this.method = method;
  }
}

/**
 * The client answered a server-to-client request with a JSON-RPC error, or
 * with a result of the wrong shape.
 *
 * @example
 * ```ts
 * import { McpClientRequestFailed } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new McpClientRequestFailed("elicitation/create", -32601, "Method not found");
 * assertEquals(e.code, -32601);
 * ```
 */
export class McpClientRequestFailed extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The request's method. */
  readonly method: string;
  /** The error's data, if any. */
  readonly data: unknown;

  /**
   * The message names the request, the code and the client's message.
   *
   * @param method The request's method.
   * @param code The JSON-RPC error code.
   * @param message The client's message.
   * @param data The error's data.
   */
  constructor(method: string, code: number, message: string, data?: unknown) {
    super(`The client answered ${method} with error ${code}: ${message}`);
    this.name = "McpClientRequestFailed";
    this.code = code;
    this.method = method;
    this.data = data;
  }
}

interface Schemas {
  sample: z.ZodType;
  sampleResult: z.ZodType;
  elicitForm: z.ZodType;
  elicitUrl: z.ZodType;
  elicitResult: z.ZodType;
}

let built: Schemas | undefined;

function schemas(): Schemas {
  return built ??= build();
}

function build(): Schemas {
  const z = zod();
  const text = {
    title: z.string().optional(),
    description: z.string().optional(),
  };
  const option = z.strictObject({ const: z.string(), title: z.string() });
  const primitive = z.union([
    // StringSchema (with the formats the schema lists)
    z.strictObject({
      type: z.literal("string"),
      ...text,
      minLength: z.number().int().nonnegative().optional(),
      maxLength: z.number().int().nonnegative().optional(),
      format: z.enum(["email", "uri", "date", "date-time"]).optional(),
      default: z.string().optional(),
    }),
    // NumberSchema
    z.strictObject({
      type: z.enum(["number", "integer"]),
      ...text,
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      default: z.number().optional(),
    }),
    // BooleanSchema
    z.strictObject({ type: z.literal("boolean"), ...text, default: z.boolean().optional() }),
    // UntitledSingleSelectEnumSchema, and LegacyTitledEnumSchema (enumNames)
    z.strictObject({
      type: z.literal("string"),
      ...text,
      enum: z.array(z.string()).min(1),
      enumNames: z.array(z.string()).optional(),
      default: z.string().optional(),
    }),
    // TitledSingleSelectEnumSchema
    z.strictObject({
      type: z.literal("string"),
      ...text,
      oneOf: z.array(option).min(1),
      default: z.string().optional(),
    }),
    // UntitledMultiSelectEnumSchema and TitledMultiSelectEnumSchema
    z.strictObject({
      type: z.literal("array"),
      ...text,
      minItems: z.number().int().nonnegative().optional(),
      maxItems: z.number().int().nonnegative().optional(),
      items: z.union([
        z.strictObject({ type: z.literal("string"), enum: z.array(z.string()).min(1) }),
        z.strictObject({ anyOf: z.array(option).min(1) }),
      ]),
      default: z.array(z.string()).optional(),
    }),
  ]);
  const content = z.looseObject({ type: z.string() });
  const message = z.looseObject({
    role: z.enum(["user", "assistant"]),
    content: z.union([content, z.array(content)]),
  });
  return {
    sample: z.looseObject({
      messages: z.array(message),
      maxTokens: z.number().int(),
      systemPrompt: z.string().optional(),
      temperature: z.number().optional(),
      stopSequences: z.array(z.string()).optional(),
      includeContext: z.enum(["none", "thisServer", "allServers"]).optional(),
      modelPreferences: z.looseObject({}).optional(),
      metadata: z.looseObject({}).optional(),
    }),
    sampleResult: z.looseObject({
      role: z.enum(["user", "assistant"]),
      content: z.union([content, z.array(content)]),
      model: z.string(),
      stopReason: z.string().optional(),
    }),
    elicitForm: z.strictObject({
      mode: z.literal("form").optional(),
      message: z.string(),
      requestedSchema: z.strictObject({
        $schema: z.string().optional(),
        type: z.literal("object"),
        properties: z.record(z.string(), primitive),
        required: z.array(z.string()).optional(),
      }),
      _meta: z.looseObject({}).optional(),
    }),
    elicitUrl: z.strictObject({
      mode: z.literal("url"),
      message: z.string(),
      elicitationId: z.string(),
      url: z.url(),
      _meta: z.looseObject({}).optional(),
    }),
    elicitResult: z.looseObject({
      action: z.enum(["accept", "decline", "cancel"]),
      content: z.record(
        z.string(),
        z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
      ).optional(),
    }),
  };
}

/** Checks `call.sample()`'s params. */
export function checkSampleParams(params: unknown, where: string): void {
  const r = schemas().sample.safeParse(params);
  if (!r.success) {
    throw new InvalidScript(
      `${where}: the params are not CreateMessageRequestParams ({ messages: [{ role, content }], maxTokens, systemPrompt?, ... }): ${
        issuesText(r.error)
      }`,
    );
  }
}

/** The client's sampling result, checked. */
export function checkSampleResult(result: unknown, method: string): Record<string, unknown> {
  const r = schemas().sampleResult.safeParse(result);
  if (!r.success) {
    throw new McpClientRequestFailed(
      method,
      -32602,
      `the result is not a CreateMessageResult ({ role, content, model, stopReason? }): ${
        issuesText(r.error)
      }`,
    );
  }
  return r.data as Record<string, unknown>;
}

/** Checks `call.elicit()`'s params; returns the mode. */
export function checkElicitParams(params: unknown, where: string): "form" | "url" {
  const url = (params as { mode?: unknown } | null)?.mode === "url";
  const r = (url ? schemas().elicitUrl : schemas().elicitForm).safeParse(params);
  if (!r.success) {
    throw new InvalidScript(
      `${where}: the params are not ${
        url
          ? 'ElicitRequestURLParams ({ mode: "url", message, elicitationId, url })'
          : 'ElicitRequestFormParams ({ message, requestedSchema: { type: "object", properties } }, each property a string, number, integer, boolean or enum schema of the 2025-11-25 specification)'
      }: ${issuesText(r.error)}`,
    );
  }
  if (!url) {
    const schema = (params as { requestedSchema: { properties: object; required?: string[] } })
      .requestedSchema;
    for (const name of schema.required ?? []) {
      if (!(name in schema.properties)) {
        throw new InvalidScript(
          `${where}: requestedSchema.required names "${name}", which is not a property`,
        );
      }
    }
  }
  return url ? "url" : "form";
}

/** The client's elicitation result, checked; accepted form content against the requested schema. */
export function checkElicitResult(
  result: unknown,
  params: Readonly<Record<string, unknown>>,
  method: string,
): Record<string, unknown> {
  const r = schemas().elicitResult.safeParse(result);
  if (!r.success) {
    throw new McpClientRequestFailed(
      method,
      -32602,
      `the result is not an ElicitResult ({ action: "accept" | "decline" | "cancel", content? }): ${
        issuesText(r.error)
      }`,
    );
  }
  const answer = r.data as { action: string; content?: Record<string, unknown> };
  const schema = params.requestedSchema as Record<string, unknown> | undefined;
  if (answer.action === "accept" && schema !== undefined) {
    // As the SDK's Server.elicitInput: accepted content must fit the schema.
    const v = validate(answer.content ?? {}, schema as never, "2020-12", undefined, false);
    if (!v.valid) {
      throw new McpClientRequestFailed(
        method,
        -32602,
        `Elicitation response content does not match requested schema: ${
          v.errors.filter((e) => e.keyword !== "properties").map((e) => e.error).join("; ")
        }`,
      );
    }
  }
  return answer;
}
