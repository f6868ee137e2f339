// What a port does to an error before it leaves: its own credentials and
// every credential shape out of message, stack and cause chain, in place.
import {
  assert,
  assertEquals,
  assertFalse,
  assertInstanceOf,
  assertStrictEquals,
} from "@std/assert";
import { ProviderError, RateLimitError } from "@agentkit/testing/ports";
import { REDACTED, Redactor } from "../../runtime/_redact.ts";
import { portRedactor, scrubError } from "../../runtime/_scrub_error.ts";

Deno.test("portRedactor(): the key, the caller's header values and the baseURL's credentials", () => {
  const r = portRedactor(
    "https://bob:pw%2F42@gw.example.com/v1?api_key=q-77&api-version=2024-06-01",
    [
      { authorization: "Bearer tok1", "anthropic-version": "2023-06-01" },
      { "x-org": "org-team-a1", "x-flag": "1", accept: "application/json", "x-sig": "abcd" },
    ],
  );
  const text = r.text(
    "tok1 | org-team-a1 | bob | pw/42 | pw%2F42 | q-77 | flag 1 | 2023-06-01 | 2024-06-01 | application/json | abcd",
  );
  assertEquals(
    text,
    `${REDACTED} | ${REDACTED} | bob | ${REDACTED} | ${REDACTED} | ${REDACTED} | flag 1 | 2023-06-01 | 2024-06-01 | application/json | ${REDACTED}`,
  );
});

Deno.test("portRedactor(): a short value is masked only under a secret name, and from 4 characters", () => {
  const r = portRedactor("http://localhost:8000/v1", [{ "x-api-key": "abcd", "x-team": "blue" }, {
    authorization: "Bearer k",
  }]);
  assertEquals(r.text("abcd blue k"), `${REDACTED} blue k`);
});

Deno.test("portRedactor(): Basic credentials are masked encoded, decoded and by part", () => {
  const basic = btoa("alice:wonderland9");
  const r = portRedactor("http://x", [{ authorization: `Basic ${basic}` }]);
  assertEquals(r.text(`${basic} wonderland9 alice`), `${REDACTED} ${REDACTED} ${REDACTED}`);
  const broken = portRedactor("http://x", [{ authorization: "Basic %%%notbase64" }]);
  assertEquals(broken.text("%%%notbase64"), REDACTED);
});

Deno.test("portRedactor(): values as a URL quotes them, percent-encoded either way", () => {
  const r = portRedactor("https://bob:pw%2f42@h.example.com/v1", [{ "x-org": "org team/alpha" }]);
  assertEquals(r.text("org%20team%2Falpha pw%2f42 pw/42"), `${REDACTED} ${REDACTED} ${REDACTED}`);
});

Deno.test("portRedactor(): the credential after a scheme, however spaced; only Basic is decoded", () => {
  const token = btoa("user:longpassword1");
  const r = portRedactor("http://x", [{
    authorization: "Bearer   tok12345 ",
    "x-token": `Token ${token}`,
    "x-three": "one second-part third",
    "x-empty-user": `Basic ${btoa(":secretpw1")}`,
  }]);
  assertEquals(
    r.text(`tok12345 ${token} longpassword1 second-part secretpw1`),
    `${REDACTED} ${REDACTED} longpassword1 second-part ${REDACTED}`,
  );
});

Deno.test("portRedactor(): protocol headers' public values are left in messages", () => {
  const r = portRedactor("http://x", [{
    "Content-Type": "application/json",
    Accept: "application/json",
    "User-Agent": "my-agent/1.0",
    "anthropic-version": "2023-06-01",
    "anthropic-beta": "tools-2024-04-04",
    "openai-beta": "assistants=v2",
  }]);
  const text = "application/json my-agent/1.0 2023-06-01 tools-2024-04-04 assistants=v2";
  assertEquals(r.text(text), text);
});

Deno.test("portRedactor(): a URL that does not parse adds nothing, and throws nothing", () => {
  assertEquals(portRedactor("not a url", []).text("not a url"), "not a url");
});

Deno.test("scrubError(): message, stack and cause chain, in place; class and fields kept", () => {
  const r = new Redactor({ literals: ["my-key-123"] });
  const root = new TypeError("connect failed for https://u:pw@h.example.com");
  const middle = new Error("sent my-key-123", { cause: root });
  const usage = { inputTokens: 3, outputTokens: 1 };
  const error = new RateLimitError("said my-key-123", { cause: middle, retryAfterMs: 50, usage });
  const out = scrubError(error, r);
  assertStrictEquals(out, error);
  assertEquals(error.message, `said ${REDACTED}`);
  assertFalse(error.stack!.includes("my-key-123"));
  assertStrictEquals(error.cause, middle);
  assertEquals(middle.message, `sent ${REDACTED}`);
  assertStrictEquals(middle.cause, root);
  assertEquals(root.message, `connect failed for https://${REDACTED}@h.example.com`);
  assertFalse(root.stack!.includes("pw@"));
  assertEquals(
    [error.name, error.retryable, error.phase, error.retryAfterMs, error.status],
    ["RateLimitError", true, "pre_stream", 50, undefined],
  );
  assertStrictEquals(error.usage, usage, "a field without secrets keeps its identity");
});

Deno.test("scrubError(): a cause that is not an Error is replaced by a scrubbed copy", () => {
  const r = new Redactor({ literals: ["lit-secret-1"] });
  const cause = { url: "https://h?api_key=abcd", headers: { authorization: "Bearer zzzz" }, n: 2 };
  const error = new ProviderError("x", { cause });
  scrubError(error, r);
  assertEquals(error.cause, {
    url: `https://h?api_key=${REDACTED}`,
    headers: { authorization: REDACTED },
    n: 2,
  });
  assertEquals(cause.headers.authorization, "Bearer zzzz", "the caller's object is not changed");
  const withString = new ProviderError("x", { cause: "echo lit-secret-1" });
  scrubError(withString, r);
  assertEquals(withString.cause, `echo ${REDACTED}`);
});

Deno.test("scrubError(): own fields of an error, objects that hold secrets replaced, others kept", () => {
  const r = new Redactor();
  const error = Object.assign(new Error("failed"), {
    url: "https://u:pw@h.io",
    token: "plain-token",
    config: { headers: { "x-api-key": "k-123" } },
    meta: { attempt: 1 },
    inner: new Error("api_key=abcd"),
    count: 3,
  });
  const meta = error.meta;
  scrubError(error, r);
  assertEquals(error.url, `https://${REDACTED}@h.io`);
  assertEquals(error.token, REDACTED);
  assertEquals(error.config, { headers: { "x-api-key": REDACTED } });
  assertStrictEquals(error.meta, meta);
  assertEquals(error.inner.message, `api_key=${REDACTED}`);
  assertEquals(error.count, 3);
  assert(Object.keys(error).includes("url"), "an enumerable field stays enumerable");
});

Deno.test("scrubError(): a field object JSON cannot render is replaced by its scrubbed copy", () => {
  const error = Object.assign(new Error("x"), { big: { n: 1n, note: "token=abcd" } });
  scrubError(error, new Redactor());
  assertEquals(error.big, { n: 1n, note: `token=${REDACTED}` });
});

Deno.test("scrubError(): AggregateError's errors, cycles and deep chains end", () => {
  const r = new Redactor({ literals: ["s3cret-value"] });
  const a = new Error("one s3cret-value");
  const agg = new AggregateError([a, "two s3cret-value"], "many");
  scrubError(agg, r);
  assertEquals(a.message, `one ${REDACTED}`);
  assertEquals(agg.errors[1], `two ${REDACTED}`);
  const loop = new Error("loop s3cret-value");
  (loop as { cause?: unknown }).cause = loop;
  scrubError(loop, r);
  assertEquals(loop.message, `loop ${REDACTED}`);
  let deep: Error = new Error("bottom s3cret-value");
  const bottom = deep;
  for (let i = 0; i < 40; i++) deep = new Error(`level ${i}`, { cause: deep });
  scrubError(deep, r);
  assertEquals(bottom.message, "bottom s3cret-value", "a chain longer than 16 is cut, not walked");
  const chain = (n: number) => {
    const last = new Error("last s3cret-value");
    let top = last;
    for (let i = 0; i < n; i++) top = new Error("link", { cause: top });
    return { top, last };
  };
  const reached = chain(16);
  scrubError(reached.top, r);
  assertEquals(reached.last.message, `last ${REDACTED}`, "16 causes deep is reached");
  const cut = chain(17);
  scrubError(cut.top, r);
  assertEquals(cut.last.message, "last s3cret-value", "17 causes deep is not");
});

Deno.test("scrubError(): a stack read before (by a logger) is scrubbed too", () => {
  const e = new Error("key s3cret-value");
  assert(e.stack!.includes("s3cret-value"));
  scrubError(e, new Redactor({ literals: ["s3cret-value"] }));
  assertFalse(e.stack!.includes("s3cret-value"));
  const stackless = Object.assign(new Error("s3cret-value"), { stack: undefined });
  scrubError(stackless, new Redactor({ literals: ["s3cret-value"] }));
  assertEquals([stackless.message, stackless.stack], [REDACTED, undefined]);
});

Deno.test("scrubError(): a rewritten message stays writable and not enumerable, like the original", () => {
  const r = new Redactor({ literals: ["s3cret-value"] });
  for (const e of [new Error("s3cret-value"), new DOMException("s3cret-value")]) {
    scrubError(e, r);
    const d = Object.getOwnPropertyDescriptor(e, "message")!;
    assertEquals([d.value, d.writable, d.configurable, d.enumerable], [
      REDACTED,
      true,
      true,
      false,
    ]);
  }
});

Deno.test("scrubError(): a frozen error is rebuilt as a plain Error of its name", () => {
  const r = new Redactor({ literals: ["frozen-secret"] });
  const frozen = Object.freeze(new TypeError("has frozen-secret", { cause: "c frozen-secret" }));
  const out = scrubError(frozen, r) as Error;
  assertInstanceOf(out, Error);
  assertEquals([out.name, out.message, out.cause], [
    "TypeError",
    `has ${REDACTED}`,
    `c ${REDACTED}`,
  ]);
  assertFalse(out.stack!.includes("frozen-secret"));
  const wrapper = new ProviderError("w", { cause: frozen });
  scrubError(wrapper, r);
  assertEquals((wrapper.cause as Error).message, `has ${REDACTED}`);
  const noStack = Object.freeze(Object.assign(new Error("frozen-secret"), { stack: undefined }));
  const rebuilt = scrubError(noStack, r) as Error;
  assertEquals(rebuilt.stack, undefined);
  assertFalse(Object.hasOwn(rebuilt, "cause"), "no cause is made up");
});

Deno.test("scrubError(): a DOMException's message (a prototype getter) is rewritten on the instance", () => {
  const e = new DOMException("aborted frozen-secret", "AbortError");
  scrubError(e, new Redactor({ literals: ["frozen-secret"] }));
  assertEquals([e.name, e.message], ["AbortError", `aborted ${REDACTED}`]);
});

Deno.test("scrubError(): what holds no secret is left as it is", () => {
  const r = new Redactor();
  const e = new Error("nothing here");
  const stack = e.stack;
  assertStrictEquals(scrubError(e, r), e);
  assertEquals([e.message, e.stack], ["nothing here", stack]);
  assertFalse(Object.hasOwn(e, "cause"));
  for (const v of [undefined, null, 42, true]) assertStrictEquals(scrubError(v, r), v);
});
