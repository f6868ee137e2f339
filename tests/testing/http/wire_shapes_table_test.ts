// docs/providers.md's table of what the fake sends is the shape catalogue
// (testing/http/_shapes.ts), row for row.
import { assert, assertEquals } from "@std/assert";
import { SHAPES } from "../../../testing/http/_shapes.ts";
import { BEGIN, END, rows, table } from "../../../scripts/wire_shapes_table.ts";

const cells = (line: string): string[] => line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());

Deno.test("docs/providers.md: the table of what the fake sends is the shape catalogue (regenerate: deno run --allow-read --allow-write scripts/wire_shapes_table.ts)", async () => {
  const doc = await Deno.readTextFile(new URL("../../../docs/providers.md", import.meta.url));
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  assert(start >= 0 && end > start, "the markers are in docs/providers.md");
  const lines = doc.slice(start + BEGIN.length, end).trim().split("\n");
  assertEquals(cells(lines[0]), [
    "API",
    "kind",
    "when",
    "always sent",
    "sent when it applies",
    "sources",
  ]);
  assertEquals(lines.slice(2).map(cells), rows());
  assertEquals(rows().length, SHAPES.length);
  assert(!table().split("\n").slice(2).some((l) => cells(l).length !== 6), "six cells a row");
});
