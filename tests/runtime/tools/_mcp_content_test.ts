import { assert, assertEquals, assertMatch } from "@std/assert";
import fc from "fast-check";
import { blockText, mcpToolResult } from "../../../runtime/tools/_mcp_content.ts";

Deno.test("mcpToolResult: text blocks, one per line", () => {
  assertEquals(
    mcpToolResult("c1", "t", {
      content: [{ type: "text", text: "a" }, { type: "text", text: "b" }],
    }),
    { callId: "c1", isError: false, content: "a\nb" },
  );
  assertEquals(mcpToolResult("c1", "t", { content: [] }).content, "");
  assertEquals(mcpToolResult("c1", "t", {}), { callId: "c1", isError: false, content: "" });
});

Deno.test("mcpToolResult: structured content wins over its mirror text, unless an error", () => {
  const structuredContent = { n: 1, list: ["x"] };
  assertEquals(
    mcpToolResult("c1", "t", {
      structuredContent,
      content: [{ type: "text", text: "a summary" }],
    }),
    { callId: "c1", isError: false, content: '{"n":1,"list":["x"]}' },
  );
  assertEquals(
    mcpToolResult("c1", "t", {
      isError: true,
      structuredContent,
      content: [{ type: "text", text: "bad input" }],
    }),
    { callId: "c1", isError: true, content: "bad input" },
  );
  // Not an object: the blocks.
  assertEquals(
    mcpToolResult("c1", "t", { structuredContent: null, content: [{ type: "text", text: "a" }] })
      .content,
    "a",
  );
  assertEquals(
    mcpToolResult("c1", "t", { structuredContent: "s", content: [{ type: "text", text: "a" }] })
      .content,
    "a",
  );
});

Deno.test("mcpToolResult: an error with no text says so", () => {
  assertEquals(mcpToolResult("c1", "deploy", { isError: true, content: [] }), {
    callId: "c1",
    isError: true,
    content: 'Tool "deploy" failed and gave no message',
  });
  assertEquals(mcpToolResult("c1", "deploy", { isError: false, content: [] }).isError, false);
});

Deno.test("mcpToolResult: the 2024-10-07 toolResult", () => {
  assertEquals(mcpToolResult("c1", "t", { toolResult: "plain" }).content, "plain");
  assertEquals(mcpToolResult("c1", "t", { toolResult: { a: 1 } }).content, '{"a":1}');
  assertEquals(mcpToolResult("c1", "t", { toolResult: undefined }).content, "undefined");
  // content, when present, is the result.
  assertEquals(
    mcpToolResult("c1", "t", { toolResult: "old", content: [{ type: "text", text: "new" }] })
      .content,
    "new",
  );
});

Deno.test("mcpToolResult: a malformed result is an error result naming the tool", () => {
  for (const bad of [null, "text", 3, [1], { content: "text" }, { isError: "yes", content: [] }]) {
    const r = mcpToolResult("c9", "lookup", bad);
    assertEquals([r.callId, r.isError], ["c9", true]);
    assertMatch(
      r.content,
      /^The MCP server answered the call of tool "lookup" with .+, which is not a tool result \(\{ content: \[\.\.\.\], isError\?, structuredContent\? \}\)$/,
    );
  }
});

Deno.test("blockText: media by type and decoded size, resources by URI", () => {
  assertEquals(
    blockText({ type: "image", data: "", mimeType: "image/png" }),
    "[image: image/png, 0 bytes]",
  );
  assertEquals(blockText({ type: "image", data: "QQ==" }), "[image: unknown type, 1 bytes]");
  assertEquals(
    blockText({ type: "audio", data: "QUI=", mimeType: "audio/wav" }),
    "[audio: audio/wav, 2 bytes]",
  );
  assertEquals(
    blockText({ type: "audio", data: "QUJD", mimeType: "a/b" }),
    "[audio: a/b, 3 bytes]",
  );
  assertEquals(
    blockText({ type: "image", data: "QUJDRA", mimeType: "a/b" }),
    "[image: a/b, 4 bytes]",
  );
  assertEquals(
    blockText({ type: "resource_link", uri: "file:///a", name: "a" }),
    "[resource link: a <file:///a>]",
  );
  assertEquals(
    blockText({ type: "resource_link", uri: "file:///a" }),
    "[resource link: file:///a <file:///a>]",
  );
  assertEquals(
    blockText({ type: "resource", resource: { uri: "u", text: "t" } }),
    "[resource: u]\nt",
  );
  assertEquals(
    blockText({ type: "resource", resource: { uri: "u", blob: "QQ==" } }),
    "[resource: u, unknown type, 1 bytes]",
  );
});

Deno.test("blockText: an unknown or malformed block is its JSON", () => {
  const cases: [unknown, string][] = [
    [{ type: "video", url: "x" }, '{"type":"video","url":"x"}'],
    [{ type: "text" }, '{"type":"text"}'],
    [{ type: "text", text: 5 }, '{"type":"text","text":5}'],
    [{ type: "image" }, '{"type":"image"}'],
    [{ type: "resource_link", name: "a" }, '{"type":"resource_link","name":"a"}'],
    [{ type: "resource" }, '{"type":"resource"}'],
    [{ type: "resource", resource: { text: "t" } }, '{"type":"resource","resource":{"text":"t"}}'],
    [{ type: "resource", resource: { uri: "u" } }, '{"type":"resource","resource":{"uri":"u"}}'],
    ["just text", '"just text"'],
    [null, "null"],
    [undefined, "undefined"],
    [{ type: "x", n: 1n }, "[object Object]"],
  ];
  for (const [block, text] of cases) assertEquals(blockText(block), text);
});

const textBlock = fc.record({ type: fc.constant("text"), text: fc.string() });
const anyBlock = fc.oneof(
  textBlock,
  fc.record({
    type: fc.constantFrom("image", "audio"),
    data: fc.base64String(),
    mimeType: fc.constantFrom("image/png", "audio/wav"),
  }),
  fc.record({ type: fc.constant("resource_link"), uri: fc.webUrl(), name: fc.string() }),
  fc.record({
    type: fc.constant("resource"),
    resource: fc.oneof(
      fc.record({ uri: fc.webUrl(), text: fc.string() }),
      fc.record({ uri: fc.webUrl(), blob: fc.base64String() }),
    ),
  }),
  fc.anything(),
);

Deno.test("mcpToolResult (property): text blocks come back joined, in order", () => {
  fc.assert(
    fc.property(fc.array(textBlock), fc.boolean(), (content, isError) => {
      const r = mcpToolResult("c", "t", { content, isError });
      const joined = content.map((b) => b.text).join("\n");
      assertEquals(r.isError, isError);
      assertEquals(
        r.content,
        isError && joined === "" ? 'Tool "t" failed and gave no message' : joined,
      );
    }),
    { numRuns: 300 },
  );
});

Deno.test("mcpToolResult (property): any answer gives one string result and never throws", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.anything(),
        fc.record({ content: fc.array(anyBlock) }, { requiredKeys: [] }),
        fc.record({
          content: fc.array(anyBlock),
          isError: fc.boolean(),
          structuredContent: fc.dictionary(fc.string(), fc.jsonValue()),
        }, { requiredKeys: [] }),
      ),
      (answer) => {
        const r = mcpToolResult("c", "t", answer);
        assertEquals(r.callId, "c");
        assert(typeof r.content === "string");
        assert(typeof r.isError === "boolean");
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("blockText (property): the size of base64 data is the decoded size", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (bytes, padded) => {
      let data = btoa(String.fromCharCode(...bytes));
      if (!padded) data = data.replace(/=+$/, "");
      assertEquals(
        blockText({ type: "image", data, mimeType: "x/y" }),
        `[image: x/y, ${bytes.length} bytes]`,
      );
    }),
    { numRuns: 300 },
  );
});
