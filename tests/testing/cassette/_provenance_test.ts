// Provenance pieces: the prompt and tool hashes, the provider's name, staleness.
import { assert, assertEquals, assertNotEquals, assertStringIncludes } from "@std/assert";
import { canonicalJson } from "../../../testing/cassette/cassette_key.ts";
import { hash } from "../../../testing/cassette/_canonical_key.ts";
import fc from "fast-check";
import {
  isoAt,
  PACKAGE_VERSION,
  provenanceOf,
  providerName,
  staleReason,
  systemHash,
  toolsHash,
} from "../../../testing/cassette/_provenance.ts";

const req = (system: string[], user = "hi", tools?: unknown[]) => ({
  model: "m",
  messages: [
    ...system.map((content) => ({ role: "system", content })),
    { role: "user", content: user },
  ],
  ...(tools ? { tools } : {}),
});

Deno.test("systemHash() reads the system prompts only, in order", () => {
  assertEquals(systemHash(req(["a"], "x")), systemHash(req(["a"], "y")));
  assertNotEquals(systemHash(req(["a"])), systemHash(req(["b"])));
  assertNotEquals(systemHash(req(["a", "b"])), systemHash(req(["b", "a"])));
  assertNotEquals(systemHash(req([])), systemHash(req([""])));
  assertEquals(systemHash(req(["a"])), systemHash(req(["a"])));
  assert(/^[0-9a-f]{24}$/.test(systemHash(req(["a"]))));
});

Deno.test("toolsHash() reads the declarations; none is an empty list", () => {
  assertEquals(toolsHash(req([])), toolsHash(req([], "hi", [])));
  assertNotEquals(toolsHash(req([], "hi", [{ name: "t" }])), toolsHash(req([])));
  assertNotEquals(
    toolsHash(req([], "hi", [{ name: "t" }])),
    toolsHash(req([], "hi", [{ name: "u" }])),
  );
  assertEquals(
    toolsHash(req([], "hi", [{ name: "t", d: 1 }])),
    toolsHash(req([], "hi", [{ d: 1, name: "t" }])),
  );
});

Deno.test("providerName(): a provider string, else the class, else unknown", () => {
  class OpenAIChatLLM {}
  assertEquals(providerName({ provider: "GeminiLLM" }), "GeminiLLM");
  assertEquals(providerName(new OpenAIChatLLM()), "OpenAIChatLLM");
  assertEquals(providerName(Object.assign(new OpenAIChatLLM(), { provider: "" })), "OpenAIChatLLM");
  assertEquals(providerName(Object.assign(new OpenAIChatLLM(), { provider: 5 })), "OpenAIChatLLM");
  assertEquals(providerName({}), "unknown");
  assertEquals(providerName(Object.create(null)), "unknown");
  assertEquals(providerName(null), "unknown");
  assertEquals(providerName(undefined), "unknown");
  const anonymous = new (class {})();
  assertEquals(providerName(anonymous), "unknown");
});

Deno.test("staleReason(): older than the limit is stale, at the limit is not, undated always is", () => {
  const now = Date.parse("2026-12-07T00:00:00Z");
  const at = (days: number) => provenanceOf("P", req([]), undefined, now - days * 86_400_000);
  assertEquals(staleReason(at(30), 30, now), undefined);
  assertEquals(staleReason(at(29), 30, now), undefined);
  assertStringIncludes(staleReason(at(31), 30, now)!, "recorded 31 day(s) ago");
  assertStringIncludes(staleReason(undefined, 7, now)!, "no recorded date");
  assertStringIncludes(staleReason(undefined, 7, now)!, "staleAfterDays is 7");
  assertEquals(staleReason(at(0), 0, now), undefined);
  const p = at(1);
  assertEquals([p.provider, p.model, p.packageVersion], ["P", "m", PACKAGE_VERSION]);
  assertEquals(provenanceOf("P", req([]), "m-2026", now).model, "m-2026");
  assertEquals(p.recordedAt, "2026-12-06T00:00:00.000Z");
});

Deno.test("isoAt() is toISOString(), kept per second, for any instant (property)", () => {
  const edges = [0, 999, 1000, 1_765_000_000_000, 1_765_000_000_999, 1_765_000_001_000];
  for (const ms of [...edges, 253_402_300_799_999, 253_402_300_800_000, -1, -86_400_001]) {
    assertEquals(isoAt(ms), new Date(ms).toISOString(), String(ms));
  }
  // Within one second the kept prefix is reused; the next second is new.
  assertEquals(isoAt(1_765_000_000_005), "2025-12-06T05:46:40.005Z");
  assertEquals(isoAt(1_765_000_000_050), "2025-12-06T05:46:40.050Z");
  assertEquals(isoAt(1_765_000_001_000), "2025-12-06T05:46:41.000Z");
  fc.assert(
    fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
      assertEquals(isoAt(ms), new Date(ms).toISOString());
    }),
    { numRuns: 2000 },
  );
});

Deno.test("systemHash() and toolsHash() are SHA-256 of the canonical JSON, on the short paths too", () => {
  const sha = (v: unknown) => hash(canonicalJson(v)).slice(0, 24);
  assertEquals(systemHash(req(["Be brief."])), sha(["Be brief."]));
  assertEquals(systemHash(req(['say "hi"\n'])), sha(['say "hi"\n']));
  assertEquals(systemHash(req(["a", "b"])), sha(["a", "b"]));
  assertEquals(systemHash(req([])), sha([]));
  const parts = [{ type: "text", text: "x" }];
  assertEquals(
    systemHash({ model: "m", messages: [{ role: "system", content: parts }] } as never),
    sha([parts]),
  );
  assertEquals(toolsHash(req([])), sha([]));
  assertEquals(toolsHash(req([], "hi", [])), sha([]));
  assertEquals(toolsHash(req([], "hi", [{ name: "t" }])), sha([{ name: "t" }]));
});

Deno.test("provenanceOf() dates the entry with isoAt()", () => {
  const p = provenanceOf("P", req(["s"]) as never, undefined, 1_765_000_000_042);
  assertEquals(p.recordedAt, "2025-12-06T05:46:40.042Z");
  assertEquals(p.model, "m");
});

Deno.test("providerName(): a port's providerFor(request) first, for that request only", () => {
  const a = {};
  const b = {};
  const port = {
    provider: "Last",
    providerFor(this: { provider: string }, request: object) {
      // Called on the port itself.
      return request === a ? "AnthropicLLM" : request === b ? "" : undefined;
    },
  };
  assertEquals(providerName(port, a), "AnthropicLLM");
  // An empty or missing answer falls back to the port's own name; no request, no question.
  assertEquals(providerName(port, b), "Last");
  assertEquals(providerName(port, {}), "Last");
  assertEquals(providerName(port), "Last");
  assertEquals(providerName({ provider: "P", providerFor: "not a function" }, a), "P");
  const self = {
    provider: "Self",
    providerFor(this: { provider: string }) {
      return `${this.provider}!`;
    },
  };
  assertEquals(providerName(self, a), "Self!");
});
