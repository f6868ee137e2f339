// The JSON template: its writes are JSON.stringify of the object with the
// open fields' values put in, for any object and any choice of open fields.
import { assertEquals, assertThrows } from "@std/assert";
import fc from "fast-check";
import { JsonTemplate } from "../../../testing/http/_json_template.ts";

Deno.test("JsonTemplate: a write is the object's JSON with the open values in place", () => {
  const object = { id: "r1", status: "x", tools: [{ a: 1 }], output: "x", user: null };
  const t = new JsonTemplate(object, ["status", "output"]);
  assertEquals(
    t.write(['"done"', "[1,2]"]),
    '{"id":"r1","status":"done","tools":[{"a":1}],"output":[1,2],"user":null}',
  );
  // Open fields first, last, side by side, or all of them.
  assertEquals(new JsonTemplate({ a: 1, b: 2 }, ["a"]).write(["3"]), '{"a":3,"b":2}');
  assertEquals(new JsonTemplate({ a: 1, b: 2 }, ["b"]).write(["3"]), '{"a":1,"b":3}');
  assertEquals(new JsonTemplate({ a: 1, b: 2 }, ["a", "b"]).write(["3", "4"]), '{"a":3,"b":4}');
  assertEquals(new JsonTemplate({}, []).write([]), "{}");
  // An undefined field is left out, as JSON.stringify leaves it out.
  assertEquals(new JsonTemplate({ a: undefined, b: 1, c: 2 }, ["c"]).write(["0"]), '{"b":1,"c":0}');
  // A field named __proto__ (JSON.parse makes one) is written as a field.
  const proto = JSON.parse('{"__proto__":{"x":1},"s":0}');
  assertEquals(new JsonTemplate(proto, ["s"]).write(["1"]), '{"__proto__":{"x":1},"s":1}');
});

Deno.test("JsonTemplate: an open field the object lacks, or out of order, is refused", () => {
  assertThrows(() => new JsonTemplate({ a: 1 }, ["b"]), RangeError, '"b"');
  assertThrows(() => new JsonTemplate({ a: 1, b: 2 }, ["b", "a"]), RangeError, '"a"');
});

Deno.test("JsonTemplate: property: any object, any open fields, any values", () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.array(fc.boolean(), { maxLength: 20 }),
      fc.array(fc.jsonValue(), { minLength: 20, maxLength: 20 }),
      (object, picks, values) => {
        const keys = Object.keys(object);
        const open = keys.filter((_, i) => picks[i] === true);
        const filled: Record<string, unknown> = JSON.parse(JSON.stringify(object));
        open.forEach((k, i) => filled[k] = values[i]);
        const written = new JsonTemplate(object, open).write(
          open.map((_, i) => JSON.stringify(values[i])),
        );
        assertEquals(written, JSON.stringify(filled));
      },
    ),
  );
});
