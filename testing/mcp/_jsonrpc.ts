// The JSON-RPC 2.0 frame parser every transport of FakeMcpServer feeds: text
// or an object in, one classified message (or the error answer the spec
// prescribes) out. Written by hand rather than with zod because every frame
// of every call passes through it; the rules are JSON-RPC 2.0's
// (https://www.jsonrpc.org/specification, §4-5.1) with MCP's narrowing of
// them (schema 2025-11-25: ids are strings or integers, never null; params
// are an object; an error answer without a known id leaves `id` out).

/** JSON-RPC's and MCP's error codes, by the name the specs give them. */
export const CODE = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** MCP's "Resource not found" (server/resources, error handling). */
  resourceNotFound: -32002,
} as const;

/** A request or notification id as MCP allows it. */
export type RequestId = string | number;

/** A JSON-RPC error object. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** What one frame turned out to be. */
export type Frame =
  | {
    readonly kind: "request";
    readonly id: RequestId;
    readonly method: string;
    readonly params: Readonly<Record<string, unknown>>;
  }
  | {
    readonly kind: "notification";
    readonly method: string;
    readonly params: Readonly<Record<string, unknown>>;
  }
  | {
    readonly kind: "response";
    readonly id: RequestId | undefined;
    readonly result?: unknown;
    readonly error?: unknown;
  }
  | { readonly kind: "invalid"; readonly answer: ErrorAnswer }
  | { readonly kind: "batch"; readonly frames: readonly Frame[] };

/** An error answer, ready to send. */
export interface ErrorAnswer {
  readonly jsonrpc: "2.0";
  readonly id?: RequestId;
  readonly error: RpcError;
}

const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});
/**
 * The most messages one batch may hold: the SDK server transport's
 * `MAX_BATCH_SIZE` (1.32.2, src/server/requestBody.ts), so a hostile batch
 * cannot make the server start thousands of calls at once.
 */
export const MAX_BATCH_SIZE = 100;
const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const RESPONSE_KEYS = new Set(["jsonrpc", "id", "result", "error"]);

/** An error answer for `id` (left out when the id is not known). */
export function errorAnswer(id: RequestId | undefined, error: RpcError): ErrorAnswer {
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

function invalid(message: string, id?: RequestId): Frame {
  return {
    kind: "invalid",
    answer: errorAnswer(id, { code: CODE.invalidRequest, message: `Invalid Request: ${message}` }),
  };
}

function isId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Classifies one frame: a string is JSON text (unparseable text is a parse
 * error, -32700), anything else an already parsed message. With `batch`
 * (a session on protocol 2025-03-26, the one version whose specification
 * requires JSON-RPC batches) an array is a batch of frames; otherwise an
 * array is refused. Never throws.
 */
export function parseFrame(frame: unknown, batch = false): Frame {
  let message = frame;
  if (typeof frame === "string") {
    try {
      message = JSON.parse(frame);
    } catch {
      return {
        kind: "invalid",
        answer: errorAnswer(undefined, { code: CODE.parseError, message: "Parse error" }),
      };
    }
  }
  return classify(message, batch);
}

function classify(message: unknown, batch: boolean): Frame {
  if (Array.isArray(message)) {
    // Protocol 2025-03-26 added JSON-RPC batching and 2025-06-18 removed it.
    if (!batch) {
      return invalid(
        "a batch (an array of messages) is supported only on protocol 2025-03-26",
      );
    }
    // JSON-RPC 2.0 §6: an empty batch is one Invalid Request.
    if (message.length === 0) return invalid("an empty batch");
    if (message.length > MAX_BATCH_SIZE) {
      return invalid(`Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    }
    return { kind: "batch", frames: message.map(member) };
  }
  if (!isRecord(message)) return invalid("a message must be a JSON object");
  const id = isId(message.id) ? message.id : undefined;
  if (message.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"', id);
  if ("method" in message) {
    if (typeof message.method !== "string") return invalid('"method" must be a string', id);
    for (const key in message) {
      if (!REQUEST_KEYS.has(key)) return invalid(`unknown member "${key}"`, id);
    }
    const params = message.params;
    if (params !== undefined && !isRecord(params)) {
      return invalid('"params" must be an object', id);
    }
    if ("id" in message) {
      if (id === undefined) {
        return invalid('"id" must be a string or an integer (MCP forbids null)');
      }
      return { kind: "request", id, method: message.method, params: params ?? NO_PARAMS };
    }
    return { kind: "notification", method: message.method, params: params ?? NO_PARAMS };
  }
  for (const key in message) {
    if (!RESPONSE_KEYS.has(key)) return invalid(`unknown member "${key}"`, id);
  }
  const answers = ("result" in message ? 1 : 0) + ("error" in message ? 1 : 0);
  if (answers !== 1) {
    return invalid('a message needs "method", or exactly one of "result" and "error"', id);
  }
  // An error answer may leave its id out (schema 2025-11-25); a result may not.
  if (id === undefined && !("error" in message)) {
    return invalid('a response needs a string or integer "id"');
  }
  return "error" in message
    ? { kind: "response", id, error: message.error }
    : { kind: "response", id, result: message.result };
}

// One message of a batch: never a batch itself (JSON-RPC 2.0 §6), never
// `initialize` ("The initialize request MUST NOT be part of a JSON-RPC
// batch", 2025-03-26 basic/lifecycle).
function member(message: unknown): Frame {
  if (Array.isArray(message)) return invalid("a batch's member must be a message, not an array");
  const frame = classify(message, false);
  if (frame.kind === "request" && frame.method === "initialize") {
    return invalid("initialize may not be part of a batch (protocol 2025-03-26)", frame.id);
  }
  return frame;
}
