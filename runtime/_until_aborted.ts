// Settles with `promise`, or rejects with the abort reason as soon as
// `signal` aborts, for work that does not honour cancellation itself (a gate,
// a tool that ignores its signal). The listener is removed either way.
import { NEVER } from "./_never.ts";
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal === NEVER) return promise; // nothing to race: no listener to add and remove
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
