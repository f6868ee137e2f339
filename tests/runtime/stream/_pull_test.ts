import { assert, assertEquals, assertRejects, assertStrictEquals } from "@std/assert";
import {
  nextOf,
  PULL,
  pull,
  type Pullable,
  PullGenerator,
  thenStep,
} from "../../../runtime/stream/_pull.ts";

/** An iterator over `values` whose `[PULL]()` hands back each step as is. */
function pullable(values: number[]): Pullable<number, void> & { nextCalls: number } {
  let i = 0;
  const it = {
    nextCalls: 0,
    next(): Promise<IteratorResult<number, void>> {
      it.nextCalls++;
      return Promise.resolve(step());
    },
    [PULL](): IteratorResult<number, void> {
      return step();
    },
  };
  const step = (): IteratorResult<number, void> =>
    i < values.length ? { done: false, value: values[i++] } : { done: true, value: undefined };
  return it;
}

Deno.test("pull() takes a ready step from [PULL]() without a promise", () => {
  const it = pullable([1, 2]);
  const step = pull(it);
  assert(!(step instanceof Promise), "a ready step comes as is");
  assertEquals(step, { done: false, value: 1 });
  assertEquals(it.nextCalls, 0);
});

Deno.test("pull() falls back to next() for an iterator without [PULL]()", async () => {
  async function* gen() {
    yield "a";
  }
  const step = pull(gen());
  assert(step instanceof Promise);
  assertEquals(await step, { done: false, value: "a" });
});

Deno.test("nextOf() turns a step into a promise: ready, pending or thrown", async () => {
  assertEquals(await nextOf(() => ({ done: false, value: 1 })), { done: false, value: 1 });
  const pending = Promise.resolve<IteratorResult<number, void>>({ done: true, value: undefined });
  assertStrictEquals(nextOf(() => pending), pending);
  const boom = new Error("boom");
  const rejected = nextOf(() => {
    throw boom;
  });
  assert(rejected instanceof Promise, "a thrown step becomes a rejection, not a throw");
  const err = await assertRejects(() => rejected);
  assertStrictEquals(err, boom);
});

/** A PullGenerator over `values` that records when it was ended. */
class Counting extends PullGenerator<number> {
  #i = 0;
  returned = 0;
  constructor(readonly values: number[]) {
    super();
  }
  [PULL](): IteratorResult<number, void> {
    return this.#i < this.values.length
      ? { done: false, value: this.values[this.#i++] }
      : { done: true, value: undefined };
  }
  return(): Promise<IteratorResult<number, void>> {
    this.returned++;
    this.#i = this.values.length;
    return Promise.resolve({ done: true, value: undefined });
  }
}

Deno.test("PullGenerator: next() and for await read the steps of [PULL]()", async () => {
  const g = new Counting([1, 2, 3]);
  const first = g.next();
  assert(first instanceof Promise);
  assertEquals(await first, { done: false, value: 1 });
  const rest: number[] = [];
  for await (const v of g) rest.push(v);
  assertEquals(rest, [2, 3]);
});

Deno.test("PullGenerator: throw() ends the stream and rethrows the error", async () => {
  const g = new Counting([1, 2]);
  const boom = new Error("boom");
  const err = await assertRejects(() => g.throw(boom));
  assertStrictEquals(err, boom);
  assertEquals(g.returned, 1);
  assertEquals(await g.next(), { done: true, value: undefined });
});

Deno.test("PullGenerator: await using ends the stream through return()", async () => {
  const g = new Counting([1, 2]);
  {
    await using held = g;
    assertEquals((await held.next()).value, 1);
  }
  assertEquals(g.returned, 1);
  assertEquals(await g.next(), { done: true, value: undefined });
});

Deno.test("thenStep: the value goes to next, and what next returns is the step", async () => {
  const failed: unknown[] = [];
  const step = await thenStep(Promise.resolve(2), (v) => v * 10, (e) => {
    failed.push(e);
    return -1;
  });
  assertEquals(step, 20);
  assertEquals(failed, []);
});

Deno.test("thenStep: a throw in next and a rejection both go to fail, once each", async () => {
  const boom = new Error("boom");
  const failed: unknown[] = [];
  const fail = (e: unknown): number => {
    failed.push(e);
    return -1;
  };
  assertEquals(
    await thenStep(Promise.resolve(1), (): number => {
      throw boom;
    }, fail),
    -1,
  );
  const refused = new Error("refused");
  assertEquals(await thenStep(Promise.reject(refused), () => 5, fail), -1);
  assertEquals(failed, [boom, refused]);
});

Deno.test("thenStep: what fail throws rejects the step", async () => {
  const boom = new Error("boom");
  await assertRejects(
    () =>
      thenStep(Promise.reject(new Error("first")), () => 1, (): number => {
        throw boom;
      }),
    Error,
    "boom",
  );
});
