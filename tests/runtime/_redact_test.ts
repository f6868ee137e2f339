// The one redaction engine: every secret shape masked, ordinary text kept,
// the caller's literals and patterns applied whatever their flags.
import { assert, assertEquals, assertFalse } from "@std/assert";
import fc from "fast-check";
import {
  isSecretHeader,
  isSecretName,
  looksLikeCredential,
  REDACTED,
  Redactor,
  redactText,
} from "../../runtime/_redact.ts";
import { hiddenSecret, PROSE, SECRET_CASES } from "../_secret_cases.ts";

Deno.test("redactText() masks every secret shape", async (t) => {
  for (const c of SECRET_CASES) {
    await t.step(c.name, () => {
      const out = redactText(c.text);
      assertFalse(out.includes(c.secret), `${c.secret} survived: ${out}`);
      assert(out.includes(REDACTED), out);
    });
  }
});

Deno.test("redactText() leaves ordinary text as it is", async (t) => {
  for (const text of PROSE) {
    await t.step(text, () => assertEquals(redactText(text), text));
  }
});

Deno.test("redactText() keeps what tells a reader where a secret was", () => {
  const cases: Array<[string, string]> = [
    ["Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer [REDACTED]"],
    ["sent Basic dXNlcjpwYXNz", "sent Basic [REDACTED]"],
    ['{"apiKey": "k-1234", "n": 1}', '{"apiKey": "[REDACTED]", "n": 1}'],
    ["{'token': 'abcd'}", "{'token': '[REDACTED]'}"],
    ['{\\"secret\\": \\"s3\\"}', '{\\"secret\\": \\"[REDACTED]\\"}'],
    [
      "https://u:p4ss@h.io/v1?api_key=zz99&x=1",
      "https://[REDACTED]@h.io/v1?api_key=[REDACTED]&x=1",
    ],
    ["Cookie: a=1; b=2\nAccept: */*", "Cookie: [REDACTED]\nAccept: */*"],
    [
      "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY----- after",
      "[REDACTED] after",
    ],
    ["token=ab12 then sk-proj-0123456789ab", "token=[REDACTED] then [REDACTED]"],
    ["sk-proj-0123456789ab and ghp_abcdefghijklmnopqrstu", "[REDACTED] and [REDACTED]"],
    ["Bearer abcdefghij1 and Bearer klmnopqrs2", "Bearer [REDACTED] and Bearer [REDACTED]"],
    ["set `api_key=abc123` in env", "set `api_key=[REDACTED]` in env"],
  ];
  for (const [text, shown] of cases) assertEquals(redactText(text), shown);
});

Deno.test("redactText(): a value under a name that is not secret is still scanned", () => {
  assertEquals(redactText("note: x-api-key: k-9999"), "note: x-api-key: [REDACTED]");
  assertEquals(
    redactText("url=https://x.io/v1?key=abcdefg&sig=zzz"),
    "url=https://x.io/v1?key=[REDACTED]&sig=[REDACTED]",
  );
  assertEquals(
    redactText('{"message":"x","password":"p1"}'),
    '{"message":"x","password":"[REDACTED]"}',
  );
});

Deno.test("redactText(): empty, null-like and already masked values under secret names stay", () => {
  for (
    const text of [
      '{"api_key": ""}',
      '{\\"api_key\\": \\"\\"}',
      '{"api_key": null}',
      "token=true",
      "secret=false",
      "key=undefined",
      "password: [REDACTED]",
      'password: "[REDACTED]"',
      "authorization: ***",
      "authorization: Basic",
      "authorization: bearer",
      "authorization: Token",
      "short",
    ]
  ) assertEquals(redactText(text), text);
});

Deno.test("redactText(): a value is harmless only when it is a whole keyword, and short ones count", () => {
  assertEquals(redactText("api_key=notnull"), "api_key=[REDACTED]");
  assertEquals(redactText("token=truevalue"), "token=[REDACTED]");
  assertEquals(redactText("pwd=abc"), "pwd=[REDACTED]");
  assertEquals(redactText("pwd=abcd"), "pwd=[REDACTED]");
  assertEquals(redactText("key=x"), "key=[REDACTED]");
});

Deno.test("isSecretName() reads the last word of a name", () => {
  const secret = [
    "apiKey",
    "api_key",
    "API-KEY",
    "apikey",
    "XApiKey",
    "OPENAI_API_KEY",
    "secretAccessKey",
    "aws_secret_access_key",
    "api_token",
    "apiToken",
    "accesstoken",
    "sessionToken",
    "client_secret",
    "password",
    "db_passwd",
    "pwd",
    "passphrase",
    "credentials",
    "auth",
    "authorization",
    "Proxy-Authorization",
    "cookie",
    "set-cookie",
    "session",
    "sessionid",
    "x-amz-signature",
    "sig",
    "lookup_key",
    "api_key_",
    "--api-key--",
  ];
  const plain = [
    "keyboard",
    "monkey",
    "key_id",
    "token_count",
    "max_tokens",
    "inputTokens",
    "tokens",
    "keys",
    "privateKeyId",
    "password_hash",
    "authentication",
    "secret_name",
    "model",
    "",
    "__",
  ];
  for (const n of secret) assert(isSecretName(n), `${n} should be secret`);
  for (const n of plain) assertFalse(isSecretName(n), `${n} should not be secret`);
});

Deno.test("isSecretHeader() goes by a name pattern, not a list", () => {
  for (
    const h of [
      "authorization",
      "x-api-key",
      "api-key",
      "x-goog-api-key",
      "x-portkey-api-key",
      "ocp-apim-subscription-key",
      "cookie",
      "x-auth-token",
      "x-amz-security-token",
      "x-session-affinity",
      "x-db-password",
      "x-credential",
      "x-hub-signature-256",
    ]
  ) assert(isSecretHeader(h), h);
  for (const h of ["content-type", "accept", "anthropic-version", "user-agent", "x-request-id"]) {
    assertFalse(isSecretHeader(h), h);
  }
});

Deno.test("looksLikeCredential(): after Bearer anything but auth words, after Basic only base64", () => {
  assert(looksLikeCredential("Bearer", "abcdefghij"));
  assertFalse(looksLikeCredential("Bearer", "authentication"));
  assertFalse(looksLikeCredential("Bearer", "Authorization"));
  assertFalse(looksLikeCredential("Bearer", "credential"));
  assertFalse(looksLikeCredential("BEARER", "credentials"));
  assert(looksLikeCredential("Bearer", "xauthentication"));
  assert(looksLikeCredential("Bearer", "authenticationx"));
  assert(looksLikeCredential("Bearer", "headersxyz"));
  assertFalse(looksLikeCredential("Basic", "IMPORTANT"));
  assertFalse(looksLikeCredential("bearer", "Headers"));
  assertFalse(looksLikeCredential("Bearer", "abcdefg"));
  assertFalse(looksLikeCredential("Basic", "information"));
  assertFalse(looksLikeCredential("Basic", "Understanding"));
  assert(looksLikeCredential("Basic", "dXNlcjpwYXNz"));
  assert(looksLikeCredential("Basic", "abcdefg1"));
  assert(looksLikeCredential("Basic", "abcdefg="));
  assert(looksLikeCredential("basic", "abcd.efgh"));
});

Deno.test("Redactor: literals are masked whole, the longest first; empty ones are ignored", () => {
  const r = new Redactor({ literals: ["abc", "abcdef", ""], extra: ["", "zz"] });
  assertEquals(r.text("x abcdef y abc zz"), "x [REDACTED] y [REDACTED] [REDACTED]");
  assertEquals(r.text("nothing here"), "nothing here");
  assertEquals(new Redactor().text("plain"), "plain");
});

Deno.test("Redactor: a caller's pattern masks every match, whatever its flags, call after call", () => {
  const flags = ["", "g", "y", "gy", "i", "gi", "iy", "m", "s", "u", "d"];
  for (const f of flags) {
    const pattern = new RegExp("T-\\d", f);
    const r = new Redactor({ extra: [pattern] });
    for (let i = 0; i < 3; i++) {
      assertEquals(
        r.text("T-1 and T-2, T-3"),
        "[REDACTED] and [REDACTED], [REDACTED]",
        `flags ${f}`,
      );
    }
    assertEquals(pattern.lastIndex, 0, "the caller's pattern is not touched");
  }
  const insensitive = new Redactor({ extra: [/t-\d/iy] });
  assertEquals(insensitive.text("T-1 t-2"), "[REDACTED] [REDACTED]");
});

Deno.test("Redactor: a caller's pattern whose lastIndex was left set still masks from the start", () => {
  const pattern = /T-\d/g;
  pattern.lastIndex = 5;
  assertEquals(new Redactor({ extra: [pattern] }).text("T-1 T-2"), "[REDACTED] [REDACTED]");
});

Deno.test("Redactor: a pattern that matches empty inserts nothing", () => {
  assertEquals(new Redactor({ extra: [/x*/] }).text("abxc"), "ab[REDACTED]c");
});

Deno.test("Redactor.field(): whole under a secret name, scrubbed as text otherwise", () => {
  const r = new Redactor();
  assertEquals(r.field("anything", true), REDACTED);
  assertEquals(r.field("", true), "");
  assertEquals(r.field("key sk-proj-0123456789ab", false), `key ${REDACTED}`);
});

Deno.test("Redactor.json(): a deep copy, strings under secret names masked at any depth, types kept", () => {
  const r = new Redactor({ literals: ["lit-value"] });
  const input = {
    model: "m",
    n: 3,
    ok: true,
    none: null,
    auth: { user: "ann", nested: ["x", 7] },
    api_key: "k",
    maxTokens: 100,
    note: "say lit-value",
    when: new Date(0),
    error: new RangeError("token=abcd1"),
    list: [{ password: "p" }, "plain"],
  };
  const out = r.json(input);
  assertEquals(out, {
    model: "m",
    n: 3,
    ok: true,
    none: null,
    auth: { user: REDACTED, nested: [REDACTED, 7] },
    api_key: REDACTED,
    maxTokens: 100,
    note: `say ${REDACTED}`,
    when: "1970-01-01T00:00:00.000Z",
    error: `RangeError: token=${REDACTED}`,
    list: [{ password: REDACTED }, "plain"],
  });
  assertEquals(input.api_key, "k", "the input is not changed");
  assertEquals(r.json("token=abcd1", true), REDACTED);
});

Deno.test("Redactor.json(): a cycle is shown once, a repeated object twice", () => {
  const shared = { v: "a" };
  const cyclic: Record<string, unknown> = { shared, again: shared };
  cyclic.self = cyclic;
  assertEquals(new Redactor().json(cyclic), {
    shared: { v: "a" },
    again: { v: "a" },
    self: "[Circular]",
  });
});

Deno.test("redactText() never lets generated key material through (property)", () => {
  fc.assert(
    fc.property(hiddenSecret, ({ text, secret }) => {
      const out = redactText(text);
      return !out.includes(secret);
    }),
    { numRuns: 300 },
  );
});

Deno.test("redactText() is idempotent on what it wrote (property)", () => {
  fc.assert(
    fc.property(hiddenSecret, ({ text }) => {
      const once = redactText(text);
      return redactText(once) === once;
    }),
    { numRuns: 200 },
  );
});

Deno.test("redactText() leaves a long ordinary text (220 kB of names and separators) unchanged", () => {
  const text = "lorem ipsum dolor: sit amet, token_count=12 ".repeat(5_000);
  const out = redactText(text);
  assertEquals(out, text);
});
