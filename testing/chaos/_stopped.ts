// The error a run meets once chaos() has stopped it.
import { HarnessError } from "../../runtime/harness_error.ts";

/** Thrown into a run chaos() stopped, so every catch site lets it through. */
export class ChaosStopped extends HarnessError {
  /** Why the run was stopped. */
  readonly reason: string;

  constructor(reason: string) {
    super(`chaos() stopped this run: it ${reason}`);
    this.reason = reason;
  }
}
