import { singleTurn } from "./_cases.ts";
import { bench } from "./_bench.ts";

bench(singleTurn(), "single_turn");

Deno.bench({
  name: "floor: await of a resolved promise",
  group: "single_turn",
  baseline: true,
  async fn() {
    await Promise.resolve();
  },
});
