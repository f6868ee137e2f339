// What the strict wire costs: one FakeProvider round trip (in-process fetch,
// JSON body in, JSON answer out) of a tool loop's request, strict (every rule
// of WIRE_RULES checked) against `strict: false`, on Chat Completions,
// Messages, Responses and Gemini. The cases of a group alternate in registration order and run in
// one process; the strict case should be within 10% of its baseline.
//
//   deno bench --allow-read --allow-env bench/deno/strict_wire.bench.ts
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import { ANSWER, WIRES } from "./_strict_wire_cases.ts";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

for (const wire of WIRES) {
  for (const strict of [false, true]) {
    // A provider's record grows with every request; a fresh one every 1,000.
    let provider = new FakeProvider({ llm: new FakeLLM(ANSWER), strict });
    Deno.bench({
      name: `${wire.api} round trip, ${strict ? "strict" : "strict: false"}`,
      group: `strict_wire_${wire.api}`,
      baseline: !strict,
      async fn() {
        if (provider.requests.length >= 1_000) {
          provider = new FakeProvider({ llm: new FakeLLM(ANSWER), strict });
        }
        const res = await provider.fetch(wire.url, {
          method: "POST",
          headers: wire.headers,
          body: wire.body,
        });
        // deno-lint-ignore no-explicit-any
        check(wire.answer(await res.json() as any) === ANSWER, `${wire.api} answer`);
        check(provider.rejections.length === 0, "no rejection");
      },
    });
  }
}
