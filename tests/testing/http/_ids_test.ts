// The wire ids: each provider's format, the same for the same script on
// every run, different for two answers of one script.
import { assert, assertEquals, assertMatch, assertNotEquals } from "@std/assert";
import {
  anthropicMessageId,
  chatCompletionId,
  geminiResponseId,
  obfuscation,
  responsesId,
  systemFingerprint,
} from "../../../testing/http/_ids.ts";

Deno.test("ids: each provider's format", () => {
  assertMatch(chatCompletionId("fake-chat-1"), /^chatcmpl-[A-Za-z0-9]{29}$/);
  assertMatch(systemFingerprint("gpt-4o"), /^fp_[0-9a-f]{10}$/);
  for (const prefix of ["resp_", "msg_", "fc_", "rs_"]) {
    assertMatch(responsesId(prefix, "fake-chat-1"), new RegExp(`^${prefix}[0-9a-f]{50}$`));
  }
  assertMatch(anthropicMessageId("fake-chat-1"), /^msg_01[A-Za-z0-9]{22}$/);
  assertMatch(geminiResponseId("fake-chat-1"), /^[A-Za-z0-9]{23}$/);
});

Deno.test("ids: two seeds, two ids; one seed, one id (asked again, or after many others)", () => {
  const makers = [
    chatCompletionId,
    systemFingerprint,
    anthropicMessageId,
    geminiResponseId,
    (s: string) => responsesId("resp_", s),
    (s: string) => responsesId("fc_", s),
  ];
  for (const make of makers) {
    const a = make("fake-chat-1");
    assertNotEquals(a, make("fake-chat-2"));
    assertNotEquals(a, make("fake-chat-10"));
    assertNotEquals(make("ab"), make("ba"));
    for (let i = 0; i < 5000; i++) make(`other-${i}`);
    assertEquals(make("fake-chat-1"), a);
  }
  // The prefixes of a Responses id are kept apart, not just prepended.
  assertNotEquals(responsesId("msg_", "x").slice(4), responsesId("fc_", "x").slice(3));
  // A seed's characters all count.
  assertNotEquals(chatCompletionId("fake-chat-1x"), chatCompletionId("fake-chat-1y"));
  // Hex and base62 ids use their whole alphabet, not one letter.
  assert(new Set(responsesId("resp_", "fake-chat-1").slice(5)).size > 8);
  assert(new Set(chatCompletionId("fake-chat-1").slice(9)).size > 12);
});

Deno.test("obfuscation: sixteen pads of 1 to 15 base62 characters, taken in turn", () => {
  const pads = Array.from({ length: 32 }, (_, n) => obfuscation("any", n));
  assertEquals(pads.slice(16), pads.slice(0, 16));
  for (const p of pads) assertMatch(p, /^[A-Za-z0-9]{1,15}$/);
  assertEquals(pads.slice(0, 16).map((p) => p.length), [
    1,
    8,
    15,
    7,
    14,
    6,
    13,
    5,
    12,
    4,
    11,
    3,
    10,
    2,
    9,
    1,
  ]);
  assertEquals(new Set(pads.slice(0, 16)).size, 16);
});

// "The same script gives the same ids on every run": across processes and
// releases too, so a snapshot or a recording of the fake's answers taken
// today still matches. A change to the hash is a change every such snapshot
// sees, so it is made here, on purpose.
Deno.test("ids: the same seed gives the same id in every process and release", () => {
  assertEquals(chatCompletionId("fake-chat-1"), "chatcmpl-4JqRYEAhtzjKvN8ZeiHci1swNWUx9");
  assertEquals(systemFingerprint("gpt-4o"), "fp_fb39485b14");
  assertEquals(
    responsesId("resp_", "fake-chat-1"),
    "resp_4be26ec2755de8868d9990a8dafd09ad713be10d1e05d43897",
  );
  assertEquals(anthropicMessageId("fake-chat-1"), "msg_014JqRYEAhtzjKvN8ZeiHci1");
  assertEquals(geminiResponseId("fake-chat-1"), "4JqRYEAhtzjKvN8ZeiHci1s");
});

Deno.test("ids: a Responses item prefix asked for the first time gets its own ids", () => {
  // `ws_` (a web_search_call's id) is asked for nowhere else, so its table is made here.
  const id = responsesId("ws_", "fake-chat-1");
  assertMatch(id, /^ws_[0-9a-f]{50}$/);
  assertEquals(responsesId("ws_", "fake-chat-1"), id);
  assertNotEquals(id.slice(3), responsesId("resp_", "fake-chat-1").slice(5));
});
