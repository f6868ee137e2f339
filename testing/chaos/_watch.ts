// The real-time watchdog of a run: a run that sits idle for `hangMs` of real
// time without progress (no model call, tool call, stream event, or move of
// its virtual clock) is stopped; one that then sits idle `hangMs` more is
// left as hung. Idle: the event loop free and polling. A poll that comes
// late means the thread was busy (the agent's own synchronous work) or the
// machine paused the process, neither of which is the run hanging, so a gap
// counts for at most MAX_GAP_MS. It holds one real timer at a time, cleared
// when the run settles, so nothing outlives the run under Deno's sanitizers.

const POLL_MS = 1;
const MAX_GAP_MS = 5;

import { realClearTimeout, realNow, realSetTimeout } from "./_real_timers.ts";

/** What the watchdog reads of a run. */
export interface Watched {
  /** A mark that changes whenever the run does something. */
  progress(): string;
  /** Stops the run, as chaos() does: why, in words. */
  stop(reason: string): void;
}

/**
 * Resolves `"settled"` once `run` settles, or `"hung"` once it has sat idle
 * for `hangMs`, been stopped, and sat idle for `hangMs` again.
 */
export function watch(
  run: Promise<unknown>,
  watched: Watched,
  hangMs: number,
): Promise<"settled" | "hung"> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof realSetTimeout> | undefined;
    let last = watched.progress();
    let previous = realNow();
    let idle = 0;
    let stopping = false;
    // Clearing the timer is enough: no poll runs after, and a second resolve
    // (the run settling after it was left as hung) is a no-op.
    const finish = (how: "settled" | "hung") => {
      realClearTimeout(timer);
      resolve(how);
    };
    run.then(() => finish("settled"), () => finish("settled"));
    const poll = () => {
      timer = undefined;
      const now = realNow();
      const gap = Math.min(now - previous, MAX_GAP_MS);
      previous = now;
      const mark = watched.progress();
      if (!stopping && mark !== last) {
        last = mark;
        idle = 0;
      } else if ((idle += gap) >= hangMs) {
        if (stopping) return finish("hung");
        stopping = true;
        idle = 0;
        watched.stop(
          `made no progress for ${hangMs} ms of real time with nothing left to wait for on its clock (a call that never ends, or a promise nothing settles)`,
        );
      }
      timer = realSetTimeout(poll, POLL_MS);
    };
    timer = realSetTimeout(poll, 0);
  });
}
