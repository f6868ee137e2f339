// The content key (SPEC §23): invariant under what is volatile (generated
// tool-call ids, timestamps, UUIDs, key order, providerData), sensitive to
// everything else. Properties over generated conversations.
import { assert, assertEquals, assertNotEquals } from "@std/assert";
import fc from "fast-check";
import type { ChatRequest, Message } from "@agentkit/testing/ports";
import { Redactor } from "../../../runtime/internal.ts";
import { Scrubber } from "../../../testing/cassette/_scrub.ts";
import { KeyWriter } from "../../../testing/cassette/_canonical_key.ts";
import { recordedCall } from "../../../testing/cassette/_cassette_line.ts";
import {
  canonicalJson,
  cassetteKey,
  type CassetteRequest,
  normalizeRequest,
} from "@agentkit/testing/testing";

// Ids as providers generate them, and text without anything the built-in
// rules normalise (no dates, no UUIDs: those change nothing by design).
const id = fc.stringMatching(/^(call|toolu|fc)_[A-Za-z0-9]{4,16}$/);
const text = fc.string({ maxLength: 40 }).filter((s) => !/\d{4}-\d{2}-\d{2}|[0-9a-f]{8}-/i.test(s));
const args = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 6 }),
  fc.oneof(text, fc.integer()),
  {
    maxKeys: 3,
  },
);

// A conversation: user turns, and tool rounds whose calls are answered.
const conversation = fc.array(
  fc.oneof(
    text.map((content) => ({ kind: "user" as const, content })),
    fc.record({
      name: fc.constantFrom("weather", "search", "add"),
      args,
      result: text,
      id,
    }).map((r) => ({ kind: "tool" as const, ...r })),
  ),
  { minLength: 1, maxLength: 6 },
);

type Step = typeof conversation extends fc.Arbitrary<infer T> ? T : never;

function build(steps: Step, ids: (i: number, original: string) => string): CassetteRequest {
  const messages: Message[] = [];
  steps.forEach((s, i) => {
    if (s.kind === "user") messages.push({ role: "user", content: s.content });
    else {
      const callId = ids(i, s.id);
      messages.push({
        role: "assistant",
        content: "",
        toolCalls: [{ id: callId, name: s.name, args: s.args }],
      });
      messages.push({ role: "tool", content: s.result, toolCallId: callId });
    }
  });
  return { model: "gpt-x", messages };
}

Deno.test("cassetteKey() is the same under any renaming of tool-call ids (property)", () => {
  fc.assert(
    fc.property(conversation, fc.string({ minLength: 1, maxLength: 8 }), (steps, salt) => {
      // An injective renaming: distinct ids stay distinct.
      const a = build(steps, (i, original) => `${original}_${i}`);
      const b = build(steps, (i) => `renamed_${salt}_${i}`);
      assertEquals(cassetteKey(a), cassetteKey(b));
    }),
    { numRuns: 150 },
  );
});

Deno.test("cassetteKey() changes when any content changes (property)", () => {
  fc.assert(
    fc.property(conversation, fc.nat(), text, (steps, at, extra) => {
      const a = build(steps, (i) => `call_${i}`);
      const i = at % steps.length;
      const s = steps[i];
      const changed = steps.slice();
      if (s.kind === "user") {
        fc.pre(extra !== "");
        changed[i] = { ...s, content: s.content + extra };
      } else {
        fc.pre(extra !== s.result);
        changed[i] = { ...s, result: extra };
      }
      assertNotEquals(cassetteKey(a), cassetteKey(build(changed, (j) => `call_${j}`)));
    }),
    { numRuns: 150 },
  );
});

Deno.test("cassetteKey() keeps which call a result answers: swapping pairings is another key", () => {
  const req = (first: string, second: string): CassetteRequest => ({
    model: "m",
    messages: [
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "a", name: "t", args: { n: 1 } }, { id: "b", name: "t", args: { n: 2 } }],
      },
      { role: "tool", content: "one", toolCallId: first },
      { role: "tool", content: "two", toolCallId: second },
    ],
  });
  assertNotEquals(cassetteKey(req("a", "b")), cassetteKey(req("b", "a")));
});

Deno.test("cassetteKey() ignores key order, undefined fields, providerData, timestamps and UUIDs", () => {
  const base: CassetteRequest = {
    model: "m",
    messages: [{
      role: "user",
      content: "at 2026-01-01T00:00:00Z id 123e4567-e89b-12d3-a456-426614174000",
    }],
    settings: { temperature: 0 },
  };
  const same: CassetteRequest = {
    settings: { temperature: 0 },
    messages: [{
      content: "at 2027-05-06 07:08:09.5+02:00 id AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE",
      role: "user",
      providerData: { thoughtSignature: "xyz" },
      isError: undefined,
    }],
    model: "m",
  };
  assertEquals(cassetteKey(base), cassetteKey(same));
  for (
    const other of [
      { ...base, model: "n" },
      { ...base, settings: { temperature: 1 } },
      { ...base, tools: [{ name: "t" }] },
      { ...base, messages: [{ role: "system", content: base.messages[0] && "at" }] },
    ]
  ) assertNotEquals(cassetteKey(base), cassetteKey(other as CassetteRequest));
});

Deno.test("normalizeRequest() applies the caller's rules after the built-in ones, and leaves its input alone", () => {
  const request: CassetteRequest = {
    model: "m",
    messages: [{ role: "user", content: "ticket T-42 opened" }],
  };
  const copy = structuredClone(request);
  const n = normalizeRequest(request, [/T-\d+/, (r) => ({ ...r, model: "any" })]);
  assertEquals(n, {
    model: "any",
    messages: [{ role: "user", content: "ticket <normalized> opened" }],
  });
  assertEquals(request, copy);
  // A sticky or global pattern holds no state from one string to the next.
  const sticky = /T-\d+/gy;
  const twice = normalizeRequest({
    model: "m",
    messages: [{ role: "user", content: "T-1" }, { role: "user", content: "x T-2" }],
  }, [sticky]);
  assertEquals(twice.messages.map((m) => (m as Message).content), [
    "<normalized>",
    "x <normalized>",
  ]);
});

Deno.test("canonicalJson() sorts keys at every depth and drops undefined (property)", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = canonicalJson(value);
      assertEquals(JSON.parse(text), JSON.parse(JSON.stringify(value) ?? "null"));
      const shuffled = JSON.parse(
        text,
        (_k, v) =>
          v && typeof v === "object" && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
      );
      assertEquals(canonicalJson(shuffled), text);
    }),
    { numRuns: 200 },
  );
  assert(/^[0-9a-f]{24}$/.test(cassetteKey({ model: "m", messages: [] })));
});

Deno.test("KeyWriter writes exactly the canonical JSON of the scrubbed, normalised request (property)", () => {
  const redactor = new Redactor({ literals: ["literal-secret-value"] });
  const scrubber = new Scrubber(redactor);
  const patterns = [/T-\d+/g];
  const writer = new KeyWriter(
    { scrub: (s, secret) => scrubber.field(s, secret), secretName: (k) => scrubber.secretName(k) },
    patterns,
  );
  const plain = new KeyWriter(undefined, []);
  const str = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      "at 2026-01-02T03:04:05Z",
      "id 123e4567-e89b-12d3-a456-426614174000",
      "sk-proj-0123456789abcdefABCDEF",
      "ticket T-42",
      "literal-secret-value",
    ),
  );
  const json = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      str,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(
        fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("apiKey", "id")),
        tie("v"),
        {
          maxKeys: 3,
        },
      ),
    ),
  })).v;
  const call = fc.record({
    id: fc.oneof(id, str),
    name: str,
    args: fc.dictionary(fc.string(), json, { maxKeys: 3 }),
  }, {
    requiredKeys: ["name", "args"],
  });
  const message = fc.record({
    role: fc.constantFrom("user", "assistant", "tool", "system"),
    content: str,
    toolCalls: fc.array(call, { maxLength: 2 }),
    toolCallId: fc.oneof(id, str),
    providerData: json,
    isError: fc.boolean(),
  }, { requiredKeys: ["role", "content"] });
  const request = fc.record({
    model: str,
    messages: fc.array(message, { maxLength: 4 }),
    tools: fc.array(fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 3 }), {
      maxLength: 2,
    }),
    settings: fc.dictionary(fc.constantFrom("temperature", "apiKey", "stop"), json, { maxKeys: 2 }),
  }, { requiredKeys: ["model", "messages"] });
  fc.assert(
    fc.property(request, (r) => {
      const req = r as unknown as ChatRequest;
      const slow = canonicalJson(
        normalizeRequest(scrubber.json(recordedCall(req)) as CassetteRequest, patterns),
      );
      assertEquals(writer.text(req), slow);
      assertEquals(plain.text(req), canonicalJson(normalizeRequest(req)));
    }),
    { numRuns: 300 },
  );
});

Deno.test("normalizeRequest() drops providerData and rawArgs, renames ids, and leaves a toolCalls that is not a list as it is", () => {
  const n = normalizeRequest({
    model: "m",
    messages: [
      {
        role: "assistant",
        content: "",
        providerData: { signature: "s" },
        toolCalls: [{ id: "x9", name: "t", args: { a: 1 }, rawArgs: '{"a":1}' }],
      },
      { role: "tool", content: "r", toolCallId: "x9", isError: undefined },
      { role: "user", content: "odd", toolCalls: "not a list" },
    ],
  });
  assertEquals(n.messages, [
    { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "t", args: { a: 1 } }] },
    { role: "tool", content: "r", toolCallId: "call_1" },
    { role: "user", content: "odd", toolCalls: "not a list" },
  ]);
});

Deno.test("cassetteKey() with a function rule takes the same view: ids, providerData and timestamps do not count", () => {
  const keep = (r: CassetteRequest) => r;
  const a = build([{
    kind: "tool",
    name: "weather",
    args: { city: "Oslo" },
    result: "rain",
    id: "call_a",
  }], (_, o) => o);
  const b = build([{
    kind: "tool",
    name: "weather",
    args: { city: "Oslo" },
    result: "rain",
    id: "call_b",
  }], (_, o) => o);
  assertEquals(cassetteKey(a, [keep]), cassetteKey(b, [keep]));
  assertEquals(cassetteKey(a, [keep]), cassetteKey(a));
  const withData = {
    ...a,
    messages: a.messages.map((m) => ({ ...(m as Message), providerData: { x: 1 } })),
  };
  assertEquals(cassetteKey(withData, [keep]), cassetteKey(a, [keep]));
  assertNotEquals(cassetteKey(a, [(r) => ({ ...r, model: "other" })]), cassetteKey(a));
});

Deno.test("the built-in timestamp rule: date-times in their usual shapes, not a bare date", async (t) => {
  const shapes: Array<[string, string]> = [
    ["at 2026-01-02T03:04:05Z.", "at <timestamp>."],
    ["at 2026-01-02T03:04:05.123Z", "at <timestamp>"],
    ["at 2026-01-02T03:04:05+01:00", "at <timestamp>"],
    ["at 2026-01-02T03:04:05-0130", "at <timestamp>"],
    ["at 2026-01-02 03:04", "at <timestamp>"],
    ["at 2026-01-02T03:04:05", "at <timestamp>"],
    ["on 2026-01-02 only", "on 2026-01-02 only"],
    ["v12026-01-02T03:04Z", "v12026-01-02T03:04Z"],
    ["id 123E4567-E89B-12D3-A456-426614174000!", "id <uuid>!"],
    ["x123e4567-e89b-12d3-a456-426614174000", "x123e4567-e89b-12d3-a456-426614174000"],
  ];
  for (const [text, expected] of shapes) {
    await t.step(text, () => {
      const n = normalizeRequest({ model: "m", messages: [{ role: "user", content: text }] });
      assertEquals((n.messages[0] as Message).content, expected);
    });
  }
});

Deno.test("canonicalJson() writes undefined list items as null and drops undefined fields", () => {
  assertEquals(
    canonicalJson({ b: [1, undefined], a: undefined, c: { z: 1, y: null } }),
    '{"b":[1,null],"c":{"y":null,"z":1}}',
  );
  assertEquals(canonicalJson(undefined), "null");
});
