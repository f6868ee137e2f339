// The world's clock: a FakeClock whose waits count as progress, are checked
// against the run's virtual deadline, and fail once the run is stopped.
import { FakeClock } from "../fake_clock.ts";

/** What the clock tells the run about. */
export interface ClockHooks {
  /** Something happened. */
  tick(): void;
  /** The error to fail a wait with once the run is stopped, else undefined. */
  stopError(): Error | undefined;
  /** Time moved: the run checks its deadline. */
  moved(): void;
}

/** A FakeClock reporting to `hooks`. */
export class ChaosClock extends FakeClock {
  constructor(hooks: ClockHooks) {
    super();
    const sleep = this.sleep;
    const woke = () => {
      hooks.tick();
      hooks.moved();
    };
    this.sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
      const stopped = hooks.stopError();
      if (stopped) return Promise.reject(stopped);
      hooks.tick();
      return sleep(ms, signal).then(woke);
    };
  }
}
