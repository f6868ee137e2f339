// What a scripted double's `[Symbol.dispose]` does: `verify()`, unless a run
// it served failed after its last call (../runtime/stream/_run_failed.ts). Then a
// throw would replace the run's error with "SuppressedError: An error was
// suppressed during disposal", the one line `deno test` and `node --test`
// print, so the dispose does not throw: what `verify()` found (unused turns,
// a swallowed harness error) is added to the run's error, in its message and
// its stack, which every runner prints.
import { failedAfter, failedRuns } from "../runtime/internal.ts";

export { failedRuns };

/**
 * Verifies at scope exit: `verify()`, or, when the run on `ctx` (the context
 * the double was last called with; any run, for a double given none) failed
 * after `at` (what `failedRuns()` said at that call), the same check noted on
 * the run's error instead of thrown.
 */
export function verifyAtDispose(verify: () => void, ctx: unknown, at: number): void {
  const failure = failedAfter(ctx, at);
  if (failure === undefined) return verify();
  try {
    verify();
  } catch (unmet) {
    noteOn(failure.error, unmet);
  }
}

/** The words that open the note, so that the same note is not added twice. */
const OPENING = "\n\nThe scripted double's dispose found, after this failure: ";

/** Adds what `verify()` threw to the run's error, where runners print it. */
export function noteOn(error: unknown, unmet: unknown): void {
  // The run failed with the very error verify() would throw (ScriptExhausted).
  if (unmet === error || error === null || typeof error !== "object") return;
  const e = error as { name?: unknown; message?: unknown; stack?: unknown };
  const old = e.message;
  if (typeof old !== "string") return;
  const u = unmet as { name?: unknown; message?: unknown };
  const said = typeof u?.message === "string" ? `${String(u.name)}: ${u.message}` : String(unmet);
  const note = `${OPENING}${said}`;
  if (old.includes(note)) return;
  const message = `${old}${note}`;
  try {
    const stack = e.stack;
    e.message = message;
    if (typeof stack !== "string") return;
    // The stack opens with "Name: message" (V8 and so Deno, Node and Vitest).
    const at = old === "" ? -1 : stack.indexOf(old);
    if (at >= 0) e.stack = `${stack.slice(0, at)}${message}${stack.slice(at + old.length)}`;
    else {
      const name = String(e.name ?? "Error");
      e.stack = stack.startsWith(name)
        ? `${name}: ${note.trimStart()}${stack.slice(name.length)}`
        : `${stack}${note}`;
    }
  } catch {
    // A frozen error keeps its words; the run's error still comes first.
  }
}
