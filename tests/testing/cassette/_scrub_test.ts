// The memoised scrubber gives exactly what Redactor.json gives (property).
import { assertEquals } from "@std/assert";
import fc from "fast-check";
import { Redactor } from "../../../runtime/internal.ts";
import { Scrubber } from "../../../testing/cassette/_scrub.ts";

const secretish = fc.constantFrom(
  "sk-proj-0123456789abcdefABCDEF",
  "Bearer abc.def.ghi",
  "password=hunter22",
  "literal-secret-value",
  "plain words",
);
const key = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom("apiKey", "token", "content", "authorization"),
);
const text = fc.oneof(fc.string({ maxLength: 20 }), secretish);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(key, tie("node"), { maxKeys: 4 }),
  ),
})).node;

Deno.test("Scrubber.json() equals Redactor.json(), first time and from its memo (property)", () => {
  const redactor = new Redactor({ literals: ["literal-secret-value"], extra: [/T-\d+/] });
  const scrubber = new Scrubber(redactor);
  fc.assert(
    fc.property(value, fc.boolean(), (v, secret) => {
      const expected = redactor.json(v, secret);
      assertEquals(scrubber.json(v, secret), expected);
      assertEquals(scrubber.json(v, secret), expected);
    }),
    { numRuns: 300 },
  );
});

Deno.test("Scrubber.json() hands an Error or a class instance to the redactor", () => {
  const redactor = new Redactor();
  const scrubber = new Scrubber(redactor);
  const error = new Error("key sk-proj-0123456789abcdefABCDEF");
  assertEquals(scrubber.json({ e: error }), redactor.json({ e: error }));
  const date = new Date(0);
  assertEquals(scrubber.json([date]), redactor.json([date]));
});

Deno.test("Scrubber scrubs each distinct string once, and names secret keys as the redactor does", () => {
  let texts = 0;
  class Counting extends Redactor {
    override text(s: string): string {
      texts++;
      return super.text(s);
    }
  }
  const scrubber = new Scrubber(new Counting());
  const value = {
    messages: [{ content: "same" }, { content: "same" }, { content: "other" }],
    n: 1,
  };
  assertEquals(scrubber.json(value), value);
  assertEquals(texts, 2);
  scrubber.json([value, "same", null, 3]);
  assertEquals(texts, 2);
  assertEquals(scrubber.field("fresh", false), "fresh");
  assertEquals(texts, 3);
  assertEquals(scrubber.field("fresh", true), "[REDACTED]");
  assertEquals([scrubber.secretName("apiKey"), scrubber.secretName("content")], [true, false]);
  assertEquals(scrubber.secretName("apiKey"), true);
});
