import { assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { z } from "zod";
import { parseOrExplain } from "../../testing/_validate.ts";
import { InvalidScript } from "../../testing/errors.ts";

// A script shaped like the doubles' own: optional wrappers, arrays of strict
// objects, a record and a union, each a different way down a path.
const call = z.strictObject({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
});
const schema = z.strictObject({
  content: z.string().optional(),
  toolCalls: z.array(call).optional(),
  nested: z.strictObject({ list: z.array(z.array(call)) }).optional(),
  meta: z.record(z.string(), z.strictObject({ label: z.string() })).optional(),
  either: z.union([z.string(), z.strictObject({ text: z.string() })]).optional(),
  usage: z.strictObject({ inputTokens: z.number() }).default({ inputTokens: 0 }),
});

function explain(value: unknown, hint?: string): string {
  return assertThrows(() => parseOrExplain(schema, value, "turn 1", hint), InvalidScript).message;
}

Deno.test("parseOrExplain() returns what zod parsed, defaults filled", () => {
  assertEquals(parseOrExplain(schema, { content: "hi" }, "turn 1"), {
    content: "hi",
    usage: { inputTokens: 0 },
  });
  const value = { toolCalls: [{ id: "c1", name: "n", args: {} }] };
  const parsed = parseOrExplain(schema, value, "turn 1");
  assertEquals(parsed.toolCalls, value.toolCalls);
});

Deno.test("parseOrExplain() names an unknown key and the nearest known one", () => {
  assertEquals(
    explain({ contnet: "hi" }),
    'unknown key "contnet" in turn 1; did you mean "content"?',
  );
  assertEquals(explain({ zzzzzz: 1 }), 'unknown key "zzzzzz" in turn 1');
});

Deno.test("parseOrExplain() suggests from the keys where the unknown one is", async (t) => {
  await t.step("in an array item, through an optional", () => {
    assertEquals(
      explain({
        toolCalls: [{ id: "c1", name: "n", args: {} }, { id: "c2", name: "n", nme: "n", args: {} }],
      }),
      'unknown key "nme" in turn 1 toolCalls[1]; did you mean "name"?',
    );
  });
  await t.step("in an array of arrays inside an object", () => {
    assertEquals(
      explain({ nested: { list: [[{ id: "c", name: "n", args: {}, argz: {} }]] } }),
      'unknown key "argz" in turn 1 nested.list[0][0]; did you mean "args"?',
    );
  });
  await t.step("in an object with a default", () => {
    assertEquals(
      explain({ usage: { inputTokens: 1, inputToken: 1 } }),
      'unknown key "inputToken" in turn 1 usage; did you mean "inputTokens"?',
    );
  });
  await t.step("under a catchall, where the key has no schema of its own: no guess", () => {
    const open = z.object({}).catchall(z.strictObject({ label: z.string() }));
    assertEquals(
      assertThrows(
        () => parseOrExplain(open, { other: { label: "x", lable: "x" } }, "turn 1"),
        InvalidScript,
      ).message,
      'unknown key "lable" in turn 1 other',
    );
    const inList = z.object({}).catchall(z.array(z.strictObject({ label: z.string() })));
    assertEquals(
      assertThrows(
        () => parseOrExplain(inList, { other: [{ label: "x", lable: "x" }] }, "turn 1"),
        InvalidScript,
      ).message,
      'unknown key "lable" in turn 1 other[0]',
    );
  });
  await t.step("under a record, where no key list is known: no guess", () => {
    assertEquals(
      explain({ meta: { a: { label: "x", lable: "x" } } }),
      'unknown key "lable" in turn 1 meta.a',
    );
  });
});

Deno.test("parseOrExplain() says where a wrong value is, in a path a reader can follow", () => {
  const message = explain({ toolCalls: [{ id: 1, name: "n", args: {} }] });
  assertEquals(message.startsWith("turn 1 toolCalls[0].id: "), true, message);
  const top = explain({ content: 5 });
  assertEquals(top.startsWith("turn 1 content: "), true, top);
  // The whole value wrong: no path at all.
  const whole = explain("not an object");
  assertEquals(whole.startsWith("turn 1: "), true, whole);
});

Deno.test("parseOrExplain() joins every problem into one message, then the hint", () => {
  const message = explain(
    { contnet: "hi", toolCalls: [{ id: 1, name: "n", args: {} }] },
    " (see docs)",
  );
  // zod's order: the wrong value, then the unknown key.
  const parts = message.split("; ");
  assertEquals(parts.length, 3, message);
  assertEquals(parts[0].startsWith("turn 1 toolCalls[0].id: "), true, message);
  assertEquals(parts[1], 'unknown key "contnet" in turn 1');
  assertEquals(parts[2], 'did you mean "content"? (see docs)');
  const error = assertThrows(() => parseOrExplain(schema, { content: 1 }, "turn 2"), InvalidScript);
  assertStrictEquals(
    error.message.endsWith("expected string, received number"),
    true,
    error.message,
  );
});
