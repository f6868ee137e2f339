// The options checker itself, rule by rule: which values each rule takes,
// which kind of failure (type or range) it gives for the others, and what the
// messages name (the option, the value given, the nearest valid key).
import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { Budget } from "@agentkit/testing/runtime";
import {
  checkOptions,
  checkValue,
  describe,
  is,
  LIMITS,
  nearest,
  ports,
  type Rule,
  tokenCount,
  withChecked,
} from "../../runtime/_options.ts";

// The verdict of a rule: "ok", "type" or "range".
function verdict(rule: Rule, value: unknown): string {
  return rule.test(value, "opt")?.kind ?? "ok";
}

function verdicts(rule: Rule, values: readonly unknown[]): string[] {
  return values.map((v) => verdict(rule, v));
}

Deno.test("nearest(): case and separators do not count; a near key, a unique stem, or nothing", () => {
  const known = ["maxCalls", "maxTokens", "maxCostUsd", "name"];
  assertEquals(nearest("MAX_CALLS", known), "maxCalls");
  assertEquals(nearest("max-tokens", known), "maxTokens");
  assertEquals(nearest("maxCals", known), "maxCalls");
  assertEquals(nearest("nmae", known), "name");
  // Distance 2 is always near; beyond that only within a third of the key.
  assertEquals(nearest("xame", ["name"]), "name");
  assertEquals(nearest("xxme", ["name"]), "name");
  assertEquals(nearest("xxxe", ["name"]), undefined);
  assertEquals(nearest("zzzzefghijkl", ["abcdefghijkl"]), "abcdefghijkl");
  assertEquals(nearest("zzzzzfghijkl", ["abcdefghijkl"]), undefined);
  // A unique prefix ("maxCost" of "maxCostUsd"), then a unique three-letter stem.
  assertEquals(nearest("maxCost", ["maxCostUsd", "name"]), "maxCostUsd");
  assertEquals(nearest("args", ["arguments", "name"]), "arguments");
  assertEquals(nearest("argsXYZW", ["arguments", "name"]), "arguments");
  assertEquals(nearest("maxZZZZZ", known), undefined);
  assertEquals(nearest("maxC", ["maxCalls", "maxCostUsd", "z"]), undefined);
  // Too short for a stem.
  assertEquals(nearest("ma", ["maxCostUsd", "zzzzzzzzzz"]), undefined);
  assertEquals(nearest("q", []), undefined);
  // Between equally near keys, the first listed.
  assertEquals(nearest("ab", ["ax", "ay"]), "ax");
});

Deno.test("describe(): how each kind of value reads in a message", () => {
  assertEquals(describe(null), "null");
  assertEquals(describe(undefined), "undefined");
  assertEquals(describe(function meter() {}), "a function named meter");
  assertEquals(describe(() => {}), "an anonymous function");
  assertEquals(describe(-1), "-1");
  assertEquals(describe(NaN), "NaN");
  assertEquals(describe("abc"), '"abc"');
  assertEquals(describe([1, "a"]), 'an array ([1,"a"])');
  assertEquals(describe(new Budget()), "a Budget");
  assertEquals(describe({ now: () => 0, sleep: () => {}, x: 1 }), "an object with now, sleep, x");
  const many = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`k${i}`, () => i]),
  );
  assertEquals(describe(many), "an object with k0, k1, k2, k3, k4, k5, k6, k7");
  assertEquals(describe({ a: 1 }), '{"a":1}');
  const bare = Object.create(null);
  bare.a = 2;
  assertEquals(describe(bare), '{"a":2}');
  // A prototype whose constructor has no name reads as its keys.
  const nameless = Object.create({ constructor: {} });
  nameless.b = 3;
  assertEquals(describe(nameless), '{"b":3}');
  // A prototype with no constructor at all reads the same way.
  const orphan = Object.create(Object.create(null));
  orphan.c = 4;
  assertEquals(describe(orphan), '{"c":4}');
});

Deno.test("checkOptions(): returns the bag itself; undefined is no bag unless keys are required", () => {
  const rules = { a: is.count, b: is.text };
  const bag = { a: 1 };
  assertStrictEquals(checkOptions("f()", bag, rules), bag);
  assertStrictEquals(checkOptions("f()", undefined, rules), undefined);
  assertThrows(() => checkOptions("f()", undefined, rules, { required: ["b"] }), TypeError, '"b"');
  assertStrictEquals(checkOptions("f()", null, rules, { optional: true }), null);
  // An optional bag that is given is checked.
  assertThrows(() => checkOptions("f()", { a: -1 }, rules, { optional: true }), RangeError);
  assertThrows(
    () => checkOptions("f()", null, rules, { optional: true, required: ["a"] }),
    TypeError,
  );
  for (const bad of [null, 3, "x", [], true]) {
    assertThrows(() => checkOptions("f()", bad, rules), TypeError, "f()");
  }
  // An explicit undefined is an absent option.
  assertStrictEquals(checkOptions("f()", { a: undefined, b: "x" }, rules).b, "x");
  const e = assertThrows(
    () => checkOptions("f()", { a: 1 }, rules, { required: ["b"] }),
    TypeError,
  );
  assert(e.message.includes('"b"'), e.message);
  checkOptions("f()", { b: "y" }, rules, { required: ["b"] });
  // Keys a plain object inherits are not options.
  assertThrows(() => checkOptions("f()", { toString: 1 }, rules), TypeError, '"toString"');
});

Deno.test("checkOptions(): an unknown key names the nearest option, or the hint instead", () => {
  const rules = { maxCalls: is.count };
  const near = assertThrows(() => checkOptions("f()", { maxcall: 1 }, rules), TypeError);
  assert(near.message.includes('"maxCalls"'), near.message);
  const far = assertThrows(() => checkOptions("f()", { zzzzzz: 1 }, rules), TypeError);
  assert(!far.message.includes("did you mean"), far.message);
  const hinted = assertThrows(
    () => checkOptions("f()", { maxcall: 1 }, rules, { hints: { maxcall: "goes elsewhere" } }),
    TypeError,
  );
  assert(hinted.message.includes("goes elsewhere"), hinted.message);
  assert(!hinted.message.includes("did you mean"), hinted.message);
  const none = assertThrows(() => checkOptions("f()", { a: 1 }, {}), TypeError);
  assert(none.message.includes("none"), none.message);
});

Deno.test("checkOptions() and checkValue(): the failure's kind picks TypeError or RangeError", () => {
  assertThrows(() => checkOptions("f()", { n: -1 }, { n: is.count }), RangeError, '"n"');
  assertThrows(() => checkOptions("f()", { n: "1" }, { n: is.count }), TypeError, '"n"');
  assertThrows(() => checkValue("f()", "the count", -1, is.count), RangeError, "the count");
  assertThrows(() => checkValue("f()", "the count", "1", is.count), TypeError, "the count");
  checkValue("f()", "the count", 1, is.count);
  // A rule's own sentence replaces the generic one.
  const own: Rule = { accepts: "x", test: () => ({ kind: "type", message: "say this" }) };
  const e = assertThrows(() => checkValue("f()", "v", 1, own), TypeError);
  assertEquals(e.message, "f(): say this");
});

Deno.test("number rules: type for a non-number, range for NaN, Infinity and out-of-bounds values", () => {
  const values = [0, 1, 1.5, -1, NaN, Infinity, -Infinity, "1", Number.MIN_VALUE];
  assertEquals(verdicts(is.ms, values), [
    "ok",
    "ok",
    "ok",
    "range",
    "range",
    "range",
    "range",
    "type",
    "ok",
  ]);
  assertEquals(verdicts(is.positiveMs, values), [
    "range",
    "ok",
    "ok",
    "range",
    "range",
    "range",
    "range",
    "type",
    "ok",
  ]);
  assertEquals(verdicts(is.count, values), [
    "ok",
    "ok",
    "range",
    "range",
    "range",
    "range",
    "range",
    "type",
    "range",
  ]);
  assertEquals(verdicts(is.fraction, [0, 1, 0.5, 1.01, -0.01]), [
    "ok",
    "ok",
    "ok",
    "range",
    "range",
  ]);
  const bounded = is.number({ min: 1, max: 3, integer: true });
  assertEquals(verdicts(bounded, [0, 1, 2, 3, 4, 2.5]), [
    "range",
    "ok",
    "ok",
    "ok",
    "range",
    "range",
  ]);
  const open = is.number({ min: 0, infinite: true });
  assertEquals(verdicts(open, [Infinity, -Infinity, NaN, 5]), ["ok", "range", "range", "ok"]);
  assertEquals(verdicts(is.number(), [-1e9, 1e9, Infinity]), ["ok", "ok", "range"]);
  assertEquals(verdicts(is.number({ max: 5 }), [5, 6, -100]), ["ok", "range", "ok"]);
});

Deno.test("is.number(): what it accepts names its bounds", () => {
  const has = (rule: Rule, ...parts: string[]) =>
    assert(parts.every((p) => rule.accepts.includes(p)), rule.accepts);
  has(is.number({ min: 1, max: 3 }), "1", "3");
  has(is.number({ min: 7 }), "7");
  has(is.number({ max: 9 }), "9");
  has(is.number({ min: 0, infinite: true }), "0", "Infinity");
  assert(!is.number({ min: 7 }).accepts.includes("Infinity"));
  assert(is.number({ integer: true }).accepts !== is.number().accepts);
  assert(is.number({ min: 1 }).accepts !== is.number({ max: 1 }).accepts);
});

Deno.test("scalar rules: string, text, boolean, function, object, error, any", () => {
  const values = ["", "a", 1, true, () => {}, {}, [], null, new Error("x"), Object.create(null)];
  assertEquals(verdicts(is.string, values).slice(0, 4), ["ok", "ok", "type", "type"]);
  assertEquals(verdicts(is.text, values).slice(0, 4), ["range", "ok", "type", "type"]);
  assertEquals(verdicts(is.boolean, [true, false, 0, "true"]), ["ok", "ok", "type", "type"]);
  assertEquals(verdicts(is.function, [() => {}, {}, null]), ["ok", "type", "type"]);
  assertEquals(verdicts(is.object, values), [
    "type",
    "type",
    "type",
    "type",
    "type",
    "ok",
    "type",
    "type",
    "type",
    "ok",
  ]);
  assertEquals(verdicts(is.object, [new Map(), undefined]), ["type", "type"]);
  assertEquals(verdicts(is.error, [new Error("x"), new TypeError("y"), { message: "z" }]), [
    "ok",
    "ok",
    "type",
  ]);
  assertEquals(verdicts(is.any, values), values.map(() => "ok"));
});

Deno.test("is.money: numbers and decimal strings; type for anything else, range for a bad amount", () => {
  assertEquals(verdicts(is.money, [0, "0.10", 1.5, "12"]), ["ok", "ok", "ok", "ok"]);
  assertEquals(verdicts(is.money, [true, null, {}, "ten"]), ["type", "type", "type", "type"]);
  assertEquals(verdicts(is.money, [-1, "-0.5", Infinity]), ["range", "range", "range"]);
  const f = is.money.test(-1, "maxCostUsd");
  assert(f?.message?.includes("maxCostUsd") && f.message.includes("-1"), f?.message);
  assertEquals(LIMITS.maxCalls, is.count);
});

Deno.test("oneOf, arrayOf, recordOf, either, instance", () => {
  const mode = is.oneOf(["a", 1]);
  assertEquals(verdicts(mode, ["a", 1, "1", "b"]), ["ok", "ok", "type", "type"]);
  assert(mode.accepts.includes('"a"') && mode.accepts.includes("1"), mode.accepts);

  const counts = is.arrayOf(is.count, 1);
  assertEquals(verdicts(counts, [[1], [1, 2], [], "1", [1, -1], [1, "x"]]), [
    "ok",
    "ok",
    "range",
    "type",
    "range",
    "type",
  ]);
  assertEquals(verdict(is.arrayOf(is.count), []), "ok");
  const bad = counts.test([1, 2, -3], "xs");
  assert(bad?.message?.includes("xs[2]") && bad.message.includes("-3"), bad?.message);
  assert(counts.accepts.includes("1") && !is.arrayOf(is.count).accepts.includes("at least"));
  // An element rule's own sentence is kept.
  const own: Rule = { accepts: "x", test: () => ({ kind: "range", message: "own words" }) };
  assertEquals(is.arrayOf(own).test([1], "xs"), { kind: "range", message: "own words" });

  const record = is.recordOf(is.text);
  assertEquals(verdicts(record, [{}, { a: "x" }, { a: "" }, { a: 1 }, [], null]), [
    "ok",
    "ok",
    "range",
    "type",
    "type",
    "type",
  ]);
  const inRecord = record.test({ a: "x", b: 2 }, "m");
  assert(inRecord?.message?.includes("m.b") && inRecord.message.includes("2"), inRecord?.message);
  assertEquals(is.recordOf(own).test({ k: 1 }, "m"), { kind: "range", message: "own words" });

  const countOrText = is.either(is.count, is.text);
  assertEquals(verdicts(countOrText, [1, "a", -1, "", true]), [
    "ok",
    "ok",
    "range",
    "range",
    "type",
  ]);
  assertEquals(verdict(is.either(is.string, is.count), -1), "range");
  assertEquals(verdict(is.either(is.count, is.string), -1), "range");
  assert(countOrText.accepts.includes(" or "), countOrText.accepts);
  assertEquals(is.either(is.count, is.text, "a count or a name").accepts, "a count or a name");

  const budget = is.instance(Budget);
  assertEquals(verdicts(budget, [new Budget(), {}, null]), ["ok", "type", "type"]);
  assert(budget.accepts.includes("Budget"), budget.accepts);
  assert(is.instance(Budget, "spending cap").accepts.includes("spending cap"));
});

Deno.test("is.port: an object or function with every named method", () => {
  const clock = is.port("a clock", ["now", "sleep"]);
  const fn = Object.assign(() => {}, { now: () => 0, sleep: () => {} });
  assertEquals(
    verdicts(clock, [
      { now: () => 0, sleep: () => {} },
      fn,
      { now: () => 0 },
      { now: 0, sleep: 0 },
      null,
      5,
    ]),
    ["ok", "ok", "type", "type", "type", "type"],
  );
  const f = clock.test({ now: () => 0 }, "clock");
  assert(f?.message?.includes("sleep()") && !f.message.includes("now()"), f?.message);
  assert(clock.accepts.includes("now()") && clock.accepts.includes("sleep()"), clock.accepts);
  assertEquals(verdicts(ports.signal, [new AbortController().signal, {}]), ["ok", "type"]);
  assertEquals(verdicts(ports.ctx, [{ checkCancelled() {}, emit() {} }, { emit() {} }]), [
    "ok",
    "type",
  ]);
});

Deno.test("is.middleware: chat takes chat() or stream(), tool takes call(); a factory is told to be called", () => {
  const chat = is.middleware("chat");
  const tool = is.middleware("tool");
  const values = [{ chat() {} }, { stream() {} }, { call() {} }, {}, null, 1];
  assertEquals(verdicts(chat, values), ["ok", "ok", "type", "type", "type", "type"]);
  assertEquals(verdicts(tool, values), ["type", "type", "ok", "type", "type", "type"]);
  function retry() {}
  const named = chat.test(retry, "mw[0]");
  assert(named?.message?.includes("retry()") && named.message.includes("mw[0]"), named?.message);
  assertEquals(named?.kind, "type");
  const anonymous = tool.test(() => {}, "mw[1]");
  assert(anonymous?.message?.includes("mw[1]"), anonymous?.message);
  assertEquals(anonymous?.kind, "type");
  assert(chat.accepts.includes("stream()") && !tool.accepts.includes("stream()"), tool.accepts);
});

Deno.test("tokenCount(): a non-negative safe integer; a missing cached count is 0", () => {
  assertEquals(tokenCount("x", { inputTokens: 3 }, "inputTokens"), 3);
  assertEquals(tokenCount("x", { inputTokens: 0 }, "inputTokens"), 0);
  assertEquals(tokenCount("x", {}, "cachedInputTokens"), 0);
  assertThrows(
    () => tokenCount("x", null, "cachedInputTokens"),
    TypeError,
    "usage must be a Usage",
  );
  assertThrows(() => tokenCount("x", [1], "inputTokens"), TypeError, "got an array");
  assertThrows(() => tokenCount("x", { inputTokens: NaN }, "inputTokens"), RangeError, "got NaN");
  assertThrows(() => tokenCount("x", { inputTokens: 2 ** 53 }, "inputTokens"), RangeError, "safe");
  assertEquals(tokenCount("x", { inputTokens: 2 ** 53 - 1 }, "inputTokens"), 2 ** 53 - 1);
  assertEquals(tokenCount("x", { cachedInputTokens: 2 }, "cachedInputTokens"), 2);
  assertThrows(() => tokenCount("x", {}, "inputTokens"), TypeError, "usage.inputTokens");
  assertThrows(() => tokenCount("x", undefined, "outputTokens"), TypeError, "x: usage must be");
  assertThrows(() => tokenCount("x", { inputTokens: "2" }, "inputTokens"), TypeError);
  assertThrows(() => tokenCount("x", { inputTokens: -1 }, "inputTokens"), RangeError);
  assertThrows(() => tokenCount("x", { inputTokens: 1.5 }, "inputTokens"), RangeError);
  assertThrows(() => tokenCount("x", { cachedInputTokens: -1 }, "cachedInputTokens"), RangeError);
  assertThrows(() => tokenCount("x", { cachedInputTokens: null }, "cachedInputTokens"), TypeError);
});

Deno.test("withChecked(): checks are off inside, nested too, and back on after, even after a throw", () => {
  const rules = { n: is.count };
  const bad = { n: -1, extra: 1 };
  assertStrictEquals(withChecked(() => checkOptions("f()", bad, rules)), bad);
  withChecked(() => {
    withChecked(() => checkOptions("f()", bad, rules));
    // Still off in the outer call once the inner one is done.
    checkOptions("f()", bad, rules);
  });
  assertThrows(() => checkOptions("f()", bad, rules), TypeError);
  assertThrows(
    () =>
      withChecked(() => {
        throw new Error("build failed");
      }),
    Error,
    "build failed",
  );
  assertThrows(() => checkOptions("f()", { n: -1 }, rules), RangeError);
});

Deno.test("checkOptions(): the first failure in rule order, whatever the order of the given keys", () => {
  const rules = { a: is.count, b: is.text };
  assertThrows(() => checkOptions("f()", { b: 5, a: -1 }, rules), RangeError, '"a"');
  assertThrows(() => checkOptions("f()", { b: "", a: 1 }, rules), RangeError, '"b"');
  assertThrows(() => checkOptions("f()", { b: 5, a: 1 }, rules), TypeError, '"b"');
  // An unknown key is reported before a bad value.
  assertThrows(() => checkOptions("f()", { a: -1, zz: 1 }, rules), TypeError, '"zz"');
});
