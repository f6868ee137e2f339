// Writes the shape catalogue (testing/http/_shapes.ts) as the table of what
// FakeProvider sends in docs/providers.md, between its two markers, so the
// docs say what the code sends. tests/testing/http/shapes_test.ts fails when
// they differ.
//
//   deno run --allow-read --allow-write scripts/wire_shapes_table.ts
import { SHAPES } from "../testing/http/_shapes.ts";

/** The markers around the table in docs/providers.md. */
export const BEGIN =
  "<!-- WIRE_SHAPES table: deno run --allow-read --allow-write scripts/wire_shapes_table.ts -->";
export const END = "<!-- end of the WIRE_SHAPES table -->";

const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", "<br>");
const code = (paths: string[]): string => paths.map((p) => `\`${p}\``).join(", ");

/** The table's rows: API, kind, when, always sent, sent when it applies, sources. */
export function rows(): string[][] {
  return SHAPES.map((s) => [
    s.api,
    `\`${s.kind}\``,
    cell(s.when),
    cell(code(s.fields.filter((f) => f.always).map((f) => f.path))),
    cell(code(s.fields.filter((f) => !f.always).map((f) => f.path))),
    cell([...new Set(s.fields.map((f) => f.source))].join("; ")),
  ]);
}

/** The table as markdown. */
export function table(): string {
  const lines = [
    ["API", "kind", "when", "always sent", "sent when it applies", "sources"],
    ["---", "---", "---", "---", "---", "---"],
    ...rows(),
  ];
  return lines.map((r) => `| ${r.join(" | ")} |`).join("\n");
}

if (import.meta.main) {
  const url = new URL("../docs/providers.md", import.meta.url);
  const doc = await Deno.readTextFile(url);
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) {
    throw new Error(`docs/providers.md lacks the markers ${BEGIN} … ${END}`);
  }
  await Deno.writeTextFile(
    url,
    `${doc.slice(0, start + BEGIN.length)}\n\n${table()}\n\n${doc.slice(end)}`,
  );
  console.log(`docs/providers.md: ${rows().length} kinds of answer`);
}
