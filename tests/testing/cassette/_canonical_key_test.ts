// The one-pass key writer, case by case (its equality with the object path
// is a property in cassette_key_test.ts).
import { assert, assertEquals, assertNotEquals } from "@std/assert";
import fc from "fast-check";
import {
  globalCopy,
  hash,
  keyHash,
  KeyWriter,
  stable,
} from "../../../testing/cassette/_canonical_key.ts";

const plain = new KeyWriter(undefined, []);
const text = (request: Record<string, unknown>, writer = plain) => writer.text(request as never);

Deno.test("KeyWriter.text(): canonical order, index keys first as JSON.stringify puts them", () => {
  assertEquals(
    text({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [{ "10": 1, "9": 2, b: 3, "": 4, "01": 5, "4294967295": 6, a: { "2": 0, "1": 0 } }],
      settings: { temperature: 0 },
    }),
    '{"messages":[{"content":"hi","role":"user"}],"model":"m","settings":{"temperature":0},"tools":[{"9":2,"10":1,"":4,"01":5,"4294967295":6,"a":{"1":0,"2":0},"b":3}]}',
  );
  assertEquals(
    JSON.parse(text({ model: "m", messages: [], tools: [{ "2": 1, "10": 2, x: 3 }] })!).tools,
    [{ "2": 1, "10": 2, x: 3 }],
  );
});

Deno.test("KeyWriter.text(): what a recording leaves out (empty tools and settings, undefined, functions)", () => {
  assertEquals(
    text({ model: "m", messages: [], tools: [], settings: undefined }),
    '{"messages":[],"model":"m"}',
  );
  assertEquals(
    text({
      model: "m",
      messages: [{ role: "user", content: "x", isError: undefined, f: () => 1 }],
    }),
    '{"messages":[{"content":"x","role":"user"}],"model":"m"}',
  );
  assertEquals(
    text({
      model: "m",
      messages: [],
      settings: { stop: [undefined, () => 1, null, true, false, 1.5] },
    }),
    '{"messages":[],"model":"m","settings":{"stop":[null,null,null,true,false,1.5]}}',
  );
  assertEquals(text({ model: undefined, messages: [] }), '{"messages":[]}');
});

Deno.test("KeyWriter.text(): ids renamed by first appearance; a call without an id, an id that is no string", () => {
  const request = {
    model: "m",
    messages: [
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "b", name: "t", args: {}, rawArgs: "{}" },
          { name: "u", args: {} },
          { id: 7, name: "v", args: {} },
        ],
      },
      { role: "tool", content: "r", toolCallId: "b" },
      { role: "tool", content: "r", toolCallId: { odd: "2026-01-02T03:04Z" } },
    ],
  };
  assertEquals(
    JSON.parse(text(request)!).messages,
    [
      {
        content: "",
        role: "assistant",
        toolCalls: [{ args: {}, id: "call_1", name: "t" }, { args: {}, name: "u" }, {
          args: {},
          id: 7,
          name: "v",
        }],
      },
      { content: "r", role: "tool", toolCallId: "call_1" },
      // A toolCallId that is no string is kept, timestamps and all.
      { content: "r", role: "tool", toolCallId: { odd: "2026-01-02T03:04Z" } },
    ],
  );
});

Deno.test("KeyWriter.text(): undefined for what it cannot follow", () => {
  class Message {
    role = "user";
    content = "x";
  }
  assertEquals(text({ model: "m", messages: [new Message()] }), undefined);
  assertEquals(text({ model: "m", messages: ["not an object"] }), undefined);
  assertEquals(text({ model: "m", messages: [{ role: "a", toolCalls: ["x"] }] }), undefined);
  assertEquals(text({ model: "m", messages: [{ role: "a", toolCalls: [[1]] }] }), undefined);
  assertEquals(text({ model: "m", messages: [], settings: { n: 1n } }), undefined);
  assertEquals(text({ model: "m", messages: [], settings: { d: new Date(0) } }), undefined);
  // A null-prototype object is plain.
  const bare = Object.assign(Object.create(null), { role: "user", content: "x" });
  assertEquals(
    text({ model: "m", messages: [bare] }),
    '{"messages":[{"content":"x","role":"user"}],"model":"m"}',
  );
  // A toolCalls that is no list is a value like any other.
  assertEquals(
    text({ model: "m", messages: [{ role: "a", toolCalls: "x" }] }),
    '{"messages":[{"role":"a","toolCalls":"x"}],"model":"m"}',
  );
});

Deno.test("KeyWriter.text(): scrubs with the secret flag of the key path, memoised, then normalises", () => {
  const seen: string[] = [];
  const writer = new KeyWriter({
    scrub: (
      s,
      secret,
    ) => (seen.push(`${secret ? "S" : "-"}${s}`), secret ? "[REDACTED]" : s.toUpperCase()),
    secretName: (k) => k === "apiKey",
  }, [globalCopy(/T-\d+/y)]);
  const request = {
    model: "m",
    messages: [
      { role: "user", content: "t-1 at 2026-01-02T03:04Z", providerData: { x: "y" } },
      { role: "user", content: "t-1 at 2026-01-02T03:04Z" },
    ],
    settings: { apiKey: "k", nested: { apiKey: ["a"] }, note: "t-2 at 2026-01-02T03:04Z" },
  };
  assertEquals(
    JSON.parse(text(request, writer)!),
    {
      messages: [
        { content: "<normalized> AT <timestamp>", role: "USER" },
        { content: "<normalized> AT <timestamp>", role: "USER" },
      ],
      model: "M",
      // Outside messages the timestamp stays.
      settings: {
        apiKey: "[REDACTED]",
        nested: { apiKey: ["[REDACTED]"] },
        note: "<normalized> AT 2026-01-02T03:04Z",
      },
    },
  );
  // Each string scrubbed once per place, however often it occurs.
  assertEquals(seen.filter((s) => s === "-t-1 at 2026-01-02T03:04Z").length, 1);
  assertEquals(seen.includes("Sk") && seen.includes("Sa"), true);
});

Deno.test("stable(), hash() and globalCopy()", () => {
  assertEquals(
    stable("2026-01-02T03:04:05Z and 123e4567-e89b-12d3-a456-426614174000"),
    "<timestamp> and <uuid>",
  );
  assertEquals(hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const g = globalCopy(/a/iy);
  assertEquals([g.flags, g.source], ["gi", "a"]);
});

Deno.test("keyHash(): 24 hex digits, fixed values, every lane moved by one character", () => {
  // Pinned: a key in a committed file must not change under a refactor.
  assertEquals(keyHash(""), "49cb3d4e28a22acd6fb14cbf");
  assertEquals(keyHash("abc"), keyHash("abc"));
  const a = keyHash('{"messages":[],"model":"m"}');
  const b = keyHash('{"messages":[],"model":"n"}');
  assert(/^[0-9a-f]{24}$/.test(a));
  // Each 8-digit lane differs: no lane is a constant or a copy of another.
  for (let i = 0; i < 24; i += 8) assertNotEquals(a.slice(i, i + 8), b.slice(i, i + 8));
  assertNotEquals(a.slice(0, 8), a.slice(8, 16));
  assertNotEquals(a.slice(8, 16), a.slice(16, 24));
  // The length is mixed in: a trailing NUL is another text.
  assertNotEquals(keyHash("a"), keyHash("a\0"));
});

Deno.test("keyHash(): distinct texts, distinct keys; a one-character change moves every lane (property)", () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 200 }), fc.nat(), (s, at) => {
      const i = at % s.length;
      const changed = s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ 1) + s.slice(i + 1);
      const x = keyHash(s);
      const y = keyHash(changed);
      for (let j = 0; j < 24; j += 8) assertNotEquals(x.slice(j, j + 8), y.slice(j, j + 8));
    }),
    { numRuns: 300 },
  );
  const seen = new Set<string>();
  for (let i = 0; i < 20_000; i++) seen.add(keyHash(`{"n":${i}}`));
  assertEquals(seen.size, 20_000);
});
