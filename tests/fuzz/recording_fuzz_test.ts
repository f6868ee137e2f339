// Random byte and line mutations of claude and codex recordings: each is a
// clear InvalidScript when loaded, or a run that ends (stop or error), never
// a TypeError from inside or a hang.
import fc from "fast-check";
import { assert } from "@std/assert";
import { Agent, ClaudeCliCognition, CodexCliCognition } from "@agentkit/testing/runtime";
import {
  claudeTurn,
  codexTurn,
  FakeClaudeCli,
  FakeCodexCli,
  InvalidScript,
  makeTestCtx,
} from "@agentkit/testing/testing";
import { fuzz, isInternalError, noHang } from "./_fuzz.ts";

const CLAUDE = [
  ...claudeTurn({ text: "first answer", toolUses: [{ name: "Read", input: { path: "a" } }] }).lines,
  ...claudeTurn({ text: "second" }).lines,
].filter((l): l is string => typeof l === "string");

const CODEX = codexTurn({ text: "done", commands: [{ command: "ls", output: "a.ts" }] }).lines
  .filter((l): l is string => typeof l === "string");

type Mutation =
  | { kind: "drop"; at: number }
  | { kind: "dup"; at: number }
  | { kind: "swap"; at: number; with: number }
  | { kind: "cut"; at: number; keep: number }
  | { kind: "byte"; at: number; pos: number; byte: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "field"; at: number; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("dup" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("swap" as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant("cut" as const), at: fc.nat(), keep: fc.nat() }),
  fc.record({
    kind: fc.constant("byte" as const),
    at: fc.nat(),
    pos: fc.nat(),
    byte: fc.integer({ min: 0, max: 255 }),
  }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    text: fc.oneof(fc.string(), fc.json(), fc.constant('{"type":"result"}')),
  }),
  fc.record({
    kind: fc.constant("field" as const),
    at: fc.nat(),
    value: fc.oneof(
      fc.constant(null),
      fc.constant(-1),
      fc.constant("x"),
      fc.constant(NaN),
      fc.constant({}),
      fc.constant([]),
      fc.double(),
    ),
  }),
);

// Replaces one leaf of a JSON line (usage numbers, cost, ids, text) with `value`.
function setLeaf(line: string, pick: number, value: unknown): string {
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    return line;
  }
  const leaves: [Record<string, unknown>, string][] = [];
  const walk = (o: unknown) => {
    if (o === null || typeof o !== "object") return;
    for (const [k, v] of Object.entries(o)) {
      if (k !== "type") leaves.push([o as Record<string, unknown>, k]);
      walk(v);
    }
  };
  walk(obj);
  if (!leaves.length) return line;
  const [o, k] = leaves[pick % leaves.length];
  o[k] = value;
  return JSON.stringify(obj);
}

function mutate(lines: readonly string[], ms: readonly Mutation[]): (string | Uint8Array)[] {
  const out: (string | Uint8Array)[] = [...lines];
  for (const m of ms) {
    if (out.length === 0) break;
    const i = m.at % out.length;
    const line = out[i];
    const text = typeof line === "string" ? line : new TextDecoder().decode(line);
    switch (m.kind) {
      case "drop":
        out.splice(i, 1);
        break;
      case "dup":
        out.splice(i, 0, line);
        break;
      case "swap": {
        const j = m.with % out.length;
        [out[i], out[j]] = [out[j], out[i]];
        break;
      }
      case "cut":
        out[i] = text.slice(0, m.keep % (text.length + 1));
        break;
      case "byte": {
        const bytes = new TextEncoder().encode(text);
        if (bytes.length) bytes[m.pos % bytes.length] = m.byte;
        out[i] = bytes;
        break;
      }
      case "insert":
        out.splice(i, 0, m.text);
        break;
      case "field":
        out[i] = setLeaf(text, m.at, m.value);
        break;
    }
  }
  return out;
}

// A recording is text: raw bytes become latin-1-ish text, as a file would hold them.
function asText(lines: readonly (string | Uint8Array)[]): string {
  return lines.map((l) => typeof l === "string" ? l : new TextDecoder().decode(l)).join("\n");
}

async function ends(run: () => Promise<{ stopReason: string }>): Promise<void> {
  try {
    const r = await noHang(run());
    assert(typeof r.stopReason === "string");
  } catch (error) {
    if (isInternalError(error)) throw error;
    // A clear error (an InvalidScript, an UnpricedModel, a cut-off turn) is an ending.
  }
}

Deno.test("fuzz: mutated claude recordings load as InvalidScript or run to an end", async () => {
  await fuzz(
    "claude recordings",
    13,
    150,
    () =>
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (ms) => {
        const text = asText(mutate(CLAUDE, ms));
        let cli: FakeClaudeCli;
        try {
          cli = FakeClaudeCli.replay(text, { allowUnused: true });
        } catch (error) {
          assert(error instanceof InvalidScript, `not an InvalidScript: ${error}`);
          return;
        }
        await using claude = new ClaudeCliCognition({ spawn: cli });
        const agent = new Agent("a", { model: "fake-model", cognition: claude });
        await ends(() => agent.run("one", makeTestCtx()));
        await ends(() => agent.run("two", makeTestCtx()));
      }),
  );
});

Deno.test("fuzz: mutated codex turns are InvalidScript when scripted or run to an end", async () => {
  await fuzz(
    "codex recordings",
    13,
    150,
    () =>
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (ms) => {
        const lines = mutate(CODEX, ms);
        let cli: FakeCodexCli;
        try {
          cli = FakeCodexCli.script([{ lines }], { allowUnused: true });
        } catch (error) {
          assert(error instanceof InvalidScript, `not an InvalidScript: ${error}`);
          return;
        }
        const codex = new CodexCliCognition({ spawn: cli });
        const agent = new Agent("a", { model: "fake-model", cognition: codex });
        await ends(() => agent.run("go", makeTestCtx()));
      }),
  );
});
