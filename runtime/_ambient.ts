// The guard's view of the code running now, for a port called without a
// context: a tool that does `port.chat(req)` inside a test run must meet the
// test's guard, not slip past it. Only a context that refuses real model
// requests is made ambient, so a production run pays nothing for it.
// AsyncLocalStorage is in both Deno and Node (`node:async_hooks`).
import { AsyncLocalStorage } from "node:async_hooks";

/** What the guard reads of an ambient context. */
export interface RequestPolicy {
  readonly allowModelRequests?: boolean;
}

const store = new AsyncLocalStorage<RequestPolicy>();

/** The policy of the code running now, if any was set around it. */
export function ambientPolicy(): RequestPolicy | undefined {
  return store.getStore();
}

/** Runs `fn` (and everything it starts) under `policy`. */
export function underPolicy<T>(policy: RequestPolicy, fn: () => T): T {
  return store.run(policy, fn);
}
