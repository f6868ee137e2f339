// Writes the strict wire's catalogue (WIRE_RULES) as the table in
// docs/providers.md, between its two markers, so the docs say what the code
// checks. tests/testing/http/wire_rules_test.ts fails when they differ.
//
//   deno run --allow-read --allow-write scripts/wire_rules_table.ts
import { WIRE_RULES } from "../testing/mod.ts";

/** The markers around the table in docs/providers.md. */
export const BEGIN =
  "<!-- WIRE_RULES table: deno run --allow-read --allow-write scripts/wire_rules_table.ts -->";
export const END = "<!-- end of the WIRE_RULES table -->";

const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", "<br>");

/** The table's rows: rule, APIs, what it rejects, its source, one row per rule id. */
export function rows(): string[][] {
  return Object.entries(WIRE_RULES).map(([id, r]) => [
    `\`${id}\``,
    r.api.join(", "),
    cell(r.description),
    cell(r.source),
  ]);
}

/** The table as markdown. */
export function table(): string {
  const lines = [["rule", "APIs", "rejects", "source"], ["---", "---", "---", "---"], ...rows()];
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
  console.log(`docs/providers.md: ${rows().length} rules`);
}
