// FakeMcpServer's frame parser and session under random frames: JSON text
// (valid messages mutated, arbitrary JSON, non-JSON) and parsed values. Each
// frame gets at most one answer, every answer is a JSON-RPC 2.0 message
// (an error with a JSON-RPC code, or a result for a well-formed request),
// nothing throws out of the transport, and the session keeps serving.
import fc from "fast-check";
import { assert, assertEquals } from "@std/assert";
import { FakeMcpServer } from "@agentkit/testing/testing";
import { parseFrame } from "../../testing/mcp/_jsonrpc.ts";
import { fuzz, noHang } from "./_fuzz.ts";

const CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32002]);

const valid = fc.oneof(
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id: fc.oneof(fc.integer(), fc.string()),
    method: fc.constantFrom("ping", "tools/list", "tools/call", "initialize", "x/y"),
    params: fc.option(
      fc.dictionary(
        fc.constantFrom("name", "arguments", "cursor", "protocolVersion"),
        fc.jsonValue(),
      ),
      { nil: undefined },
    ),
  }, { requiredKeys: ["jsonrpc", "id", "method"] }),
  fc.record({
    jsonrpc: fc.constant("2.0"),
    method: fc.constantFrom("notifications/cancelled", "notifications/initialized"),
    params: fc.dictionary(fc.constantFrom("requestId", "reason"), fc.jsonValue()),
  }),
);
const frame = fc.oneof(
  valid,
  valid.map((m) => JSON.stringify(m)),
  valid.chain((m) =>
    fc.nat({ max: Math.max(0, JSON.stringify(m).length - 1) }).map((cut) =>
      JSON.stringify(m).slice(0, cut)
    )
  ),
  fc.jsonValue(),
  fc.string(),
  fc.anything(),
);

Deno.test("parseFrame() classifies any frame without throwing", async () => {
  await fuzz("parseFrame", 2701, 2_000, (seed) =>
    fc.asyncProperty(frame, (f) => {
      void seed;
      const r = parseFrame(f);
      assert(["request", "notification", "response", "invalid"].includes(r.kind));
      if (r.kind === "invalid") {
        assert(CODES.has(r.answer.error.code), JSON.stringify(r.answer));
        assertEquals(r.answer.jsonrpc, "2.0");
      }
      return Promise.resolve();
    }));
});

Deno.test("FakeMcpServer answers random frames over its transport with JSON-RPC, and keeps serving", async () => {
  await fuzz(
    "FakeMcpServer frames",
    2702,
    300,
    () =>
      fc.asyncProperty(fc.array(frame, { maxLength: 8 }), async (frames) => {
        await using server = new FakeMcpServer({ tools: [{ name: "t", result: "ok" }] });
        const t = server.transport();
        const seen: Record<string, unknown>[] = [];
        t.onmessage = (m) => seen.push(m as Record<string, unknown>);
        await t.start();
        for (const f of frames) await t.send(f);
        await t.send({ jsonrpc: "2.0", id: "last", method: "ping" });
        await noHang((async () => {
          while (!seen.some((m) => m.id === "last")) await new Promise((r) => setTimeout(r, 0));
        })());
        for (const m of seen) {
          assertEquals(m.jsonrpc, "2.0");
          if ("error" in m) {
            const code = (m.error as { code: unknown }).code;
            assert(typeof code === "number" && Number.isInteger(code), JSON.stringify(m));
          } else assert("result" in m, JSON.stringify(m));
        }
        assert(seen.length <= frames.length + 1, "at most one answer a frame");
        await t.close();
      }),
  );
});
