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

const marked = new WeakSet<readonly unknown[]>();

/**
 * Marks `array` as only ever appended to until {@linkcode release}.
 *
 * @param array A transcript the caller owns.
 * @returns The same array.
 */
export function appendOnly<T extends readonly unknown[]>(array: T): T {
  marked.add(array);
  return array;
}

/**
 * Ends the promise made by {@linkcode appendOnly}.
 *
 * @param array The marked array.
 */
export function release(array: readonly unknown[]): void {
  marked.delete(array);
}

/**
 * Whether `array` is marked: what was in it is still there, in place.
 *
 * @param array Any array.
 * @returns True while marked.
 */
export function isAppendOnly(array: readonly unknown[]): boolean {
  return marked.has(array);
}
