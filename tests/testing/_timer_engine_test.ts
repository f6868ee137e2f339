import { assertEquals, assertStrictEquals } from "@std/assert";
import { engineTimers, importTimerEngine } from "../../testing/_timer_engine.ts";

Deno.test("engineTimers() builds one factory whose clocks run on virtual time", async () => {
  const timers = engineTimers();
  assertStrictEquals(engineTimers(), timers);
  // The module the dynamic import names is the one the engine came from.
  const module = await importTimerEngine();
  assertStrictEquals(typeof module.default.withGlobal, "function");
  const clock = timers.createClock(1_000);
  const fired: number[] = [];
  clock.setTimeout(() => fired.push(clock.now), 50);
  clock.tick(50);
  assertEquals(fired, [1_050]);
});

Deno.test("a test file loads zod and fake-timers only when it uses them, and the engine keeps the real Date", async () => {
  const fixture = new URL("../fixtures/lazy_dependencies.ts", import.meta.url).pathname;
  const config = new URL("../../deno.json", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    // --allow-env: the mutation harness tells the child which mutant is on through the environment.
    args: ["run", "--no-check", "--allow-env", "--config", config, fixture],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const printed = new TextDecoder().decode(out.stdout);
  assertEquals(out.code, 0, printed + new TextDecoder().decode(out.stderr));
  assertEquals(JSON.parse(printed), {
    atImport: { zod: false, requires: 0 },
    // A script with a tool-call turn is checked and run without zod or the timer engine.
    plainRun: { output: "ok", zod: false, requires: 0 },
    // The first wait loads fake-timers (one require); its Date is not the one faked after import.
    afterSleep: { now: "2026-01-01T00:00:30.000Z", onOtherFake: false, zod: false, requires: 1 },
    // A turn the hand-written check cannot vouch for goes to zod, loaded then, and only once:
    // a double that builds its own schemas afterwards finds it loaded.
    afterBadTurn: { error: "InvalidScript", zod: true, requires: 2 },
    afterFakeSearch: { zod: true, requires: 2 },
  });
});
