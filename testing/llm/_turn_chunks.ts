// The text pieces a scripted turn streams: its chunks, else its content or
// its refusal as one piece, else none.
import type { Turn } from "./turn.ts";

const NO_CHUNKS: readonly string[] = Object.freeze([]);

/** The pieces, in order. */
export function chunksOf(turn: Turn): readonly string[] {
  if (turn.chunks) return turn.chunks;
  const text = turn.content || turn.refusal;
  return text ? [text] : NO_CHUNKS;
}

/** How many pieces. */
export function chunkCount(turn: Turn): number {
  return turn.chunks?.length ?? (turn.content || turn.refusal ? 1 : 0);
}
