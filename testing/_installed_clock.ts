// The FakeClock install that holds the globals now, and where it was made:
// an install a test never disposed would leave every later test on virtual
// time (Deno's sanitizers see no timer, no op), so the next install() or
// makeTestCtx() reports it with the stack captured at install, and undoes it.
import { ClockLeftInstalled } from "./errors.ts";

/** An install holding the global timers. */
export interface ActiveInstall {
  readonly clock: object;
  /** The stack at install(), its first frame the caller's. */
  readonly at: string;
  readonly restore: () => void;
}

let active: ActiveInstall | undefined;

/** Records the install now holding the globals. */
export function holdGlobals(install: ActiveInstall): void {
  active = install;
}

/** Forgets the install when it is disposed (only if it is the one held). */
export function releaseGlobals(install: ActiveInstall): void {
  if (active === install) active = undefined;
}

/** Where `install()` was called, from a stack captured inside it. */
export function installSite(stack: string | undefined): string {
  const frames = (stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  // Drop install()'s own frame; keep the caller's few.
  return frames.slice(1, 7).map((l) => l.trim()).join("\n    ") || "(no stack)";
}

/**
 * Throws `ClockLeftInstalled` (after undoing that install) when an install
 * other than `clock`'s still holds the globals as `where` is called
 * (`clock` undefined: any install).
 */
export function reportLeftInstall(where: string, clock: unknown): void {
  const left = active;
  if (left === undefined || left.clock === clock) return;
  left.restore();
  throw new ClockLeftInstalled(where, left.at);
}
