// What every wire's parse shares, on its own: plain objects, text content,
// and the checks made before a wire reads anything of its own.
import { assertEquals } from "@std/assert";
import { NOT_AN_OBJECT, record, textOf, wireParser } from "../../../testing/http/_wire_request.ts";
import type { Problem } from "../../../testing/http/_wire.ts";

Deno.test("record() is a plain object or undefined", () => {
  const o = { a: 1 };
  assertEquals(record(o), o);
  for (const value of [null, undefined, [], "x", 7]) assertEquals(record(value), undefined);
});

Deno.test("textOf() joins text parts, skips parts without text, and refuses what is not text", () => {
  assertEquals(textOf("plain"), "plain");
  assertEquals([textOf(null), textOf(undefined)], ["", ""]);
  assertEquals(
    textOf([{ type: "text", text: "a" }, { type: "image" }, { text: 7 }, { text: "b" }]),
    "ab",
  );
  assertEquals([textOf(7), textOf({ text: "x" }), textOf([null]), textOf(["x"])], [
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

Deno.test("wireParser() answers a body that is not an object, or names no model, before the wire reads it", () => {
  const noModel: Problem = { status: 400, message: "no model" };
  let read = 0;
  const parse = wireParser(noModel, (body) => {
    read++;
    return { chat: { model: body.model, messages: [] }, stream: false, includeUsage: false };
  });
  for (const body of [null, [], "x", 7]) assertEquals(parse(body), NOT_AN_OBJECT);
  for (const model of [undefined, "", 7]) assertEquals(parse({ model }), noModel);
  assertEquals(read, 0);
  assertEquals(parse({ model: "m" }), {
    chat: { model: "m", messages: [] },
    stream: false,
    includeUsage: false,
  });
});
