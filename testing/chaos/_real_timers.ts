// The real timers, taken when the package is imported, before any FakeClock
// is installed over them. chaos() loads its implementation on first call,
// maybe under a clock a test installed; its watchdog reads these instead.
// Imported by ./_chaos_entry.ts, which the package loads statically.

/** The global `setTimeout` as it was at import. */
export const realSetTimeout: typeof globalThis.setTimeout = globalThis.setTimeout.bind(globalThis);
/** The global `clearTimeout` as it was at import. */
export const realClearTimeout: typeof globalThis.clearTimeout = globalThis.clearTimeout.bind(
  globalThis,
);
/** `performance.now` as it was at import. */
export const realNow: () => number = performance.now.bind(performance);
