// The turn bookkeeping the CLI cognitions share: they number their turns,
// run them one at a time, and build run() and stream() on one generator that
// fills a TurnState as it yields.
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

/** run(): drains the turn's events (they are for stream()) and returns its result. */
export async function runTurn(
  body: TurnBody,
  messages: readonly Message[],
): Promise<CognitionResult> {
  const turn = new TurnState();
  for await (const _ of body(turn)) {
    // run() reads the turn's state, not its events.
  }
  return turn.result(messages);
}
