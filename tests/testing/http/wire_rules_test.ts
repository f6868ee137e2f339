// docs/providers.md's table of the strict wire is WIRE_RULES, row for row.
import { assert, assertEquals } from "@std/assert";
import { WIRE_RULES } from "@agentkit/testing/testing";
import { BEGIN, END, rows, table } from "../../../scripts/wire_rules_table.ts";

function cells(line: string): string[] {
  return line.trim().slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());
}

Deno.test("docs/providers.md: the strict wire's table is WIRE_RULES (regenerate: deno run --allow-read --allow-write scripts/wire_rules_table.ts)", async () => {
  const doc = await Deno.readTextFile(new URL("../../../docs/providers.md", import.meta.url));
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  assert(start >= 0 && end > start, "the markers are in docs/providers.md");
  const lines = doc.slice(start + BEGIN.length, end).trim().split("\n");
  assertEquals(cells(lines[0]), ["rule", "APIs", "rejects", "source"]);
  assertEquals(lines.slice(2).map(cells), rows());
  assertEquals(rows().length, Object.keys(WIRE_RULES).length);
});

Deno.test("scripts/wire_rules_table.ts: one row per rule, pipes escaped, an API's lines kept apart", () => {
  const all = rows();
  const name = all.find((r) => r[0] === "`tool-name-pattern`")!;
  assertEquals(name[1], "chat.completions, responses, messages, generateContent");
  assertEquals(name[2].split("<br>").length, 4);
  const content = all.find((r) => r[0] === "`message-content-type`")!;
  assert(content[3].includes("`string \\| Array<ContentBlockParam>`"), content[3]);
  assert(!table().split("\n").slice(2).some((l) => cells(l).length !== 4), "four cells a row");
});
