import { assert, assertEquals, assertFalse, assertThrows } from "@std/assert";
import {
  absoluteRef,
  FORMAT,
  LOOSE_PATTERN,
  prepare,
  ROOT_URI,
  stampRef,
} from "../../../testing/llm/_schema_copy.ts";
import { SchemaUnsatisfiable } from "../../../testing/llm/_schema_unsatisfiable.ts";

function copy(schema: unknown): Record<string | symbol, unknown> {
  return prepare(schema).root as Record<string | symbol, unknown>;
}

function refused(schema: unknown): SchemaUnsatisfiable {
  return assertThrows(() => prepare(schema), SchemaUnsatisfiable);
}

Deno.test("prepare() copies: the schema given is never stamped or changed", () => {
  const schema = Object.freeze({
    type: "object",
    properties: Object.freeze({ a: Object.freeze({ $ref: "#/$defs/a" }) }),
    $defs: Object.freeze({ a: Object.freeze({ type: "integer" }) }),
  });
  const { root, lookup } = prepare(schema);
  assert(root !== schema);
  assertEquals(root, schema);
  const part = (root as { properties: { a: object } }).properties.a;
  assertEquals(absoluteRef(part), `${ROOT_URI}#/$defs/a`);
  assertEquals(lookup[`${ROOT_URI}#/$defs/a`], { type: "integer" });
  assertEquals(prepare(undefined).root, true);
});

Deno.test("prepare() drops keywords of the wrong type and reads draft 4's exclusive bounds", () => {
  const s = copy({
    minimum: "1",
    maxLength: null,
    minItems: true,
    maxContains: "2",
    multipleOf: -3,
    enum: "x",
    required: ["a", 1, "b"],
    properties: [],
    anyOf: {},
    uniqueItems: "yes",
    $ref: 5,
    dependentRequired: { a: ["b"], c: "d" },
  });
  assertEquals(s, { required: ["a", "b"], dependentRequired: { a: ["b"] } });
  assertEquals(copy({ multipleOf: 0 }), {});
  assertEquals(copy({ multipleOf: 0.5 }), { multipleOf: 0.5 });
  assertEquals(copy({ minimum: 2, exclusiveMinimum: true }), { exclusiveMinimum: 2 });
  assertEquals(copy({ maximum: 5, exclusiveMaximum: true }), { exclusiveMaximum: 5 });
  assertEquals(copy({ minimum: 2, exclusiveMinimum: false }), { minimum: 2 });
  assertEquals(copy({ exclusiveMaximum: true }), {});
  assertEquals(copy({ dependentRequired: ["a"] }), {});
  // Data is copied as it is: a const that looks like a schema is not one.
  assertEquals(copy({ const: { minimum: "1", format: 5 } }), {
    const: { minimum: "1", format: 5 },
  });
  assertEquals(copy({ enum: [undefined, () => 1] }), { enum: [null, null] });
  assertEquals(copy({ default: { f: () => 1, u: undefined, n: 1 } }), { default: { n: 1 } });
});

Deno.test("prepare() keeps format and a pattern only unicode mode refuses out of the validator's sight", () => {
  const s = copy({ type: "string", format: "time", pattern: "^a{,3}$" });
  assertEquals(Object.keys(s), ["type"]);
  assertEquals([s[FORMAT], s[LOOSE_PATTERN]], ["time", "^a{,3}$"]);
  assertFalse(FORMAT in copy({ format: 5 }));
  assertEquals(copy({ pattern: "^\\d+$" }), { pattern: "^\\d+$" });
  assertEquals(copy({ pattern: 5 }), {});
});

Deno.test("prepare() copies every place a schema can be", () => {
  const inner = { type: "integer", minimum: "x" };
  const clean = { type: "integer" };
  const s = copy({
    items: [inner],
    prefixItems: [inner],
    allOf: [inner],
    anyOf: [inner],
    oneOf: [inner],
    not: inner,
    if: inner,
    then: inner,
    else: inner,
    contains: inner,
    additionalProperties: inner,
    additionalItems: inner,
    propertyNames: inner,
    unevaluatedItems: inner,
    unevaluatedProperties: inner,
    properties: { a: inner },
    patternProperties: { "^a": inner },
    $defs: { a: inner },
    definitions: { a: inner },
    dependentSchemas: { a: inner },
    dependencies: { a: inner, b: ["a"] },
  });
  assertEquals(s, {
    items: [clean],
    prefixItems: [clean],
    allOf: [clean],
    anyOf: [clean],
    oneOf: [clean],
    not: clean,
    if: clean,
    then: clean,
    else: clean,
    contains: clean,
    additionalProperties: clean,
    additionalItems: clean,
    propertyNames: clean,
    unevaluatedItems: clean,
    unevaluatedProperties: clean,
    properties: { a: clean },
    patternProperties: { "^a": clean },
    $defs: { a: clean },
    definitions: { a: clean },
    dependentSchemas: { a: clean },
    dependencies: { a: clean, b: ["a"] },
  });
  assertEquals(copy({ items: inner }), { items: clean });
});

Deno.test("prepare() refuses what no validator reads, with the path", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.not = cyclic;
  assertEquals([refused(cyclic).path, refused(cyclic).reason], [
    "#/not",
    "the schema contains itself (an object cycle); write the recursion as a $ref",
  ]);
  // The same object twice, side by side, is no cycle.
  const shared = { type: "string" };
  assertEquals(copy({ anyOf: [shared, shared] }), { anyOf: [shared, shared] });
  const bad = refused({ properties: { a: { pattern: "((" } } });
  assertEquals([bad.path, bad.reason], [
    "#/properties/a/pattern",
    '"((" is not a valid regular expression',
  ]);
  const names = refused({ patternProperties: { "a{,3}": {} } });
  assertEquals(names.path, "#/patternProperties/a{,3}");
  const dangling = refused({ properties: { a: { $ref: "#/$defs/none" } } });
  assertEquals([dangling.path, dangling.reason], [
    "#/properties/a",
    "$ref #/$defs/none points at nothing",
  ]);
  assertEquals(
    refused({ $ref: "other.json" }).reason,
    'only local $refs are supported (a JSON pointer, an $anchor or an $id in the same schema), got "other.json"',
  );
  assertEquals(refused({ $ref: "#nowhere" }).reason, "$ref #nowhere points at nothing");
  const twice = refused({ $defs: { a: { $id: "x.json" }, b: { $id: "x.json" } } });
  assertEquals(twice.path, "#");
  assert(twice.reason.startsWith("the validator cannot index the schema: Duplicate schema URI"));
});

Deno.test("prepare() indexes what a pointer names that is no schema, for the generator to refuse", () => {
  const { lookup } = prepare({
    $defs: { odd: 5, "a b": { const: 1 } },
    anyOf: [{ $ref: "#/$defs/odd" }],
  });
  assertEquals(lookup[`${ROOT_URI}#/$defs/odd`], 5);
  assertEquals(
    refused({ $defs: { n: null }, $ref: "#/$defs/n/x" }).reason,
    "$ref #/$defs/n/x points at nothing",
  );
  assertEquals(
    refused({ $defs: {}, $ref: "#/$defs/toString" }).reason,
    "$ref #/$defs/toString points at nothing",
  );
});

Deno.test("stampRef() marks a merge's $ref without making it a keyword", () => {
  const part = { $ref: "#/a" };
  stampRef(part, `${ROOT_URI}#/a`);
  assertEquals([absoluteRef(part), Object.keys(part)], [`${ROOT_URI}#/a`, ["$ref"]]);
  const plain = {};
  stampRef(plain, undefined);
  assertEquals(absoluteRef(plain), undefined);
});
