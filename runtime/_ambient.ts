// The guard's view of the code running now, for a port called without a
// context: a tool that does `port.chat(req)` inside a test run must meet the
// test's guard, not slip past it. Only a context that refuses real model
// requests is made ambient, so a production run pays nothing for it.
// AsyncLocalStorage is in both Deno and Node (`node:async_hooks`).
//
// What it costs, and why a tool call does not always enter the store (issue
// 39): entering an AsyncLocalStorage per tool call made the 2-step ReAct
// bench 7× slower on Deno and 15% slower on Node 20. On Deno most of it was
// the value stored: the run's context, held by the store's frame past the
// run, kept every run's context, script and records alive through young-
// generation collections (scavenges of 25-50 ms, the heap at 120 MB before a
// full collection); a constant policy object costs a tenth of that. On Node
// 20 the first `run` switches on async hooks for every promise of the
// process from then on. So the store is entered only once the process holds
// a port that could send a real request (`arm()`, called by such a port as
// it is made), with a constant policy; before that, a refusing call in
// flight is counted, and a port called without a context while one is in
// flight is refused (`ambientPolicy`), as is one made during one (a port
// keeps the policy it was made under: see wire_port.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import type { Now } from "./_now.ts";

/** What the guard reads of an ambient context. */
export interface RequestPolicy {
  readonly allowModelRequests?: boolean;
}

/** The policy of a test context: real model requests refused. */
export const REFUSING: RequestPolicy = Object.freeze({ allowModelRequests: false });

const store = new AsyncLocalStorage<RequestPolicy>();

// Whether a port that could send a real request exists: from then on, a
// refusing call runs inside the store.
let armed = false;
// Refusing calls in flight that run outside the store (made before `armed`).
// A call that never settles stays counted: a port called without a context
// is then refused for the rest of the process, which errs on the safe side.
let refusingCalls = 0;

/**
 * The policy of the code running now, if any was set around it: the store's,
 * or, while a refusing call runs outside the store, a refusal (a port that
 * could reach the network was made during that call, or is called from it).
 */
export function ambientPolicy(): RequestPolicy | undefined {
  return store.getStore() ?? (refusingCalls > 0 ? REFUSING : undefined);
}

/** Runs `fn` (and everything it starts) under `policy`. */
export function underPolicy<T>(policy: RequestPolicy, fn: () => T): T {
  return store.run(policy, fn);
}

/**
 * Marks the process as holding a port that could send a real request: every
 * refusing call from now on runs inside the store, so that port meets the
 * refusal wherever the call's work goes, also after the call is over.
 */
export function arm(): void {
  armed = true;
}

/** Whether `arm()` was called: refusing calls run inside the store. */
export function isArmed(): boolean {
  return armed;
}

/**
 * Back to a process that holds no port that could reach the network, for
 * the tests of the unarmed state, which may share a process with tests that
 * made such a port (the mutation runner's). Not for anything else: a port
 * made before it is not refused from a call that starts after it.
 */
export function disarm(): void {
  armed = false;
}

/**
 * Runs `fn`, a call under a context that refuses real model requests (a tool
 * call of a test run), so that a port called without a context from it is
 * refused. A ready answer is handed back as is (see ./_now.ts).
 */
export function underRefusal<T>(fn: () => Now<T>): Now<T> {
  if (armed) return store.run(REFUSING, fn);
  refusingCalls++;
  let value: Now<T>;
  try {
    value = fn();
  } catch (error) {
    refusingCalls--;
    throw error;
  }
  if (value instanceof Promise) return value.then(settled, failed);
  refusingCalls--;
  return value;
}

function settled<T>(value: T): T {
  refusingCalls--;
  return value;
}

function failed(error: unknown): never {
  refusingCalls--;
  throw error;
}
