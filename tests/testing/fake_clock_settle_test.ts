// When autoAdvance may jump: only once every task is waiting on the clock.
// In-process work (a fetch answered by a function, request and response
// bodies read through streams) is not waiting on the clock however many
// promise turns it takes, so a client's own timeout, racing it on the
// installed setTimeout, must not fire on a call that succeeded.
import { assertEquals, assertRejects } from "@std/assert";
import { FakeClock } from "@agentkit/testing/testing";

// An in-process server: reads the JSON request body, works for `turns`
// promise turns (a router, validation, a model double...), then answers with
// a body streamed in chunks, the way a FakeProvider answers an SDK.
function server(turns: number): (request: Request) => Promise<Response> {
  return async (request) => {
    const { q } = await request.json();
    for (let i = 0; i < turns; i++) await undefined;
    const chunks = ["found ", String(q)];
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await undefined;
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    return new Response(body, { headers: { "content-type": "text/plain" } });
  };
}

// A client with a timeout, as SDKs write it: a timer on the global setTimeout
// aborts the request; the timer is cleared once the body is read.
async function call(
  serve: (request: Request) => Promise<Response>,
  q: string,
  timeoutMs: number,
): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, "TimeoutError")),
    timeoutMs,
  );
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), {
      once: true,
    });
  });
  aborted.catch(() => {});
  try {
    const request = new Request("http://in-process.test/v1/lookup", {
      method: "POST",
      body: JSON.stringify({ q }),
      signal: controller.signal,
    });
    const response = await Promise.race([serve(request), aborted]);
    return await Promise.race([response.text(), aborted]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("FakeClock.install(): autoAdvance does not jump while an in-process fetch round trip is still working, so the client's timeout stays unfired", async (t) => {
  await t.step("one round trip of more than 64 promise turns", async () => {
    const clock = new FakeClock();
    using _installed = clock.install();
    assertEquals(await call(server(200), "x", 20_000), "found x");
    assertEquals([clock.now(), clock.pending], [0, 0]);
  });

  await t.step(
    "many short round trips in a row (a settle window must not carry over from one call to the next)",
    async () => {
      const clock = new FakeClock();
      using _installed = clock.install();
      const answers: string[] = [];
      for (let i = 0; i < 20; i++) answers.push(await call(server(5), `q${i}`, 20_000));
      assertEquals(answers.length, 20);
      assertEquals(answers.at(-1), "found q19");
      assertEquals([clock.now(), clock.pending], [0, 0]);
    },
  );

  await t.step(
    "the timeout still fires, in virtual time, on a server that never answers",
    async () => {
      const clock = new FakeClock();
      using _installed = clock.install();
      const never = () => new Promise<Response>(() => {});
      const started = performance.now();
      await assertRejects(() => call(never, "x", 20_000), DOMException, "timed out after 20000 ms");
      assertEquals(clock.now(), 20_000);
      assertEquals(performance.now() - started, 20_000, "performance.now is virtual here too");
    },
  );

  await t.step(
    "a round trip that is still working when another task's wait falls due lets that wait fire first, in deadline order",
    async () => {
      const clock = new FakeClock();
      using _installed = clock.install();
      const order: string[] = [];
      await Promise.all([
        call(server(200), "x", 20_000).then((text) => order.push(`${text}@${clock.now()}`)),
        clock.sleep(150).then(() => order.push(`sleep@${clock.now()}`)),
      ]);
      assertEquals(order, ["found x@0", "sleep@150"]);
    },
  );
});

Deno.test("FakeClock autoAdvance waits out a long chain of promise turns before jumping (no install)", async () => {
  const clock = new FakeClock();
  const order: string[] = [];
  const busy = async () => {
    for (let i = 0; i < 1_000; i++) await undefined;
    order.push(`busy done@${clock.now()}`);
  };
  await Promise.all([clock.sleep(10).then(() => order.push(`sleep@${clock.now()}`)), busy()]);
  assertEquals(order, ["busy done@0", "sleep@10"]);
});

Deno.test("FakeClock autoAdvance fires one timer per macrotask, so the task it wakes runs before the next one fires", async () => {
  const hop = () => new Promise((resolve) => setImmediate(resolve));
  const clock = new FakeClock();
  const fired: number[] = [];
  const all = Promise.all([10, 20, 30].map((ms) => clock.sleep(ms).then(() => fired.push(ms))));
  await hop();
  assertEquals([fired, clock.now(), clock.pending], [[10], 10, 2]);
  await all;
  assertEquals([fired, clock.now()], [[10, 20, 30], 30]);
});

Deno.test("FakeClock with autoAdvance false never jumps by itself, however many macrotasks pass", async () => {
  const hop = () => new Promise((resolve) => setImmediate(resolve));
  const clock = new FakeClock({ autoAdvance: false });
  let done = false;
  const p = clock.sleep(100).then(() => done = true);
  for (let i = 0; i < 5; i++) await hop();
  assertEquals([done, clock.now(), clock.pending], [false, 0, 1]);
  {
    using _installed = clock.install();
    setTimeout(() => {}, 50);
    for (let i = 0; i < 5; i++) await hop();
    assertEquals([clock.now(), clock.pending], [0, 2]);
  }
  clock.advance(100);
  await p;
  assertEquals([done, clock.now(), clock.pending], [true, 100, 0]);
});
