import { assertEquals } from "@std/assert";
import { parseArgs } from "../../../runtime/providers/_tool_args.ts";

Deno.test("parseArgs(): a JSON object is the arguments; no text is no arguments", () => {
  assertEquals(parseArgs("c1", "f", '{"q":"x","n":[1]}'), {
    id: "c1",
    name: "f",
    args: { q: "x", n: [1] },
  });
  assertEquals(parseArgs("c2", "g", ""), { id: "c2", name: "g", args: {} });
  assertEquals(parseArgs("c3", "h", "{}"), { id: "c3", name: "h", args: {} });
});

Deno.test("parseArgs(): text that is not a JSON object is kept raw, with empty arguments", () => {
  for (const text of ["[1,2]", "null", "42", '"s"', "{not json", "true"]) {
    assertEquals(parseArgs("c", "f", text), {
      id: "c",
      name: "f",
      args: {},
      rawArgs: text,
    });
  }
});
