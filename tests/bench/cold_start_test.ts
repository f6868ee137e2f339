import { assertEquals } from "@std/assert";
import {
  COLD_HEADING,
  median,
  overheadRatios,
  sectionOf,
  withSection,
} from "../../bench/cold_start.ts";

Deno.test("cold_start overheadRatios() compares each round's costs over that round's empty process", () => {
  const rounds: Record<string, number>[] = [
    { empty: 40, ours: 140, peer: 240 },
    { empty: 60, ours: 110, peer: 160 },
    // A round missing a subject is left out, and so is one where ours cost nothing.
    { empty: 50, ours: 150 },
    { empty: 50, ours: 50, peer: 90 },
  ];
  assertEquals(overheadRatios(rounds, "ours", "peer", "empty"), [2, 2]);
});

Deno.test("cold_start median() takes the middle value, or the mean of the middle two", () => {
  assertEquals([median([3, 1, 2]), median([4, 1, 3, 2]), median([])], [2, 2.5, undefined]);
});

Deno.test("cold_start withSection() replaces its section and keeps the rest of RESULTS.md", () => {
  const before =
    `# Results\n\n## Targets\n\nt\n\n${COLD_HEADING}\n\nold\n\n## How it is measured\n\nm\n`;
  const after = withSection(before, `${COLD_HEADING}\n\nnew`);
  assertEquals(
    after,
    `# Results\n\n## Targets\n\nt\n\n${COLD_HEADING}\n\nnew\n\n## How it is measured\n\nm\n`,
  );
  assertEquals(sectionOf(after), `${COLD_HEADING}\n\nnew`);
  // With no section yet, it goes at the end; a file without one has none to keep.
  assertEquals(
    withSection("# Results\n", `${COLD_HEADING}\n\nx`),
    `# Results\n\n${COLD_HEADING}\n\nx\n`,
  );
  assertEquals(sectionOf("# Results\n"), "");
});
