// A hostile provider on 127.0.0.1: every answer in ./_hostile_cases.ts sent
// to our ports and to the official clients. Ours must end each one clearly
// (a classified ProviderError, or the whole answer), never as an empty
// answer, a TypeError or a hang; docs/providers.md shows both, as measured.
import { assert, assertEquals } from "@std/assert";
import { CASES, outcomeOfClient, outcomeOfPort, serveCases } from "./_hostile_cases.ts";

Deno.test("hostile provider: every answer ends clearly in our ports", async (t) => {
  await using server = serveCases();
  const origin = `http://127.0.0.1:${server.addr.port}`;
  for (let i = 0; i < CASES.length; i++) {
    const c = CASES[i];
    const baseURL = `${origin}/case/${i}`;
    const ours = await outcomeOfPort(c, baseURL);
    await t.step(`${c.api} ${c.stream ? "stream" : "chat"}: ${c.name}`, () => {
      assertEquals(ours, c.ours);
      assert(!/TypeError|^answer "", stop$/.test(ours), ours);
    });
  }
});

// The rows of docs/providers.md's table, cell by cell (deno fmt pads them).
function docRows(md: string): string[][] {
  const begin = md.indexOf("<!-- hostile:begin -->");
  const end = md.indexOf("<!-- hostile:end -->");
  assert(begin >= 0 && end > begin, "docs/providers.md has the hostile:begin/end markers");
  return md.slice(begin, end).split("\n").filter((l) => l.startsWith("|")).slice(2).map((l) =>
    l.slice(1, -1).split(" | ").map((c) => c.trim())
  );
}

Deno.test("hostile provider: docs/providers.md shows what was measured", async () => {
  await using server = serveCases();
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const measured: string[][] = [];
  for (let i = 0; i < CASES.length; i++) {
    const c = CASES[i];
    const baseURL = `${origin}/case/${i}`;
    measured.push([
      c.api === "openai"
        ? "OpenAI"
        : c.api === "gemini"
        ? "Gemini"
        : c.api === "responses"
        ? "Responses"
        : "Anthropic",
      c.name,
      await outcomeOfPort(c, baseURL),
      await outcomeOfClient(c, baseURL),
    ]);
  }
  const md = await Deno.readTextFile(new URL("../../docs/providers.md", import.meta.url));
  const shown = docRows(md);
  if (Deno.env.get("HOSTILE_TABLE")) {
    console.log(
      [
        "| API | the provider answers | our port | the official client |",
        "| --- | --- | --- | --- |",
      ]
        .concat(measured.map((r) => `| ${r.join(" | ")} |`)).join("\n"),
    );
  }
  assertEquals(shown, measured, "regenerate the table: HOSTILE_TABLE=1 deno task test:net");
});
