// The command that re-records a cassette, in the runtime the test runs on:
// a Deno test re-records with `deno test`, a Node one with `node --test`.

/** Whether this process is Deno (Node and others have no `Deno` global). */
export function onDeno(): boolean {
  return typeof (globalThis as { Deno?: { version?: unknown } }).Deno?.version === "object";
}

/** The re-record command for a test file, on Deno or on Node. */
export function recordCommand(deno: boolean = onDeno()): string {
  return deno
    ? "AGENTKIT_CASSETTE=record deno test -A <your test file>"
    : "AGENTKIT_CASSETTE=record node --test <your test file>";
}
