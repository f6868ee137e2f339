// The FakeMcpServer the official MCP conformance suite runs against: every
// tool, resource, resource template and prompt its server scenarios ask
// for, declared through the public API only. Names, texts and data are the
// suite's reference server's (@modelcontextprotocol/conformance 0.1.16,
// examples/servers/typescript/everything-server.ts), which the scenarios
// check (src/scenarios/server/*.ts).
import { FakeMcpServer } from "../testing/mod.ts";

/** A 1x1 red PNG, the reference server's TEST_IMAGE_BASE64. */
export const TEST_IMAGE_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A minimal WAV file, the reference server's TEST_AUDIO_BASE64. */
export const TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

// SEP-1613: a raw JSON Schema 2020-12 input schema, kept as given.
const JSON_SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
  additionalProperties: false,
};

const message = (m: string) => ({
  type: "object",
  properties: { [m]: { type: "string" } },
  required: [m],
});

/** The server, with `logging`, `completions`, a subscribable resource and a template. */
export function conformanceServer(): FakeMcpServer {
  return new FakeMcpServer({
    name: "mcp-conformance-test-server",
    logging: true,
    completions: {
      test_prompt_with_arguments: { arg1: ["paris", "park", "party"], arg2: ["value"] },
      "test://template/{id}/data": { id: (v) => ["1", "2", "123"].filter((x) => x.startsWith(v)) },
    },
    tools: [
      {
        name: "test_simple_text",
        description: "Tests simple text content response",
        result: "This is a simple text response for testing.",
      },
      {
        name: "test_image_content",
        description: "Tests image content response",
        result: { content: [{ type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" }] },
      },
      {
        name: "test_audio_content",
        description: "Tests audio content response",
        result: { content: [{ type: "audio", data: TEST_AUDIO_BASE64, mimeType: "audio/wav" }] },
      },
      {
        name: "test_embedded_resource",
        description: "Tests embedded resource content response",
        result: {
          content: [{
            type: "resource",
            resource: {
              uri: "test://embedded-resource",
              mimeType: "text/plain",
              text: "This is an embedded resource content.",
            },
          }],
        },
      },
      {
        name: "test_multiple_content_types",
        description: "Tests response with multiple content types (text, image, resource)",
        result: {
          content: [
            { type: "text", text: "Multiple content types test:" },
            { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" },
            {
              type: "resource",
              resource: {
                uri: "test://mixed-content-resource",
                mimeType: "application/json",
                text: JSON.stringify({ test: "data", value: 123 }),
              },
            },
          ],
        },
      },
      {
        name: "test_tool_with_logging",
        description: "Tests tool that emits log messages during execution",
        result: (_args, call) => {
          call.log("info", "Tool execution started");
          call.log("info", "Tool processing data");
          call.log("info", "Tool execution completed");
          return "Tool with logging executed successfully";
        },
      },
      {
        name: "test_tool_with_progress",
        description: "Tests tool that reports progress notifications",
        result: {
          progress: [0, 50, 100].map((p) => ({
            progress: p,
            total: 100,
            message: `Completed step ${p} of 100`,
          })),
          progressIntervalMs: 0,
          result: "done",
        },
      },
      {
        name: "test_error_handling",
        description: "Tests error response handling",
        result: { isError: true, text: "This tool intentionally returns an error for testing" },
      },
      {
        name: "test_reconnection",
        description: "Tests SSE stream disconnection and client reconnection (SEP-1699)",
        result:
          "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.",
      },
      {
        name: "test_sampling",
        description: "Tests server-initiated sampling (LLM completion request)",
        inputSchema: message("prompt"),
        result: async (args, call) => {
          const r = await call.sample({
            messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }],
            maxTokens: 100,
          });
          return `LLM response: ${(r.content as { text?: string }).text ?? "No response"}`;
        },
      },
      {
        name: "test_elicitation",
        description: "Tests server-initiated elicitation (user input request)",
        inputSchema: message("message"),
        result: async (args, call) => {
          const r = await call.elicit({
            message: String(args.message),
            requestedSchema: {
              type: "object",
              properties: { response: { type: "string", description: "User's response" } },
              required: ["response"],
            },
          });
          return `User response: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;
        },
      },
      {
        name: "test_elicitation_sep1034_defaults",
        description: "Tests elicitation with default values per SEP-1034",
        result: async (_args, call) => {
          const r = await call.elicit({
            message: "Please review and update the form fields with defaults",
            requestedSchema: {
              type: "object",
              properties: {
                name: { type: "string", description: "User name", default: "John Doe" },
                age: { type: "integer", description: "User age", default: 30 },
                score: { type: "number", description: "User score", default: 95.5 },
                status: {
                  type: "string",
                  description: "User status",
                  enum: ["active", "inactive", "pending"],
                  default: "active",
                },
                verified: { type: "boolean", description: "Verification status", default: true },
              },
              required: [],
            },
          });
          return `Elicitation completed: action=${r.action}, content=${
            JSON.stringify(r.content ?? {})
          }`;
        },
      },
      {
        name: "test_elicitation_sep1330_enums",
        description: "Tests elicitation with enum schema improvements per SEP-1330",
        result: async (_args, call) => {
          const titled = (n: string) =>
            [1, 2, 3].map((i) => ({
              const: `value${i}`,
              title: `${["First", "Second", "Third"][i - 1]} ${n}`,
            }));
          const r = await call.elicit({
            message: "Please select options from the enum fields",
            requestedSchema: {
              type: "object",
              properties: {
                untitledSingle: {
                  type: "string",
                  description: "Select one option",
                  enum: ["option1", "option2", "option3"],
                },
                titledSingle: {
                  type: "string",
                  description: "Select one option with titles",
                  oneOf: titled("Option"),
                },
                legacyEnum: {
                  type: "string",
                  description: "Select one option (legacy)",
                  enum: ["opt1", "opt2", "opt3"],
                  enumNames: ["Option One", "Option Two", "Option Three"],
                },
                untitledMulti: {
                  type: "array",
                  description: "Select multiple options",
                  minItems: 1,
                  maxItems: 3,
                  items: { type: "string", enum: ["option1", "option2", "option3"] },
                },
                titledMulti: {
                  type: "array",
                  description: "Select multiple options with titles",
                  minItems: 1,
                  maxItems: 3,
                  items: { anyOf: titled("Choice") },
                },
              },
              required: [],
            },
          });
          return `Elicitation completed: action=${r.action}, content=${
            JSON.stringify(r.content ?? {})
          }`;
        },
      },
      {
        name: "json_schema_2020_12_tool",
        description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
        inputSchema: JSON_SCHEMA_2020_12,
        result: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
      },
    ],
    resources: [
      {
        uri: "test://static-text",
        name: "static-text",
        description: "A static text resource for testing",
        mimeType: "text/plain",
        text: "This is the content of the static text resource.",
      },
      {
        uri: "test://static-binary",
        name: "static-binary",
        description: "A static binary resource (image) for testing",
        mimeType: "image/png",
        blob: TEST_IMAGE_BASE64,
      },
      {
        uri: "test://watched-resource",
        name: "watched-resource",
        description: "A resource that auto-updates every 3 seconds",
        mimeType: "text/plain",
        text: "Watched resource content",
        subscribe: true,
      },
      {
        uriTemplate: "test://template/{id}/data",
        name: "template",
        description: "A resource template with parameter substitution",
        mimeType: "application/json",
        read: (_uri, { id }) =>
          JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      },
    ],
    prompts: [
      {
        name: "test_simple_prompt",
        description: "A simple prompt without arguments",
        messages: ["This is a simple prompt for testing."],
      },
      {
        name: "test_prompt_with_arguments",
        description: "A prompt with required arguments",
        arguments: [
          { name: "arg1", description: "First test argument", required: true },
          { name: "arg2", description: "Second test argument", required: true },
        ],
        messages: (a) => [`Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'`],
      },
      {
        name: "test_prompt_with_embedded_resource",
        description: "A prompt that includes an embedded resource",
        arguments: [{
          name: "resourceUri",
          description: "URI of the resource to embed",
          required: true,
        }],
        messages: (a) => [
          {
            role: "user",
            content: {
              type: "resource",
              resource: {
                uri: a.resourceUri,
                mimeType: "text/plain",
                text: "Embedded resource content for testing.",
              },
            },
          },
          "Please process the embedded resource above.",
        ],
      },
      {
        name: "test_prompt_with_image",
        description: "A prompt that includes image content",
        messages: [
          {
            role: "user",
            content: { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" },
          },
          "Please analyze the image above.",
        ],
      },
    ],
  });
}
