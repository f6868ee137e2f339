// The command that re-records a cassette, in the runtime the test runs on:
// a Deno test re-records with `deno test`, a Node one with `node --test`.

/** Whether `global` is Deno's (Node and others have no `Deno` with a version). */
export function onDeno(global: object = globalThis): boolean {
  return typeof (global as { Deno?: { version?: unknown } }).Deno?.version === "object";
}

/** The re-record command for a test file, on Deno or on Node. */
export function recordCommand(deno: boolean = onDeno()): string {
  return deno
    ? "AGENTKIT_CASSETTE=record deno test -A <your test file>"
    : "AGENTKIT_CASSETTE=record node --test <your test file>";
}
