// The readers a port reads a provider's JSON through: each passes the
// documented shape and names the field of anything else.
import { assert, assertEquals, assertInstanceOf, assertThrows } from "@std/assert";
import { ProviderResponseError } from "@agentkit/testing/ports";
import {
  isObject,
  MalformedAnswer,
  objectAt,
  stringAt,
  tokensAt,
} from "../../../runtime/providers/_wire_shape.ts";

Deno.test("isObject(): a JSON object, not null, not an array", () => {
  assertEquals([isObject({}), isObject({ a: 1 }), isObject(null), isObject([]), isObject("x")], [
    true,
    true,
    false,
    false,
    false,
  ]);
});

Deno.test("objectAt() / stringAt() / tokensAt(): the value, or a MalformedAnswer naming the path", () => {
  const o = { a: 1 };
  assertEquals(objectAt("P", "x", o), o);
  assertEquals([stringAt("P", "x", "s"), stringAt("P", "x", ""), stringAt("P", "x", null)], [
    "s",
    "",
    undefined,
  ]);
  assertEquals(stringAt("P", "x", undefined), undefined);
  assertEquals([tokensAt("P", "x", 0), tokensAt("P", "x", 7), tokensAt("P", "x", null)], [
    0,
    7,
    undefined,
  ]);
  assertEquals(tokensAt("P", "x", undefined), undefined);
  for (const bad of [null, [], "o", 1]) {
    const e = assertThrows(() => objectAt("Prov", "the.path", bad), MalformedAnswer);
    assert(
      e.message.startsWith(
        "Prov sent an answer that is not its API's shape: the.path must be an object, got ",
      ),
      e.message,
    );
  }
  for (const bad of [1, {}, [], true]) {
    assertThrows(() => stringAt("P", "s.path", bad), MalformedAnswer, "s.path must be a string");
  }
  for (const bad of ["7", -1, 1.5, NaN, Infinity, 2 ** 53, {}, true]) {
    assertThrows(
      () => tokensAt("P", "u.n", bad),
      MalformedAnswer,
      "u.n must be a non-negative integer token count",
    );
  }
});

Deno.test("MalformedAnswer: a non-retryable pre_stream ProviderResponseError that shows what came", () => {
  const e = new MalformedAnswer("OpenAI", "choices must be an array", { choices: 5 });
  assertInstanceOf(e, ProviderResponseError);
  assertEquals([e.name, e.retryable, e.phase], ["ProviderResponseError", false, "pre_stream"]);
  assert(e.message.includes('got {"choices":5}'), e.message);
  assert(e.message.includes("nothing of the answer was used"), e.message);
});
