// The frame parser's rules, one by one (JSON-RPC 2.0 §4-5.1 with MCP's
// narrowing: string or integer ids, object params, an error answer without
// a known id leaves "id" out).
import { assertEquals } from "@std/assert";
import { CODE, errorAnswer, parseFrame } from "../../../testing/mcp/_jsonrpc.ts";

function invalid(message: string, id?: string | number) {
  return {
    kind: "invalid",
    answer: errorAnswer(id, { code: -32600, message: `Invalid Request: ${message}` }),
  };
}

Deno.test("parseFrame() reads requests, notifications and responses, from text or objects", () => {
  assertEquals(parseFrame('{"jsonrpc":"2.0","id":1,"method":"ping"}'), {
    kind: "request",
    id: 1,
    method: "ping",
    params: {},
  });
  assertEquals(
    parseFrame({ jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "t" } }),
    {
      kind: "request",
      id: "a",
      method: "tools/call",
      params: { name: "t" },
    },
  );
  assertEquals(parseFrame({ jsonrpc: "2.0", method: "notifications/initialized" }), {
    kind: "notification",
    method: "notifications/initialized",
    params: {},
  });
  assertEquals(parseFrame({ jsonrpc: "2.0", id: 3, result: {} }), {
    kind: "response",
    id: 3,
    result: {},
  });
  assertEquals(parseFrame({ jsonrpc: "2.0", error: { code: 1, message: "x" } }), {
    kind: "response",
    id: undefined,
    error: { code: 1, message: "x" },
  });
});

Deno.test("parseFrame() answers what is not a JSON-RPC 2.0 message with -32700 or -32600", () => {
  assertEquals(parseFrame("{"), {
    kind: "invalid",
    answer: { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
  });
  assertEquals(
    parseFrame([]),
    invalid("a batch (an array of messages) is supported only on protocol 2025-03-26"),
  );
  // On a 2025-03-26 session: a batch, each member classified; empty is -32600.
  assertEquals(parseFrame([], true), invalid("an empty batch"));
  assertEquals(
    parseFrame('[{"jsonrpc":"2.0","id":1,"method":"ping"},7,[]]', true),
    {
      kind: "batch",
      frames: [
        { kind: "request", id: 1, method: "ping", params: {} },
        invalid("a message must be a JSON object"),
        invalid("a batch's member must be a message, not an array"),
      ],
    },
  );
  // At most 100 members (the SDK server's MAX_BATCH_SIZE); initialize never
  // in a batch (2025-03-26 basic/lifecycle), refused with its id.
  const pings = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" }));
  assertEquals(parseFrame(pings(101), true), invalid("Batch must not exceed 100 messages"));
  assertEquals(
    (parseFrame(pings(100), true) as { readonly frames: readonly unknown[] }).frames.length,
    100,
  );
  // A notification is never answered (JSON-RPC 2.0 §4.1), whatever its method.
  assertEquals(parseFrame([{ jsonrpc: "2.0", method: "initialize" }], true), {
    kind: "batch",
    frames: [{ kind: "notification", method: "initialize", params: {} }],
  });
  assertEquals(
    parseFrame([{ jsonrpc: "2.0", id: "i", method: "initialize", params: {} }], true),
    {
      kind: "batch",
      frames: [invalid("initialize may not be part of a batch (protocol 2025-03-26)", "i")],
    },
  );
  assertEquals(parseFrame(null), invalid("a message must be a JSON object"));
  assertEquals(parseFrame("7"), invalid("a message must be a JSON object"));
  assertEquals(parseFrame({ id: 1, method: "ping" }), invalid('"jsonrpc" must be "2.0"', 1));
  assertEquals(
    parseFrame({ jsonrpc: "2.0", id: 1, method: 5 }),
    invalid('"method" must be a string', 1),
  );
  assertEquals(
    parseFrame({ jsonrpc: "2.0", id: 1, method: "p", x: 1 }),
    invalid('unknown member "x"', 1),
  );
  assertEquals(
    parseFrame({ jsonrpc: "2.0", id: 1, method: "p", params: null }),
    invalid('"params" must be an object', 1),
  );
  assertEquals(
    parseFrame({ jsonrpc: "2.0", id: 1, method: "p", params: [] }),
    invalid('"params" must be an object', 1),
  );
  assertEquals(
    parseFrame({ jsonrpc: "2.0", id: null, method: "p" }),
    invalid('"id" must be a string or an integer (MCP forbids null)'),
  );
  assertEquals(
    parseFrame({ jsonrpc: "2.0", id: 1.5, method: "p" }),
    invalid('"id" must be a string or an integer (MCP forbids null)'),
  );
  assertEquals(
    parseFrame({ jsonrpc: "2.0", id: 1, result: {}, extra: 1 }),
    invalid('unknown member "extra"', 1),
  );
  const both = 'a message needs "method", or exactly one of "result" and "error"';
  assertEquals(parseFrame({ jsonrpc: "2.0", id: 1 }), invalid(both, 1));
  assertEquals(parseFrame({ jsonrpc: "2.0", id: 1, result: 1, error: {} }), invalid(both, 1));
  assertEquals(
    parseFrame({ jsonrpc: "2.0", result: 1 }),
    invalid('a response needs a string or integer "id"'),
  );
});

Deno.test("errorAnswer() leaves out an unknown id; CODE names the specs' codes", () => {
  assertEquals(errorAnswer(undefined, { code: 1, message: "m" }), {
    jsonrpc: "2.0",
    error: { code: 1, message: "m" },
  });
  assertEquals(errorAnswer(0, { code: 1, message: "m" }), {
    jsonrpc: "2.0",
    id: 0,
    error: { code: 1, message: "m" },
  });
  assertEquals(CODE, {
    parseError: -32700,
    invalidRequest: -32600,
    methodNotFound: -32601,
    invalidParams: -32602,
    internalError: -32603,
    resourceNotFound: -32002,
  });
});
