import { assertEquals, assertThrows } from "@std/assert";
import {
  claudeTurn,
  codexTurn,
  exitPartway,
  insertLines,
  InvalidScript,
  latin1Line,
  rawLine,
  truncateLastLine,
  unknownEventLine,
  withoutFinalLine,
} from "@agentkit/testing/testing";

const parse = (lines: readonly (string | Uint8Array)[]) =>
  lines.map((l) => JSON.parse(l as string));

Deno.test("claudeTurn() emits claude's line order, with the usage on the first assistant message and the result", () => {
  const turn = claudeTurn({
    text: "Done.",
    toolUses: [{ name: "Read", input: { file_path: "a.ts" }, result: "x", isError: true }],
    usage: { inputTokens: 100, outputTokens: 7, cachedInputTokens: 900 },
    costUsd: 0.5,
    sessionId: "s-9",
  });
  const [init, use, result, text, end] = parse(turn.lines);
  assertEquals([init.type, init.subtype, init.session_id], ["system", "init", "s-9"]);
  assertEquals(use.message.content, [
    { type: "tool_use", id: "toolu_01", name: "Read", input: { file_path: "a.ts" } },
  ]);
  assertEquals(use.message.usage, {
    input_tokens: 100,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 900,
    output_tokens: 7,
  });
  assertEquals(result.message.content, [
    { type: "tool_result", tool_use_id: "toolu_01", content: "x", is_error: true },
  ]);
  assertEquals(text.message.usage.output_tokens, 0);
  assertEquals(
    [end.type, end.subtype, end.is_error, end.result, end.total_cost_usd, end.usage.input_tokens],
    ["result", "success", false, "Done.", 0.5, 100],
  );
});

Deno.test("claudeTurn() and codexTurn() validate their options with a did-you-mean", async (t) => {
  await t.step("claudeTurn", () => {
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => claudeTurn({ text: "x", toolUse: [] } as any),
      InvalidScript,
      'unknown key "toolUse" in claudeTurn options; did you mean "toolUses"?',
    );
  });
  await t.step("codexTurn", () => {
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => codexTurn({ text: "x", usgae: [1, 0, 1] } as any),
      InvalidScript,
      'did you mean "usage"?',
    );
  });
  await t.step("codexTurn usage in the wrong convention", () => {
    assertThrows(
      () => codexTurn({ text: "x", usage: [200, 1000, 40] }),
      InvalidScript,
      "codex counts input inclusive of the cached part",
    );
  });
});

Deno.test("codexTurn() keeps the CLI's inclusive input count: the builder does not subtract", () => {
  const turn = codexTurn({ text: "done", usage: [1200, 1000, 40], commands: [{ command: "ls" }] });
  const events = parse(turn.lines);
  assertEquals(events.map((e) => e.type), [
    "thread.started",
    "turn.started",
    "item.started",
    "item.completed",
    "item.completed",
    "turn.completed",
  ]);
  assertEquals(events.at(-1).usage, {
    input_tokens: 1200,
    cached_input_tokens: 1000,
    output_tokens: 40,
  });
});

Deno.test("the malformed-output builders refuse what they cannot build", async (t) => {
  const run = codexTurn({ text: "x" });
  await t.step("truncateLastLine keep out of range", () => {
    assertThrows(() => truncateLastLine(run, 999), InvalidScript, "keep must be an integer");
    assertThrows(() => truncateLastLine({ lines: [] }), InvalidScript, "no lines");
  });
  await t.step("exitPartway afterLines out of range", () => {
    assertThrows(() => exitPartway(run, { afterLines: 9 }), InvalidScript, "from 0 to 4");
  });
  await t.step("insertLines index out of range", () => {
    assertThrows(() => insertLines(run, -1, unknownEventLine()), InvalidScript, "from 0 to 4");
  });
  await t.step("latin1Line beyond U+00FF", () => {
    assertThrows(() => latin1Line("€"), InvalidScript, "Latin-1 stops at U+00FF");
  });
  await t.step("withoutFinalLine of nothing", () => {
    assertThrows(() => withoutFinalLine({ lines: [] }), InvalidScript, "no lines");
  });
  await t.step("rawLine copies its input", () => {
    const bytes = new Uint8Array([1, 2]);
    const line = rawLine(bytes);
    bytes[0] = 9;
    assertEquals(line, new Uint8Array([1, 2]));
  });
});
