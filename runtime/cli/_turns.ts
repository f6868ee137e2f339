// The turn bookkeeping the CLI cognitions share: they number their turns,
// run them one at a time, and stream each on one generator that fills a
// TurnState as it yields and returns the result from it.
import type { Message } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { CognitionResult } from "../cognition/cognition.ts";
import { TurnState } from "./_turn_state.ts";

/** One turn: yields its events and records what it produced in `t`. */
export type TurnBody = (t: TurnState) => AsyncIterable<StreamEvent>;

/** Counts a cognition's turns and runs them one at a time. */
export class Turns {
  #count = 0;
  #lock: Promise<void> = Promise.resolve();

  /** How many turns have started. */
  get count(): number {
    return this.#count;
  }

  /** Starts a turn; returns its number, from 1. */
  next(): number {
    return ++this.#count;
  }

  /**
   * Waits for every earlier holder to release; returns this holder's release.
   * The place in line is taken when called, before the first await.
   */
  async acquire(): Promise<() => void> {
    const previous = this.#lock;
    let release!: () => void;
    this.#lock = new Promise<void>((resolve) => release = resolve);
    await previous;
    return release;
  }
}

/**
 * A turn as a cognition's stream: yields the turn's events, then returns its
 * result (`stopReason: "error"` when the turn failed).
 */
export async function* turnStream(
  body: TurnBody,
  messages: readonly Message[],
): AsyncGenerator<StreamEvent, CognitionResult, undefined> {
  const turn = new TurnState();
  yield* body(turn);
  return turn.result(messages);
}
