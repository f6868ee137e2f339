import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { noteRunFailed } from "../../runtime/internal.ts";
import { failedRuns, noteOn, verifyAtDispose } from "../../testing/_dispose_verify.ts";
import { UnusedTurns } from "../../testing/errors.ts";

const unmet = () => new UnusedTurns("FakeLLM.script", 2, 1);
const NOTE = "\n\nThe scripted double's dispose found, after this failure: UnusedTurns: ";

Deno.test("noteOn: the claim goes into the run error's message and its stack's first line", () => {
  const error = new TypeError("the run broke");
  const frames = error.stack!.slice(error.stack!.indexOf("\n    at "));
  noteOn(error, unmet());
  const said = `the run broke${NOTE}${unmet().message}`;
  assertEquals(error.message, said);
  assertEquals(error.stack, `TypeError: ${said}${frames}`);
  // Told twice, it says it once.
  noteOn(error, unmet());
  assertEquals(error.message, said);
});

Deno.test("noteOn: an error without a message, without a stack, or frozen", () => {
  const bare = new Error();
  noteOn(bare, unmet());
  assertEquals(bare.message, `${NOTE}${unmet().message}`);
  assert(bare.stack!.startsWith(`Error: The scripted double's dispose found`), bare.stack);

  const stackless = { name: "Odd", message: "odd" };
  noteOn(stackless, unmet());
  assertEquals(stackless.message, `odd${NOTE}${unmet().message}`);

  const renamed = new Error("x");
  renamed.stack = "custom stack";
  noteOn(renamed, unmet());
  assertEquals(renamed.stack, `custom stack${NOTE}${unmet().message}`);

  const named = Object.assign(new Error(""), { stack: "Boom\n    at here", name: "Boom" });
  noteOn(named, unmet());
  assertEquals(
    named.stack,
    `Boom: The scripted double's dispose found, after this failure: UnusedTurns: ${unmet().message}\n    at here`,
  );

  const frozen = Object.freeze(new Error("frozen"));
  noteOn(frozen, unmet());
  assertEquals(frozen.message, "frozen");

  const plain = { message: "plain" };
  noteOn(plain, "not an error");
  assertEquals(
    plain.message,
    `plain\n\nThe scripted double's dispose found, after this failure: not an error`,
  );
});

Deno.test("noteOn: a claim that is not an Error is said as its name and message, or as text", () => {
  const error = new Error("run");
  noteOn(error, { name: "Claim", message: "two left" });
  assert(error.message.endsWith("after this failure: Claim: two left"), error.message);
  const other = new Error("run");
  noteOn(other, null);
  assert(other.message.endsWith("after this failure: null"), other.message);
  // A stack that opens with the message itself (no "Name: " before it).
  const bare = Object.assign(new Error("run"), { stack: "run\n    at here" });
  noteOn(bare, unmet());
  assertEquals(bare.stack, `run${NOTE}${unmet().message}\n    at here`);
});

Deno.test("noteOn: what it cannot annotate is left as is", () => {
  const same = new Error("exhausted");
  noteOn(same, same);
  assertEquals(same.message, "exhausted");
  noteOn("a string", unmet());
  noteOn(null, unmet());
  const numbered = { message: 7 };
  noteOn(numbered, unmet());
  assertEquals(numbered.message, 7);
});

Deno.test("verifyAtDispose: throws what verify() throws unless a run on that context failed after", () => {
  const ctx = {};
  const at = failedRuns();
  let verified = 0;
  const verify = () => {
    verified++;
    throw unmet();
  };
  assertThrows(() => verifyAtDispose(verify, ctx, at), UnusedTurns);
  const error = new Error("the run failed");
  noteRunFailed(ctx, error);
  verifyAtDispose(verify, ctx, at);
  assertEquals(verified, 2);
  assert(error.message.startsWith(`the run failed${NOTE}`), error.message);
  // A call after that failure is strict again.
  assertThrows(() => verifyAtDispose(verify, ctx, failedRuns()), UnusedTurns);
  // A verify that passes passes either way.
  verifyAtDispose(() => {}, ctx, at);
  assertStrictEquals(verifyAtDispose(() => {}, ctx, failedRuns()), undefined);
});
