import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { HarnessError } from "@agentkit/testing/runtime";
import { CassetteMismatch } from "@agentkit/testing/testing";
import { onDeno, recordCommand } from "../../../testing/cassette/_record_command.ts";

Deno.test("CassetteMismatch shows both values as JSON, nothing for an absent one", () => {
  const e = new CassetteMismatch("a.jsonl", 3, "settings", { temperature: 0.2 }, undefined);
  assert(e instanceof HarnessError);
  assertEquals([e.path, e.request, e.field], ["a.jsonl", 3, "settings"]);
  assertEquals([e.recorded, e.actual], [{ temperature: 0.2 }, undefined]);
  assertStringIncludes(
    e.message,
    'Cassette a.jsonl: request 3 differs from the recording at settings: recorded {"temperature":0.2}, got nothing.',
  );
  assertStringIncludes(e.message, "delete a.jsonl and run the test once");
});

Deno.test("CassetteMismatch without a field speaks of the whole request", () => {
  const e = new CassetteMismatch("a.jsonl", 1, "", 1, 2);
  assertStringIncludes(e.message, "differs from the recording at the request: recorded 1, got 2");
});

Deno.test("CassetteMismatch shortens a long value to 200 characters and shows a symbol", () => {
  const long = "x".repeat(250);
  const e = new CassetteMismatch("a.jsonl", 1, "messages[0].content", long, Symbol("tool"));
  assertStringIncludes(e.message, `recorded "${"x".repeat(199)}…, got Symbol(tool).`);
  const exact = "y".repeat(198); // 200 characters once quoted: shown whole
  const whole = new CassetteMismatch("a.jsonl", 1, "model", exact, "z");
  assertStringIncludes(whole.message, `recorded "${exact}", got "z".`);
  const over = "y".repeat(199); // 201 characters once quoted
  const cut = new CassetteMismatch("a.jsonl", 1, "model", over, "z");
  assertStringIncludes(cut.message, `recorded "${over}…, got "z".`);
});

Deno.test("CassetteMismatch takes a sentence of its own in place of the difference", () => {
  const e = new CassetteMismatch(
    "a.jsonl",
    2,
    "",
    undefined,
    undefined,
    "request 2 has no recording",
  );
  assertEquals(
    e.message.split(". If")[0],
    "Cassette a.jsonl: request 2 has no recording",
  );
});

Deno.test("CassetteMismatch's re-record hint is the command of the runtime the test runs on", () => {
  const e = new CassetteMismatch("a.jsonl", 1, "model", "m1", "m2");
  assertStringIncludes(
    e.message,
    "re-record: AGENTKIT_CASSETTE=record deno test -A <your test file> (or delete a.jsonl",
  );
  assertEquals(onDeno(), true);
  // Node's global, and a stand-in that only names itself Deno, are not Deno.
  assertEquals([onDeno({}), onDeno({ Deno: {} }), onDeno({ Deno: { version: "2" } })], [
    false,
    false,
    false,
  ]);
  assertEquals(onDeno({ Deno: { version: { deno: "2.9.6" } } }), true);
  assertEquals(recordCommand(true), "AGENTKIT_CASSETTE=record deno test -A <your test file>");
  assertEquals(recordCommand(false), "AGENTKIT_CASSETTE=record node --test <your test file>");
});
