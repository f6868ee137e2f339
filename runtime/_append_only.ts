/**
 * Transcripts that a runtime loop only appends to while it owns them.
 *
 * A tool loop sends the same growing array to the model on every turn. A
 * double that records requests has to know the part it already copied did
 * not change; checking every message makes the loop quadratic. The loop marks
 * its array instead, and unmarks it before anyone else can get it.
 *
 * @module
 */

// The marked arrays, newest last: a short list rather than a WeakSet, whose
// add and delete cost about a microsecond each in V8 (more than a scripted
// model call). A loop releases its transcript however it ends; one abandoned
// unreleased is held until MOST newer marks push it out, and is then merely
// unmarked (a double goes back to checking each message).
const MOST = 64;
const marked: (readonly unknown[])[] = [];

function indexOf(array: readonly unknown[]): number {
  for (let i = marked.length - 1; i >= 0; i--) if (marked[i] === array) return i;
  return -1;
}

/**
 * Marks `array` as only ever appended to until {@linkcode release}.
 *
 * @param array A transcript the caller owns.
 * @returns The same array.
 */
export function appendOnly<T extends readonly unknown[]>(array: T): T {
  if (indexOf(array) >= 0) return array;
  if (marked.length >= MOST) marked.shift();
  marked.push(array);
  return array;
}

/**
 * Ends the promise made by {@linkcode appendOnly}.
 *
 * @param array The marked array.
 */
export function release(array: readonly unknown[]): void {
  const at = indexOf(array);
  if (at < 0) return;
  for (let i = at + 1; i < marked.length; i++) marked[i - 1] = marked[i];
  marked.pop();
}

/**
 * Whether `array` is marked: what was in it is still there, in place.
 *
 * @param array Any array.
 * @returns True while marked.
 */
export function isAppendOnly(array: readonly unknown[]): boolean {
  return indexOf(array) >= 0;
}
