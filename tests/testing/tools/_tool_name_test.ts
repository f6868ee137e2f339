import { assertEquals } from "@std/assert";
import { toolName } from "../../../testing/tools/_tool_name.ts";

Deno.test("toolName: letters, digits, _ and -, 1 to 64, not starting with a digit or a dash", () => {
  for (const ok of ["t", "_", "lookup_cert", "fs-read", "A1", "a".repeat(64), "_9"]) {
    assertEquals(toolName.test(ok, "name"), undefined, ok);
  }
  const fails: [unknown, "type" | "range", string][] = [
    [5, "type", ""],
    ["", "range", 'name "" is empty'],
    ["my tool", "range", 'name "my tool" has " " at 2, which providers refuse'],
    ["fs.read", "range", 'has "." at 2'],
    ["a".repeat(65), "range", "is 65 characters long"],
    ["a".repeat(1 << 20), "range", "is 1048576 characters long"],
    ["1tool", "range", "starts with a digit or a dash, which Gemini refuses"],
    ["-x", "range", "starts with a digit or a dash"],
    ["ünï", "range", 'has "ü" at 0'],
  ];
  for (const [value, kind, message] of fails) {
    const f = toolName.test(value, "name");
    assertEquals(f?.kind, kind, String(value).slice(0, 20));
    if (message) {
      assertEquals(f?.message?.includes(message), true, f?.message);
      assertEquals(f?.message?.includes("a tool name is 1 to 64 letters"), true, f?.message);
    }
  }
  // A long name is shown cut, never whole.
  assertEquals(toolName.test("a ".repeat(1 << 19), "name")!.message!.length < 600, true);
});
