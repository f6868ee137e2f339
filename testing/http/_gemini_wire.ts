// The Gemini API wire, server side: POST /v1beta/models/{model}:generateContent
// and :streamGenerateContent?alt=sse (and /v1/, /v1alpha/).
//
// Formats from Google's reference (ai.google.dev/api/generate-content:
// GenerateContentRequest, GenerateContentResponse, Candidate.FinishReason,
// UsageMetadata), the thought-signature guide (ai.google.dev/gemini-api/docs/
// thought-signatures: on Gemini 3, the first functionCall part of each step
// carries a signature), the error guide (ai.google.dev/gemini-api/docs/
// troubleshooting, and google.rpc.Code / google.rpc.RetryInfo in
// googleapis/googleapis), and what the official clients read and send:
// @google/genai (src/_api_client.ts: SSE split on blank lines, an `error`
// chunk thrown as ApiError) and @ai-sdk/google (google-error.ts: the error
// body `{ error: { code, message, status, details } }`).
import type { ChatSettings } from "../../ports/chat.ts";
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { JsonSchema, ToolSpec } from "../../ports/tool_spec.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import { parseArgs } from "../../runtime/internal.ts";
import type { Problem, StreamEncoder, Wire, WireMemory, WireRequest } from "./_wire.ts";
import { record, type SettingsDraft } from "./_wire_request.ts";
import { geminiResponseId } from "./_ids.ts";

/** One part of a Gemini content, as the client sent it. */
export interface GeminiPart {
  readonly text?: string;
  /** A thought summary part (never the model's answer text). */
  readonly thought?: boolean;
  readonly thoughtSignature?: string;
  readonly functionCall?: {
    readonly id?: string;
    readonly name: string;
    readonly args: Readonly<Record<string, unknown>>;
  };
  readonly functionResponse?: {
    readonly id?: string;
    readonly name: string;
    readonly response: Readonly<Record<string, unknown>>;
  };
  /** Another kind of data (inlineData, fileData, executableCode, ...), kept as sent. */
  readonly other?: string;
}

/** One content of the request: its role as sent (checked by the rules, not here) and parts. */
export interface GeminiContent {
  readonly role: unknown;
  readonly parts: readonly GeminiPart[];
}

/** A Gemini request as the wire read it, for the checks that look at its parts. */
export interface GeminiParsed {
  /** The model named in the path (`gemini-3-pro-preview`). */
  readonly model: string;
  /** `generateContent` or `streamGenerateContent`. */
  readonly method: string;
  readonly contents: readonly GeminiContent[];
  /** The call ids the parse gave each model function call, by content and part index. */
  readonly callIds: ReadonlyMap<string, string>;
}

// google.rpc.Code's canonical names for the HTTP statuses the API answers with
// (googleapis/google/rpc/code.proto; the Gemini troubleshooting page's table).
const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  408: "DEADLINE_EXCEEDED",
  409: "ABORTED",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  501: "UNIMPLEMENTED",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

const FINISH: Record<FinishReason, string> = {
  stop: "STOP",
  // Gemini ends a turn of function calls with STOP (the calls are the parts).
  tool_calls: "STOP",
  length: "MAX_TOKENS",
  content_filter: "SAFETY",
  error: "MALFORMED_FUNCTION_CALL",
};

const METHODS = new Set(["generateContent", "streamGenerateContent"]);

// Served paths: {version}/models/{model}:{method}, under any prefix a proxy adds.
const TARGET = /\/(v1|v1beta|v1alpha)\/models\/([^/]*?)(?::([^/]*))?$/;

/** Whether a path is the Gemini API's (the FakeProvider routes by it). */
export function isGeminiPath(path: string): boolean {
  return /\/v1(?:beta|alpha)?\/models\/[^/]*:[^/]*$|\/v1(?:beta|alpha)\/models\/[^/]*$/.test(path);
}

/** A duration as google.protobuf.Duration's JSON: seconds, "1.5s". */
export function durationOf(ms: number): string {
  return `${Math.round(ms) / 1000}s`;
}

/** The Gemini error JSON: `{ error: { code, message, status, details? } }`. */
export function geminiError(p: Problem): unknown {
  const status = STATUS[p.status] ?? (p.status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT");
  const error: Record<string, unknown> = { code: p.status, message: p.message, status };
  if (p.status === 429 && p.retryAfterMs !== undefined) {
    // The API says how long to wait in the body, not in a header.
    error.details = [{
      "@type": "type.googleapis.com/google.rpc.RetryInfo",
      retryDelay: durationOf(p.retryAfterMs),
    }];
  }
  return { error };
}

function bad(message: string): Problem {
  return { status: 400, message: `* GenerateContentRequest.${message}\n` };
}

function target(url: URL): { version: string; model: string; method: string } | undefined {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined; // a malformed escape names no model
  }
  const m = TARGET.exec(path);
  return m ? { version: m[1], model: m[2], method: m[3] ?? "" } : undefined;
}

function wrongPath(url: URL): Problem | undefined {
  const t = target(url);
  const path = url.pathname;
  if (!t) return { status: 404, message: `The requested URL ${path} was not found.` };
  if (t.model === "" || /\s/.test(t.model)) {
    // The API's answer for a model it does not serve, as users report it.
    return {
      status: 404,
      message:
        `models/${t.model} is not found for API version ${t.version}, or is not supported for ${
          t.method || "generateContent"
        }. Call ListModels to see the list of available models and their supported methods. (The path must be /${t.version}/models/{model}:generateContent, with the model named.)`,
    };
  }
  if (!METHODS.has(t.method)) {
    return {
      status: 404,
      message: `Method not found: POST ${path}. The FakeProvider serves ${
        t.method === "" ? "a model's methods only as" : "only"
      } /${t.version}/models/${t.model}:generateContent and :streamGenerateContent?alt=sse.`,
    };
  }
  if (t.method === "streamGenerateContent" && url.searchParams.get("alt") !== "sse") {
    return {
      status: 400,
      message:
        "streamGenerateContent is served as server-sent events only: add ?alt=sse to the URL (as @google/genai and @ai-sdk/google do); the JSON-array stream is not served by the FakeProvider.",
    };
  }
  return undefined;
}

// Gemini's `parameters` is an OpenAPI schema whose types may be upper case
// ("OBJECT", from @google/genai's Type enum); a JSON schema has them lower case.
function jsonSchemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  const s = record(schema);
  if (!s) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    out[k] = k === "type" && typeof v === "string"
      ? v.toLowerCase()
      : k === "properties" && record(v)
      ? Object.fromEntries(Object.entries(v as object).map(([p, ps]) => [p, jsonSchemaOf(ps)]))
      : k === "items" || k === "anyOf"
      ? jsonSchemaOf(v)
      : v;
  }
  return out;
}

function parseTools(value: unknown): ToolSpec[] | Problem | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return bad("tools: Invalid value, expected a list of Tool objects");
  const out: ToolSpec[] = [];
  for (let i = 0; i < value.length; i++) {
    const t = record(value[i]);
    if (!t) return bad(`tools[${i}]: Invalid value, expected a Tool object`);
    const decls = t.functionDeclarations ?? t.function_declarations;
    // Built-in tools (googleSearch, codeExecution, urlContext) are the
    // server's to run; the model never calls them through functionCall.
    if (decls === undefined) continue;
    if (!Array.isArray(decls)) {
      return bad(`tools[${i}].function_declarations: Invalid value, expected a list`);
    }
    for (let j = 0; j < decls.length; j++) {
      const f = record(decls[j]);
      const where = `tools[${i}].function_declarations[${j}]`;
      if (!f || typeof f.name !== "string" || f.name === "") {
        return bad(`${where}.name: [FIELD_INVALID] Invalid function name.`);
      }
      const schema = record(f.parametersJsonSchema) ?? record(jsonSchemaOf(f.parameters));
      out.push({
        name: f.name,
        description: typeof f.description === "string" ? f.description : "",
        parameters: (schema ?? { type: "object", properties: {} }) as JsonSchema,
      });
    }
  }
  return out;
}

function parseSettings(value: unknown): ChatSettings | Problem | undefined {
  if (value === undefined || value === null) return undefined;
  const g = record(value);
  if (!g) return bad("generation_config: Invalid value, expected a GenerationConfig object");
  const s: SettingsDraft = {};
  if (typeof g.maxOutputTokens === "number") s.maxTokens = g.maxOutputTokens;
  if (typeof g.temperature === "number") s.temperature = g.temperature;
  const schema = record(g.responseJsonSchema) ?? record(jsonSchemaOf(g.responseSchema));
  if (g.responseMimeType === "application/json" && schema) s.jsonSchema = schema as JsonSchema;
  return Object.keys(s).length ? s : undefined;
}

const OTHER_PARTS = [
  "inlineData",
  "fileData",
  "executableCode",
  "codeExecutionResult",
  "inline_data",
  "file_data",
  "executable_code",
  "code_execution_result",
];

function parsePart(value: unknown, where: string): GeminiPart | Problem {
  const p = record(value);
  if (!p) return bad(`${where}: Invalid value, expected a Part object`);
  const signature = typeof p.thoughtSignature === "string" ? p.thoughtSignature : undefined;
  const common = {
    ...(signature !== undefined ? { thoughtSignature: signature } : {}),
    ...(p.thought === true ? { thought: true } : {}),
  };
  if (p.functionCall !== undefined) {
    const f = record(p.functionCall);
    if (!f || typeof f.name !== "string" || f.name === "") {
      return bad(`${where}.function_call.name: Name cannot be empty.`);
    }
    if (f.args !== undefined && f.args !== null && !record(f.args)) {
      return bad(`${where}.function_call.args: Invalid value, expected a Struct (a JSON object)`);
    }
    return {
      ...common,
      functionCall: {
        ...(typeof f.id === "string" ? { id: f.id } : {}),
        name: f.name,
        args: record(f.args) ?? {},
      },
    };
  }
  if (p.functionResponse !== undefined) {
    const f = record(p.functionResponse);
    if (!f || typeof f.name !== "string" || f.name === "") {
      return bad(`${where}.function_response.name: Name cannot be empty.`);
    }
    if (!record(f.response)) {
      return bad(
        `${where}.function_response.response: Invalid value, expected a Struct (a JSON object)`,
      );
    }
    return {
      ...common,
      functionResponse: {
        ...(typeof f.id === "string" ? { id: f.id } : {}),
        name: f.name,
        response: record(f.response)!,
      },
    };
  }
  if (typeof p.text === "string") return { ...common, text: p.text };
  // The API's proto JSON reads snake_case names too (inline_data, as
  // Google's REST samples write it).
  const other = OTHER_PARTS.find((k) => p[k] !== undefined);
  if (other) return { ...common, other };
  // Google's own message for a part with no data field set.
  return bad(`${where}.data: required oneof field 'data' must have one initialized field`);
}

function parseContent(value: unknown, where: string): GeminiContent | Problem {
  const c = record(value);
  if (!c) return bad(`${where}: Invalid value, expected a Content object`);
  if (!Array.isArray(c.parts) || c.parts.length === 0) {
    return bad(`${where}.parts: contents.parts must not be empty.`);
  }
  const parts: GeminiPart[] = [];
  for (let j = 0; j < c.parts.length; j++) {
    const part = parsePart(c.parts[j], `${where}.parts[${j}]`);
    if ("status" in part) return part;
    parts.push(part);
  }
  return { role: c.role, parts };
}

// A function response's text for the model: Gemini's convention is
// `{ output }` or `{ error }` (FunctionResponse.response in the reference);
// any other object is the output as a whole.
function responseText(response: Readonly<Record<string, unknown>>): {
  content: string;
  isError: boolean;
} {
  const keys = Object.keys(response);
  if (keys.length === 1 && (keys[0] === "output" || keys[0] === "error")) {
    const v = response[keys[0]];
    return {
      content: typeof v === "string" ? v : JSON.stringify(v),
      isError: keys[0] === "error",
    };
  }
  return { content: JSON.stringify(response), isError: false };
}

function toMessages(
  contents: readonly GeminiContent[],
  callIds: Map<string, string>,
  out: Message[],
): void {
  let pending: ToolCall[] = [];
  for (let i = 0; i < contents.length; i++) {
    const { role, parts } = contents[i];
    let text = "";
    if (role === "model") {
      const calls: ToolCall[] = [];
      for (let j = 0; j < parts.length; j++) {
        const p = parts[j];
        if (p.functionCall) {
          const id = p.functionCall.id ?? `call_${i}_${j}`;
          callIds.set(`${i}.${j}`, id);
          calls.push({ id, name: p.functionCall.name, args: p.functionCall.args });
        } else if (p.text !== undefined && !p.thought) text += p.text;
      }
      out.push(
        calls.length ? { role: "assistant", content: text, toolCalls: calls } : {
          role: "assistant",
          content: text,
        },
      );
      pending = calls.slice();
      continue;
    }
    let results = 0;
    for (const p of parts) {
      if (p.functionResponse) {
        const r = p.functionResponse;
        // Without ids, a response answers the first open call of its name.
        const k = r.id !== undefined
          ? pending.findIndex((c) => c.id === r.id)
          : pending.findIndex((c) => c.name === r.name);
        const id = r.id ?? (k >= 0 ? pending[k].id : r.name);
        if (k >= 0) pending.splice(k, 1);
        const { content, isError } = responseText(r.response);
        out.push({ role: "tool", content, toolCallId: id, ...(isError ? { isError } : {}) });
        results++;
      } else if (p.text !== undefined && !p.thought) text += p.text;
    }
    if (text !== "" || results === 0) out.push({ role: "user", content: text });
  }
}

function systemText(value: unknown): string | Problem | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  const c = parseContent(value, "system_instruction");
  if ("status" in c) return c;
  return c.parts.map((p) => p.text ?? "").join("");
}

function parse(value: unknown, url: URL): WireRequest | Problem {
  const body = record(value);
  if (!body) {
    return {
      status: 400,
      message: "Invalid JSON payload received. Expected an object (a GenerateContentRequest).",
    };
  }
  const t = target(url)!;
  if (body.contents === undefined || body.contents === null) {
    return bad("contents: contents is not specified");
  }
  if (!Array.isArray(body.contents)) return bad("contents: Invalid value, expected a list");
  const contents: GeminiContent[] = [];
  for (let i = 0; i < body.contents.length; i++) {
    const c = parseContent(body.contents[i], `contents[${i}]`);
    if ("status" in c) return c;
    contents.push(c);
  }
  const messages: Message[] = [];
  const system = systemText(body.systemInstruction ?? body.system_instruction);
  if (typeof system === "object") return system;
  if (system) messages.push({ role: "system", content: system });
  const callIds = new Map<string, string>();
  toMessages(contents, callIds, messages);
  const tools = parseTools(body.tools);
  if (tools && !Array.isArray(tools)) return tools;
  const settings = parseSettings(body.generationConfig ?? body.generation_config);
  if (settings && "status" in settings) return settings as Problem;
  return {
    chat: {
      model: t.model,
      messages,
      ...(tools?.length ? { tools } : {}),
      ...(settings ? { settings: settings as ChatSettings } : {}),
    },
    stream: t.method === "streamGenerateContent",
    includeUsage: true,
    gemini: { model: t.model, method: t.method, contents, callIds },
  };
}

/**
 * Ours to the wire's usage: `promptTokenCount` includes the cached content,
 * and `candidatesTokenCount` excludes the thinking, which has its own count
 * (`thoughtsTokenCount`, sent only when the script says the turn thought:
 * a turn that did not think carries none). In the API's order, with the
 * prompt's breakdown by modality, which every answer carries, and the tier
 * that ran last (UsageMetadata in ai.google.dev/api/generate-content;
 * recorded gemini-2.5-flash and gemini-3.1-pro answers of 2026:
 * promptTokenCount, candidatesTokenCount, totalTokenCount,
 * promptTokensDetails, thoughtsTokenCount, serviceTier "standard").
 * `candidatesTokensDetails` is not sent: recorded gemini-2.0 answers carry
 * it, the 2.5 and 3 ones on generateContent do not.
 */
function usageMetadata(u: Usage): Record<string, unknown> {
  const cached = u.cachedInputTokens;
  const prompt = u.inputTokens + (cached ?? 0);
  const thoughts = u.reasoningTokens !== undefined && u.reasoningTokens > 0 &&
      u.reasoningTokens <= u.outputTokens
    ? u.reasoningTokens
    : 0;
  const out: Record<string, unknown> = {
    promptTokenCount: prompt,
    candidatesTokenCount: u.outputTokens - thoughts,
    totalTokenCount: prompt + u.outputTokens,
  };
  if (cached !== undefined) out.cachedContentTokenCount = cached;
  out.promptTokensDetails = [{ modality: "TEXT", tokenCount: prompt }];
  if (cached !== undefined) out.cacheTokensDetails = [{ modality: "TEXT", tokenCount: cached }];
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  out.serviceTier = "standard";
  return out;
}

// The usage a chunk before the last carries: every chunk of a stream has
// usageMetadata (recorded streams), but its counts are known only at the
// end, so the chunks before it say none yet (the last one is the total,
// which is what every client reads).
const NO_USAGE_YET = Object.freeze({
  promptTokenCount: 0,
  totalTokenCount: 0,
  promptTokensDetails: Object.freeze([Object.freeze({ modality: "TEXT", tokenCount: 0 })]),
  serviceTier: "standard",
});

/**
 * Whether a model's function calls carry an `id`. Gemini 3 models send one;
 * the earlier models on generateContent send none ("When using the Gemini
 * Developer API, this property will be undefined", Firebase AI Logic
 * reference, FunctionCall.id, 2025-08-28; recorded gemini-2.x answers carry
 * `functionCall: { name, args }` only), so a client must pair calls and
 * responses by position and name there.
 */
export function sendsCallIds(model: string): boolean {
  return signsCalls(model);
}

/** Whether the model is one that signs its function calls (Gemini 3). */
export function signsCalls(model: string): boolean {
  return /^(models\/)?gemini-3/.test(model);
}

// A call the API could not have sent as a functionCall part: no name, or
// arguments that are not a JSON object (FunctionCall.args is a Struct, so
// the wire has no place for raw text). Gemini ends such a turn with
// MALFORMED_FUNCTION_CALL ("The function call generated by the model is
// invalid", Candidate.FinishReason in the reference), with no content, as
// the chunk in pydantic/pydantic-ai#3095 shows; a call cut by the token limit
// is never sent either: the turn ends MAX_TOKENS (elastic/kibana#220586).
function unsendable(c: ToolCall): boolean {
  return c.name === "" ||
    (c.rawArgs !== undefined && parseArgs(c.id, c.name, c.rawArgs).rawArgs !== undefined);
}

// A blocked candidate: no content, finishReason SAFETY, and the rating that
// blocked it (the shape reported in CherryHQ/cherry-studio#664; "the Candidate
// content is usually missing", epam/ai-dial-adapter-vertexai#149). Gemini has
// no refusal field: a refusal is a block too, its text not sent.
const SAFETY_RATINGS = Object.freeze([
  { category: "HARM_CATEGORY_HATE_SPEECH", probability: "NEGLIGIBLE" },
  { category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH", blocked: true },
  { category: "HARM_CATEGORY_HARASSMENT", probability: "NEGLIGIBLE" },
  { category: "HARM_CATEGORY_SEXUALLY_EXPLICIT", probability: "NEGLIGIBLE" },
]);

// How a turn ends on this wire: its finish reason, and whether its content
// is withheld (a block, a malformed call).
function ending(
  finish: FinishReason,
  malformed: boolean,
  calls = false,
): { fields: Record<string, unknown>; content: boolean } {
  if (finish === "content_filter") {
    return { fields: { finishReason: "SAFETY", safetyRatings: SAFETY_RATINGS }, content: false };
  }
  if (malformed && finish !== "length") {
    return { fields: { finishReason: "MALFORMED_FUNCTION_CALL" }, content: false };
  }
  // A turn that called functions ends STOP with a finishMessage saying so
  // (Candidate.finishMessage; recorded answers: "Model generated function
  // call(s).").
  if (calls && finish !== "length") {
    return { fields: { finishReason: "STOP", finishMessage: CALLS_MESSAGE }, content: true };
  }
  return { fields: { finishReason: FINISH[finish] }, content: true };
}

const CALLS_MESSAGE = "Model generated function call(s).";

// A function-call part; the first of a response carries the thought
// signature on a Gemini 3 model ("only the first function call part" of
// parallel calls is signed, per the thought-signature guide).
function callPart(
  c: ToolCall,
  sign: boolean,
  model: string,
  memory: WireMemory,
): Record<string, unknown> {
  const args = c.rawArgs === undefined ? c.args : parseArgs(c.id, c.name, c.rawArgs).args;
  const part: Record<string, unknown> = {
    functionCall: sendsCallIds(model) ? { id: c.id, name: c.name, args } : { name: c.name, args },
  };
  if (sign) part.thoughtSignature = memory.issueSignature(model, c.id, c.name);
  return part;
}

function chunk(
  request: WireRequest,
  id: string,
  parts: unknown[] | undefined,
  fields: Record<string, unknown> = {},
  usage?: Usage,
): Record<string, unknown> {
  const candidate: Record<string, unknown> = { index: 0 };
  if (parts) candidate.content = { role: "model", parts };
  Object.assign(candidate, fields);
  return {
    candidates: [candidate],
    usageMetadata: usage ? usageMetadata(usage) : NO_USAGE_YET,
    modelVersion: request.chat.model,
    responseId: id,
  };
}

// Gemini frames end in CRLF CRLF; every client here splits on any blank line.
function frame(json: unknown): string {
  return `data: ${JSON.stringify(json)}\r\n\r\n`;
}

const NO_USAGE_YET_JSON = JSON.stringify(NO_USAGE_YET);

// A stream chunk's frame before its last: the candidate written, the rest of
// the chunk (the same on every one) appended as text (`tail` from `tailOf`).
function midFrame(tail: string, parts: unknown[]): string {
  return `data: {"candidates":[{"index":0,"content":{"role":"model","parts":${
    JSON.stringify(parts)
  }}}]${tail}\r\n\r\n`;
}

function tailOf(request: WireRequest, id: string): string {
  return `,"usageMetadata":${NO_USAGE_YET_JSON},"modelVersion":${
    JSON.stringify(request.chat.model)
  },"responseId":${JSON.stringify(id)}}`;
}

class GeminiEncoder implements StreamEncoder {
  #id = "";
  #tail = "";
  #signed = false;
  #malformed = false;
  readonly #request: WireRequest;
  readonly #memory: WireMemory;

  constructor(request: WireRequest, memory: WireMemory) {
    this.#request = request;
    this.#memory = memory;
  }

  frames(e: StreamEvent): string {
    const r = this.#request;
    switch (e.type) {
      case "message_start":
        this.#id = geminiResponseId(e.messageId);
        this.#tail = tailOf(r, this.#id);
        return ""; // the first chunk is the first content
      case "text_delta":
        // A refusal has no place on this wire: the block says it (SAFETY).
        if (e.refusal) return "";
        return midFrame(this.#tail, [{ text: e.content }]);
      // Thinking is a part marked `thought: true` (the Gemini API's "Thinking"
      // guide, thought summaries with includeThoughts).
      case "reasoning_delta":
        return midFrame(this.#tail, [{ text: e.content, thought: true }]);
      case "tool_call": {
        if (unsendable(e.call)) {
          this.#malformed = true;
          return "";
        }
        const sign = !this.#signed && signsCalls(r.chat.model);
        this.#signed = true;
        return midFrame(this.#tail, [callPart(e.call, sign, r.chat.model, this.#memory)]);
      }
      case "message_end": {
        const end = ending(e.finishReason, this.#malformed, this.#signed);
        return frame(
          chunk(r, this.#id, end.content ? [{ text: "" }] : undefined, end.fields, e.usage),
        );
      }
      case "error": {
        let out = "";
        if (e.finishReason || e.usage) {
          out = frame(
            chunk(
              r,
              this.#id,
              undefined,
              e.finishReason ? { finishReason: FINISH[e.finishReason] } : {},
              e.usage,
            ),
          );
        }
        return out + frame(geminiError({ status: 500, message: e.error.message }));
      }
    }
  }
}

/** POST /{version}/models/{model}:generateContent and :streamGenerateContent?alt=sse. */
export const geminiWire: Wire = {
  api: "generateContent",
  vendor: "google",
  errorBody: geminiError,
  checkTarget: wrongPath,
  streams: (url) => target(url)?.method === "streamGenerateContent",
  checkHeaders(headers: Headers, url: URL): Problem | undefined {
    if (headers.get("x-goog-api-key") || url.searchParams.get("key")) return undefined;
    const auth = headers.get("authorization");
    if (auth && /^bearer\s+\S/i.test(auth)) return undefined; // OAuth, ephemeral tokens
    // The API's answer to a request with no key, as users report it.
    return {
      status: 403,
      message:
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    };
  },
  parse,
  blocking(res, request, _created, memory) {
    const calls = res.toolCalls.filter((c) => !unsendable(c));
    const end = ending(res.finishReason, calls.length < res.toolCalls.length, calls.length > 0);
    const parts: unknown[] = [];
    // Thinking first, as the model wrote it (includeThoughts).
    if (res.reasoning !== undefined) parts.push({ text: res.reasoning, thought: true });
    if (res.content !== "" || calls.length === 0) parts.push({ text: res.content });
    const sign = signsCalls(request.chat.model);
    if (end.content) {
      calls.forEach((c, i) => parts.push(callPart(c, sign && i === 0, request.chat.model, memory)));
    }
    return {
      ...chunk(
        request,
        geminiResponseId(res.id),
        end.content ? parts : undefined,
        end.fields,
        res.usage,
      ),
      modelVersion: res.model || request.chat.model,
    };
  },
  encoder: (request, _created, memory) => new GeminiEncoder(request, memory),
};
