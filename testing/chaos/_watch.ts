// The real-time watchdog of a run: a run that goes `hangMs` of real time
// without progress (no model call, tool call, stream event, or move of its
// virtual clock) is stopped; one that then takes `hangMs` more to settle is
// left as hung. It holds one real timer at a time, cleared when the run
// settles, so nothing outlives the run under Deno's sanitizers.

import { realClearTimeout, realNow, realSetTimeout } from "./_real_timers.ts";

/** What the watchdog reads of a run. */
export interface Watched {
  /** A number that changes whenever the run does something. */
  progress(): number;
  /** Stops the run, as chaos() does: why, in words. */
  stop(reason: string): void;
}

/**
 * Resolves `"settled"` once `run` settles, or `"hung"` once it has sat still
 * for `hangMs`, been stopped, and sat still for `hangMs` again.
 */
export function watch(
  run: Promise<unknown>,
  watched: Watched,
  hangMs: number,
): Promise<"settled" | "hung"> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof realSetTimeout> | undefined;
    let last = watched.progress();
    let since = realNow();
    let stopping = false;
    let done = false;
    const finish = (how: "settled" | "hung") => {
      if (done) return;
      done = true;
      if (timer !== undefined) realClearTimeout(timer);
      resolve(how);
    };
    run.then(() => finish("settled"), () => finish("settled"));
    const poll = () => {
      timer = undefined;
      if (done) return;
      const now = realNow();
      const mark = watched.progress();
      if (!stopping && mark !== last) {
        last = mark;
        since = now;
      } else if (now - since >= hangMs) {
        if (stopping) return finish("hung");
        stopping = true;
        since = now;
        watched.stop(
          `made no progress for ${hangMs} ms of real time with nothing left to wait for on its clock (a call that never ends, or a promise nothing settles)`,
        );
      }
      timer = realSetTimeout(poll, 1);
    };
    timer = realSetTimeout(poll, 0);
  });
}
