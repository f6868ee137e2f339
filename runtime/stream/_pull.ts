// A step of an async iterator taken without a promise when it is ready.
//
// A streamed call crosses a few hand-written iterators (the double, the
// invoker's driver, the cognition's fold) before the agent's one generator.
// Through `next()` each layer adds a promise and a microtask turn per event,
// though a scripted double has every event ready. An iterator of the package
// may also offer `[PULL]()`: the same step as `next()`, returned as is when
// it is ready and as a promise when it is not, and thrown rather than
// rejected. Callers take it through `pull()`, which falls back to `next()`
// for any other iterator, so every layer keeps its plain async-iterator face.

/** The method an iterator offers for a step without a promise. */
export const PULL: unique symbol = Symbol("agentkit.pull");

/** An iterator that may offer `[PULL]()`. */
export interface Pullable<T, R> extends AsyncIterator<T, R, undefined> {
  [PULL]?(): IteratorResult<T, R> | Promise<IteratorResult<T, R>>;
}

/**
 * The next step of `it`: as is when it is ready, else a promise of it. A
 * failure may be thrown (a ready failure) or come as a rejected promise.
 */
export function pull<T, R>(
  it: AsyncIterator<T, R, undefined>,
): IteratorResult<T, R> | Promise<IteratorResult<T, R>> {
  const own = (it as Pullable<T, R>)[PULL];
  return own === undefined ? it.next() : own.call(it);
}

/** `next()` on top of a `[PULL]()`: its step, always as a promise. */
export function nextOf<T, R>(
  step: () => IteratorResult<T, R> | Promise<IteratorResult<T, R>>,
): Promise<IteratorResult<T, R>> {
  try {
    const s = step();
    return s instanceof Promise ? s : Promise.resolve(s);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * A hand-written async generator on a stream's path, on top of its
 * `[PULL]()`: `next()` is that step as a promise (the package's own layers
 * step through `pull()`, so it is for everyone else), and `throw()` and
 * disposal end it through the subclass's `return()`.
 */
export abstract class PullGenerator<T> implements AsyncGenerator<T, void, undefined> {
  /** The next step, as is when it is ready. */
  abstract [PULL](): IteratorResult<T, void> | Promise<IteratorResult<T, void>>;

  /** Ends the stream early. */
  abstract return(): Promise<IteratorResult<T, void>>;

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, void>> {
    return nextOf(() => this[PULL]());
  }

  async throw(error: unknown): Promise<IteratorResult<T, void>> {
    await this.return();
    throw error;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }
}

/**
 * What a hand-written iterator does once `p` settles: `next` with its value,
 * and `fail` with a rejection or with what `next` throws, so a step never
 * rejects unhandled.
 */
export function thenStep<V, S>(
  p: Promise<V>,
  next: (value: V) => S | Promise<S>,
  fail: (error: unknown) => S | Promise<S>,
): Promise<S> {
  return p.then((value) => {
    try {
      return next(value);
    } catch (error) {
      return fail(error);
    }
  }, fail);
}
