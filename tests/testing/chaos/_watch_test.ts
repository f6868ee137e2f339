// The watchdog chaos() puts on every run. It is a real-time watchdog (a
// hang is a run that real time passes by), so these tests spend a few tens
// of real milliseconds: turns of the event loop, or busy work standing in
// for an agent's own synchronous work. None sleeps on a timer for time's sake.
import { assert, assertEquals } from "@std/assert";
import { watch } from "../../../testing/chaos/_watch.ts";

const STOP =
  "ms of real time with nothing left to wait for on its clock (a call that never ends, or a promise nothing settles)";
// One turn of the event loop: what a run doing I/O yields between steps.
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

// A run's side of the watchdog: a progress mark the test moves, and the stops.
function watched(): { progress(): string; stop(reason: string): void; stops: string[]; n: number } {
  return {
    n: 0,
    stops: [],
    progress() {
      return String(this.n);
    },
    stop(reason) {
      this.stops.push(reason);
    },
  };
}

Deno.test("watch() resolves settled when the run settles, fulfilled or rejected, and stops nothing", async () => {
  for (const run of [Promise.resolve("done"), Promise.reject(new Error("failed"))]) {
    const w = watched();
    assertEquals(await watch(run, w, 5), "settled");
    assertEquals(w.stops, []);
  }
});

Deno.test("watch() leaves alone a run that sits still for less than hangMs", async () => {
  const w = watched();
  const run = (async () => {
    for (let i = 0; i < 5; i++) await turn();
  })();
  assertEquals(await watch(run, w, 1_000), "settled");
  assertEquals(w.stops, []);
});

Deno.test("watch() never stops a run that keeps making progress, however long it takes", async () => {
  const w = watched();
  const hangMs = 20;
  const run = (async () => {
    const start = performance.now();
    while (performance.now() - start < 5 * hangMs) {
      await turn();
      w.n++;
    }
  })();
  assertEquals(await watch(run, w, hangMs), "settled");
  assertEquals(w.stops, []);
});

Deno.test("watch() does not count the run's own synchronous work as sitting still", async () => {
  const w = watched();
  const hangMs = 30;
  const run = (async () => {
    await turn();
    // Three times hangMs of work with the thread busy: no poll can run meanwhile.
    const start = performance.now();
    let x = 0;
    while (performance.now() - start < 3 * hangMs) x += Math.sqrt(x + 1);
    await turn();
    return x;
  })();
  assertEquals(await watch(run, w, hangMs), "settled");
  assertEquals(w.stops, []);
});

Deno.test("watch() stops a run idle for hangMs; a run that ends when stopped is settled", async () => {
  const w = watched();
  let end!: () => void;
  const run = new Promise<void>((resolve) => end = resolve);
  const stop = w.stop.bind(w);
  w.stop = (reason) => {
    stop(reason);
    end();
  };
  const start = performance.now();
  assertEquals(await watch(run, w, 10), "settled");
  assert(performance.now() - start >= 10, "not before hangMs");
  assertEquals(w.stops, [`made no progress for 10 ${STOP}`]);
});

Deno.test("watch() leaves a run that ignores the stop as hung, after hangMs more", async () => {
  const w = watched();
  const start = performance.now();
  assertEquals(await watch(new Promise(() => {}), w, 10), "hung");
  assert(performance.now() - start >= 20, "hangMs idle, stopped, and hangMs idle again");
  assertEquals(w.stops, [`made no progress for 10 ${STOP}`]);
});

Deno.test("watch(): what a run does after it is stopped does not put off calling it hung", async () => {
  const w = watched();
  // Stopped, the run keeps moving (a loop that ignores the stop) and never settles.
  const progress = w.progress.bind(w);
  w.progress = () => w.stops.length > 0 ? String(++w.n) : progress();
  assertEquals(await watch(new Promise(() => {}), w, 10), "hung");
  assertEquals(w.stops.length, 1);
});
