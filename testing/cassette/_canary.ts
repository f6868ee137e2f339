// The self-check a cassette runs before it may write: a canary secret, known
// to the redactor as the provider keys are, and a credential shape, put in
// every place a line carries text, must not survive the path every line is
// written through. A leak here means the file would hold secrets: nothing is
// recorded.
import { HarnessError } from "../../runtime/harness_error.ts";

/**
 * A cassette's self-check found a secret that would reach its file: the
 * redaction a line goes through before it is written let a canary through.
 * Nothing was recorded.
 *
 * @example
 * ```ts
 * import { CassetteCanaryLeak } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new CassetteCanaryLeak("fixtures/a.jsonl", "request.messages[0].content");
 * assertEquals(e.name, "CassetteCanaryLeak");
 * ```
 */
export class CassetteCanaryLeak extends HarnessError {
  /** The cassette file. */
  readonly path: string;
  /** Where in a line the canary survived. */
  readonly where: string;

  /**
   * The message says where the canary survived and that nothing was recorded.
   *
   * @param path The cassette file.
   * @param where Where in a line the canary survived.
   */
  constructor(path: string, where: string) {
    super(
      `Cassette ${path}: the self-check found a canary secret unmasked at ${where} of a line about to be written, so nothing is recorded; a redact pattern or a change to the write path let it through: fix it before recording`,
    );
    this.name = "CassetteCanaryLeak";
    this.path = path;
    this.where = where;
  }
}

/** A fresh canary: random, so no recording can contain it by chance. */
export function makeCanary(): string {
  return `agentkit-canary-${crypto.randomUUID().replaceAll("-", "")}`;
}

/** Throws `CassetteCanaryLeak` when `write(line)` keeps the canary or a credential shape anywhere. */
export function checkCanary(
  path: string,
  canary: string,
  write: (value: unknown) => string,
): void {
  const shape = "sk-proj-CanaryCanary0123456789abcdef";
  const text = `canary ${canary} and ${shape}`;
  const probes: Record<string, unknown> = {
    "request.messages[0].content": { request: { messages: [{ role: "user", content: text }] } },
    "request.messages[0].toolCalls[0].args": {
      request: { messages: [{ role: "assistant", toolCalls: [{ args: { q: text } }] }] },
    },
    "request.tools[0]": { request: { tools: [{ name: "t", description: text }] } },
    "request.settings": { request: { settings: { note: text, apiKey: canary } } },
    "turn.content": { turn: { content: text } },
    "turn.chunks": { turn: { chunks: ["canary ", canary, ` ${shape}`] } },
    "turn.toolCalls[0].args": { turn: { toolCalls: [{ args: { q: text } }] } },
    "turn.error": { turn: { error: text } },
  };
  for (const [where, probe] of Object.entries(probes)) {
    const written = write(probe);
    if (written.includes(canary) || written.includes(shape)) {
      throw new CassetteCanaryLeak(path, where);
    }
  }
}
