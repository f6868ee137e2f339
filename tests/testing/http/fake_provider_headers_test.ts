// FakeProvider.requests masks headers by name pattern, not a short list, and
// scrubs credential shapes from every other header.
import { assertEquals, assertFalse } from "@std/assert";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import { SECRET_CASES } from "../../_secret_cases.ts";

const CHAT = "http://localhost/v1/chat/completions";
const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] });

async function seen(headers: Record<string, string>): Promise<Record<string, string>> {
  const provider = new FakeProvider({ llm: new FakeLLM("ok") });
  const res = await provider.fetch(CHAT, {
    method: "POST",
    headers: { authorization: "Bearer sk-test", ...headers },
    body,
  });
  await res.body?.cancel();
  return { ...provider.requests[0].headers };
}

Deno.test("FakeProvider.requests masks every header whose name carries a credential", async () => {
  const names = [
    "x-api-key",
    "api-key",
    "x-goog-api-key",
    "x-portkey-api-key",
    "ocp-apim-subscription-key",
    "proxy-authorization",
    "cookie",
    "x-auth-token",
    "x-amz-security-token",
    "x-session-id",
    "x-hub-signature",
    "x-db-password",
    "x-client-secret",
    "x-credential",
  ];
  const h = await seen(Object.fromEntries(names.map((n) => [n, `value-of-${n}-9z`])));
  for (const n of names) assertEquals(h[n], "***", n);
  assertEquals(h.authorization, "Bearer ***");
});

Deno.test("FakeProvider.requests keeps the scheme of a masked credential", async () => {
  const h = await seen({ authorization: "basic dXNlcjpwYXNz", "proxy-authorization": "BEARER x" });
  assertEquals([h.authorization, h["proxy-authorization"]], ["Basic ***", "Bearer ***"]);
});

Deno.test("FakeProvider.requests keeps ordinary headers, and scrubs credential shapes from them", async () => {
  const h = await seen({
    "content-type": "application/json",
    "anthropic-version": "2023-06-01",
    "x-stainless-lang": "js",
    "x-trace": "from sk-proj-Ab3dEf6hIj9kLm2nOp5q",
  });
  assertEquals(
    [h["content-type"], h["anthropic-version"], h["x-stainless-lang"], h["x-trace"]],
    ["application/json", "2023-06-01", "js", "from [REDACTED]"],
  );
});

Deno.test("FakeProvider.requests shows no secret shape in any header", async (t) => {
  for (const c of SECRET_CASES) {
    await t.step(c.name, async () => {
      const value = c.text.replace(/[\r\n]+/g, " ");
      const h = await seen({ "x-note": value, "x-forwarded-for": value });
      const text = JSON.stringify(h);
      assertFalse(text.includes(c.secret), `${c.secret} in ${text}`);
    });
  }
});

Deno.test("FakeProvider.requests: a record masked when first read reads the same every way", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("ok") });
  const res = await provider.fetch(CHAT, {
    method: "POST",
    headers: { authorization: "Bearer sk-live-1234567890abcdef", "x-api-key": "k-1234567890" },
    body,
  });
  await res.body?.cancel();
  const [record] = provider.requests;
  const text = JSON.stringify(provider.requests);
  assertFalse(text.includes("sk-live") || text.includes("k-1234567890"), text);
  assertEquals(Object.keys(record), ["method", "path", "api", "stream", "headers", "body"]);
  assertEquals(record.headers["x-api-key"], "***");
  // The same object every read: masked once.
  assertEquals(record.headers === record.headers, true);
  assertEquals({ ...record }.headers.authorization, "Bearer ***");
});
