import { streamed } from "./_cases.ts";
import { bench } from "./_bench.ts";

bench(streamed(), "stream");

async function* threeChunks(): AsyncGenerator<string, void, undefined> {
  yield "o";
  yield "k";
  yield "!";
}

Deno.bench({
  name: "floor: async generator of 3 chunks consumed",
  group: "stream",
  baseline: true,
  async fn() {
    for await (const _ of threeChunks());
  },
});
