// The HTTP plumbing both provider ports share, called directly: what is sent,
// how a failed answer is classified, and the guard against real requests.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
} from "@agentkit/testing/ports";
import { ModelRequestsDisallowed } from "@agentkit/testing/runtime";
import {
  checkPortOptions,
  DEFAULT_FETCH,
  endpoint,
  errorForStatus,
  errorFromBody,
  guard,
  keyFromEnv,
  markInProcess,
  postJson,
  promptRequest,
  providerMessage,
  readEnv,
  readJson,
  retryAfterMs,
  shownURL,
} from "../../../runtime/providers/_http.ts";
import { underPolicy } from "../../../runtime/_ambient.ts";

const now = () => 1_000_000;

Deno.test("checkPortOptions(): an absolute http(s) base URL, a fetch function, string headers, extras", () => {
  checkPortOptions("P", { baseURL: "http://localhost:1/v1", apiKey: "k", headers: { a: "b" } });
  checkPortOptions("P", { baseURL: "HTTPS://api.example.com" });
  checkPortOptions("P", undefined);
  for (const baseURL of ["localhost:1", "ftp://x", "http://", "http:///x", "see http://x", 5]) {
    assertThrows(() => checkPortOptions("P", { baseURL }), TypeError, "baseURL");
  }
  assertThrows(() => checkPortOptions("P", { headers: { a: 1 } }), TypeError, "headers");
  assertThrows(() => checkPortOptions("P", { version: "1" }), TypeError, "version");
  checkPortOptions("P", { version: "1" }, { version: { accepts: "x", test: () => undefined } });
});

Deno.test("checkPortOptions(): configuration mistakes are TypeErrors where given, and a key is never quoted", () => {
  const key = "sk-proj-SECRETSECRETSECRET";
  for (
    const [apiKey, says] of [
      [`${key}\n`, "a line break at position 26"],
      [` ${key}`, "whitespace at position 0"],
      [`${key}é`, "a non-ASCII character"],
      [`${key}\u0007`, "a control character"],
      [`${key}\u007f`, "a control character"],
      [`${key}\r`, "a line break"],
      [`\t${key}`, "whitespace at position 0"],
    ] as const
  ) {
    const e = assertThrows(() => checkPortOptions("P", { apiKey }), TypeError, says);
    assert(!e.message.includes("SECRET"), e.message);
  }
  for (
    const [headers, says] of [
      [{ "bad header": "v" }, "not a valid HTTP field name"],
      [{ "x-a": "v\r\nx-injected: 1" }, "a line break"],
      [{ "x-a": "v\rx" }, "a line break"],
      [{ "x-a": "v\0x" }, "a character fetch cannot send"],
      [{ "x-a": "€" }, "a character fetch cannot send"],
      [{ "x-a": 1 }, "must be a string"],
    ] as const
  ) {
    assertThrows(() => checkPortOptions("P", { headers }), TypeError, says);
  }
  for (const headers of ["x", null, [], 5]) {
    assertThrows(() => checkPortOptions("P", { headers }), TypeError, "an object of header names");
  }
  for (const apiKey of [5, null, {}]) {
    assertThrows(() => checkPortOptions("P", { apiKey }), TypeError, "printable ASCII");
  }
  for (
    const [baseURL, says] of [
      ["http://local host/v1", "whitespace"],
      ["http://user:pass@proxy.example/v1", "carries credentials"],
      ["https://key@proxy.example/v1", "carries credentials"],
    ] as const
  ) {
    const e = assertThrows(() => checkPortOptions("P", { baseURL }), TypeError, says);
    assert(!e.message.includes("pass@"), e.message);
  }
});

Deno.test("keyFromEnv(): a key from the environment is checked like the option", () => {
  Deno.env.set("AGENTKIT_HTTP_TEST_KEY", "sk-from-file\n");
  try {
    assertThrows(
      () => keyFromEnv("OpenAIChatLLM", "AGENTKIT_HTTP_TEST_KEY"),
      TypeError,
      "the AGENTKIT_HTTP_TEST_KEY environment variable contains a line break",
    );
    Deno.env.set("AGENTKIT_HTTP_TEST_KEY", "sk-ok");
    assertEquals(keyFromEnv("OpenAIChatLLM", "AGENTKIT_HTTP_TEST_KEY"), "sk-ok");
    Deno.env.set("AGENTKIT_HTTP_TEST_KEY", "");
    assertEquals(keyFromEnv("OpenAIChatLLM", "AGENTKIT_HTTP_TEST_KEY"), "");
  } finally {
    Deno.env.delete("AGENTKIT_HTTP_TEST_KEY");
  }
  assertEquals(keyFromEnv("OpenAIChatLLM", "AGENTKIT_HTTP_TEST_KEY"), undefined);
});

Deno.test("readEnv(): the variable, or undefined when unset", () => {
  Deno.env.set("AGENTKIT_HTTP_TEST_VAR", "v");
  try {
    assertEquals(readEnv("AGENTKIT_HTTP_TEST_VAR"), "v");
  } finally {
    Deno.env.delete("AGENTKIT_HTTP_TEST_VAR");
  }
  assertEquals(readEnv("AGENTKIT_HTTP_TEST_VAR"), undefined);
});

Deno.test("guard(): only a context that disallows model requests refuses, unless the fetch is in-process or the env opts in", () => {
  const real = () => Promise.resolve(new Response());
  const inProcess = () => Promise.resolve(new Response());
  markInProcess(inProcess);
  guard("P", undefined, real);
  guard("P", { allowModelRequests: true } as never, real);
  guard("P", {} as never, real);
  guard("P", { allowModelRequests: false } as never, inProcess);
  const e = assertThrows(
    () => guard("P", { allowModelRequests: false } as never, real),
    ModelRequestsDisallowed,
  );
  assert(e.message.includes("P"), e.message);
  // The old global marker is no way around the guard: only identity counts.
  const marked = Object.assign(() => Promise.resolve(new Response()), {
    [Symbol.for("agentkit.inProcessFetch")]: true,
  });
  assertThrows(
    () => guard("P", { allowModelRequests: false } as never, marked),
    ModelRequestsDisallowed,
    "not a FakeProvider's own fetch",
  );
  // The port's own default fetch gets no note about wrappers.
  const plain = assertThrows(
    () => guard("P", { allowModelRequests: false } as never, DEFAULT_FETCH),
    ModelRequestsDisallowed,
  );
  assert(!plain.message.includes("wraps provider.fetch"), plain.message);
  // A call without a context meets the policy of the code around it.
  underPolicy({ allowModelRequests: true }, () => guard("P", undefined, real));
  assertThrows(
    () => underPolicy({ allowModelRequests: false }, () => guard("P", undefined, real)),
    ModelRequestsDisallowed,
  );
  // A context passed wins over the policy around the call.
  underPolicy(
    { allowModelRequests: false },
    () => guard("P", { allowModelRequests: true } as never, real),
  );
  Deno.env.set("AGENTKIT_ALLOW_MODEL_REQUESTS", "0");
  try {
    assertThrows(
      () => guard("P", { allowModelRequests: false } as never, real),
      ModelRequestsDisallowed,
    );
  } finally {
    Deno.env.delete("AGENTKIT_ALLOW_MODEL_REQUESTS");
  }
});

Deno.test("endpoint() joins the path and keeps the query; shownURL() hides it", () => {
  assertEquals(
    [endpoint("http://a/v1/", "/x"), endpoint("http://a/v1", "/x"), endpoint("http://a", "/x")],
    ["http://a/v1/x", "http://a/v1/x", "http://a/x"],
  );
  // Azure's api-version travels as a query; a fragment is never sent.
  assertEquals(
    endpoint(
      "https://r.openai.azure.com/openai/deployments/d?api-version=2024-10-21#f",
      "/chat/completions",
    ),
    "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21",
  );
  assertEquals(endpoint("http://a/v1//", "/x"), "http://a/v1/x");
  assertEquals(shownURL("https://h/v1/x?api_key=s3cr3t"), "https://h/v1/x?...");
  assertEquals(shownURL("https://h/v1/x"), "https://h/v1/x");
});

Deno.test("promptRequest(): a prompt that is not { model, user, system? } is a TypeError", () => {
  for (
    const bad of [null, undefined, "hi", { model: "m" }, { model: "m", user: 1 }, {
      model: "m",
      user: "u",
      system: 2,
    }]
  ) {
    assertThrows(() => promptRequest(bad as never), TypeError, "complete() takes");
  }
});

Deno.test("promptRequest()", () => {
  const signal = new AbortController().signal;
  assertEquals(promptRequest({ model: "m", system: "sys", user: "u", signal }), {
    model: "m",
    signal,
    messages: [{ role: "system", content: "sys" }, { role: "user", content: "u" }],
  });
  assertEquals(promptRequest({ model: "m", system: "", user: "u" }).messages, [
    { role: "user", content: "u" },
  ]);
});

Deno.test("postJson(): POSTs the JSON body with the headers and signal; an ok response comes back as is", async () => {
  const seen: Request[] = [];
  const ok = new Response("{}");
  const signal = new AbortController().signal;
  const res = await postJson(
    "P",
    (input, init) => {
      seen.push(new Request(input, init));
      assertStrictEquals(init?.signal, signal);
      return Promise.resolve(ok);
    },
    "http://x/y",
    { "x-h": "1" },
    { a: [1] },
    signal,
  );
  assertStrictEquals(res, ok);
  assertEquals([seen[0].method, seen[0].url, seen[0].headers.get("x-h")], [
    "POST",
    "http://x/y",
    "1",
  ]);
  assertEquals(await seen[0].json(), { a: [1] });
});

Deno.test("postJson(): a network failure is retryable pre_stream; an abort rethrows the reason", async () => {
  const cause = new TypeError("connection refused");
  const e = await assertRejects(
    () => postJson("P", () => Promise.reject(cause), "http://x", {}, {}, undefined),
    ProviderError,
  );
  assertEquals([e.retryable, e.phase, e.cause], [true, "pre_stream", cause]);
  assert(e.message.includes("connection refused") && e.message.includes("http://x"), e.message);
  const c = new AbortController();
  const reason = new Error("user cancelled");
  c.abort(reason);
  const aborted = await assertRejects(() =>
    postJson("P", () => Promise.reject(new Error("aborted")), "http://x", {}, {}, c.signal)
  );
  assertStrictEquals(aborted, reason);
});

Deno.test("postJson(): a failed status is classified from its body; an unreadable body still classifies", async () => {
  const fail = (body: BodyInit | null, status: number, headers: HeadersInit = {}) => () =>
    postJson(
      "P",
      () => Promise.resolve(new Response(body, { status, headers })),
      "u",
      {},
      {},
      undefined,
    );
  const e = await assertRejects(
    fail('{"error":{"message":"bad key"}}', 401),
    ProviderResponseError,
  );
  assertEquals(e.status, 401);
  assert(e.message.includes("bad key"), e.message);
  const limited = await assertRejects(fail("", 429, { "retry-after": "3" }), RateLimitError);
  assertEquals(limited.retryAfterMs, 3000);
  const broken = new ReadableStream({ pull: (c) => c.error(new Error("reset")) });
  const unreadable = await assertRejects(fail(broken, 503), ProviderError);
  assertEquals([unreadable.status, unreadable.retryable], [503, true]);
  const c = new AbortController();
  const reason = new Error("stop");
  const abortedRead = await assertRejects(() =>
    postJson(
      "P",
      () => {
        c.abort(reason);
        return Promise.resolve(
          new Response(new ReadableStream({ pull: (x) => x.error(new Error("r")) }), {
            status: 500,
          }),
        );
      },
      "u",
      {},
      {},
      c.signal,
    )
  );
  assertStrictEquals(abortedRead, reason);
});

Deno.test("readJson(): the parsed body; a body that is not JSON is a ProviderResponseError; an abort rethrows", async () => {
  assertEquals(await readJson("P", Response.json({ a: 1 }), undefined), { a: 1 });
  const e = await assertRejects(
    () => readJson("P", new Response("<html>", { status: 200 }), undefined),
    ProviderResponseError,
  );
  assertInstanceOf(e.cause, SyntaxError);
  assert(e.message.includes("200"), e.message);
  const c = new AbortController();
  const reason = new Error("stop");
  c.abort(reason);
  assertStrictEquals(await assertRejects(() => readJson("P", new Response("x"), c.signal)), reason);
});

Deno.test("providerMessage(): the provider's own message from its error JSON, in each shape", () => {
  assertEquals(providerMessage('{"error":"plain"}'), "plain");
  assertEquals(providerMessage('{"error":{"message":"nested"}}'), "nested");
  assertEquals(providerMessage('{"message":"top"}'), "top");
  assertEquals(providerMessage('{"error":{"message":5},"message":"top"}'), "top");
  assertEquals(providerMessage('{"error":{"code":1}}'), undefined);
  assertEquals(providerMessage("null"), undefined);
  assertEquals(providerMessage("not json"), undefined);
});

Deno.test("retryAfterMs(): retry-after-ms first, then retry-after in seconds or as a date", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  assertEquals(retryAfterMs(h({ "retry-after-ms": "1500", "retry-after": "9" })), 1500);
  assertEquals(retryAfterMs(h({ "retry-after-ms": "0" })), 0);
  assertEquals(retryAfterMs(h({ "retry-after-ms": "-5", "retry-after": "2" })), 2000);
  assertEquals(retryAfterMs(h({ "retry-after-ms": "soon", "retry-after": "2" })), 2000);
  assertEquals(retryAfterMs(h({ "retry-after": "0" })), 0);
  assertEquals(retryAfterMs(h({ "retry-after": "1.5" })), 1500);
  const date = new Date(now()).toUTCString();
  const at = new Date(now() + 4_000).toUTCString();
  assertEquals(retryAfterMs(h({ "retry-after": at, date })), 4_000);
  const past = new Date(now() - 60_000).toUTCString();
  assertEquals(retryAfterMs(h({ "retry-after": past, date })), 0);
  // Without a Date header, the wall clock: a date a minute ahead is about a minute.
  const ahead = retryAfterMs(h({ "retry-after": new Date(Date.now() + 60_000).toUTCString() }))!;
  assert(ahead > 55_000 && ahead <= 60_000, `${ahead}`);
  assertEquals(retryAfterMs(h({ "retry-after": "whenever" })), undefined);
  assertEquals(retryAfterMs(h({})), undefined);
  // A negative number of seconds is never a negative wait.
  for (const after of ["-1", "-0.5"]) {
    const ms = retryAfterMs(h({ "retry-after": after }));
    assert(ms === undefined || ms >= 0, `${after}: ${ms}`);
  }
});

Deno.test("errorForStatus(): each status class gets its error, retryability and phase", () => {
  const of = (status: number, text = "", headers: Record<string, string> = {}) =>
    errorForStatus("P", status, new Headers(headers), text);
  const limited = of(429, "", { "retry-after-ms": "250" });
  assertInstanceOf(limited, RateLimitError);
  assertEquals([(limited as RateLimitError).retryAfterMs, limited.status, limited.retryable], [
    250,
    429,
    true,
  ]);
  assertEquals((of(429) as RateLimitError).retryAfterMs, undefined);
  const timeout = of(408);
  assertInstanceOf(timeout, ProviderTimeoutError);
  assertEquals([timeout.status, timeout.retryable], [408, true]);
  for (const status of [409, 500, 503, 599]) {
    const e = of(status);
    assertEquals([e.constructor, e.retryable, e.phase, e.status], [
      ProviderError,
      true,
      "pre_stream",
      status,
    ]);
  }
  for (const status of [400, 401, 403, 404, 422, 499]) {
    const e = of(status);
    assertInstanceOf(e, ProviderResponseError);
    assertEquals([e.retryable, e.status], [false, status]);
  }
  // The provider's message, else the raw text (trimmed, capped), else a placeholder.
  assert(of(400, '{"error":{"message":"why"}}').message.includes("why"));
  assert(
    of(400, "  raw text  ").message.includes("400: raw text"),
    of(400, "  raw text  ").message,
  );
  assert(!of(400, "x".repeat(600)).message.includes("x".repeat(501)));
  assert(of(400, "   ").message.length > "P answered 400: ".length);
  // 401 and 404 say what to check; other client errors do not add it.
  const hinted = [of(401), of(404), of(400)].map((e) =>
    e.message.length - "P answered 4xx: no message".length
  );
  assert(hinted[0] > 0 && hinted[1] > 0 && hinted[2] === 0, String(hinted));
  assert(hinted[0] !== hinted[1]);
});

Deno.test("errorFromBody(): the provider's error in our classes, by its documented type or code", () => {
  const cases: Array<[unknown, string, boolean, number | undefined]> = [
    [{ type: "rate_limit_error", message: "m" }, "RateLimitError", true, undefined],
    [{ code: "rate_limit_exceeded", message: "m" }, "RateLimitError", true, undefined],
    [{ status: "RESOURCE_EXHAUSTED", code: 429, message: "m" }, "RateLimitError", true, 429],
    [{ code: 429 }, "RateLimitError", true, 429],
    [{ type: "overloaded_error" }, "ProviderError", true, undefined],
    [{ type: "api_error" }, "ProviderError", true, undefined],
    [{ type: "server_error" }, "ProviderError", true, undefined],
    [{ status: "UNAVAILABLE", code: 503 }, "ProviderError", true, 503],
    [{ status: "INTERNAL" }, "ProviderError", true, undefined],
    [{ status: "DEADLINE_EXCEEDED" }, "ProviderError", true, undefined],
    [{ code: 500 }, "ProviderError", true, 500],
    [{ code: 408 }, "ProviderError", true, 408],
    [{ status: 409 }, "ProviderError", true, 409],
    [{ code: 499 }, "ProviderResponseError", false, 499],
    [{ type: "invalid_request_error", message: "m" }, "ProviderResponseError", false, undefined],
    [{ type: "insufficient_quota", message: "m" }, "ProviderResponseError", false, undefined],
    [{}, "ProviderResponseError", false, undefined],
    ["a bare string", "ProviderResponseError", false, undefined],
    [null, "ProviderResponseError", false, undefined],
  ];
  for (const [body, name, retryable, status] of cases) {
    const e = errorFromBody("P", body, "pre_stream");
    assertEquals(
      [e.name, e.retryable, e.phase, e.status],
      [name, retryable, "pre_stream", status],
      JSON.stringify(body),
    );
  }
  assertEquals(
    errorFromBody("P", { type: "server_error", message: "boom" }, "pre_stream").message,
    "P reported an error (server_error): boom",
  );
  assertEquals(
    errorFromBody("P", { code: 503, message: "" }, "pre_stream").message,
    "P reported an error with status 503: no message",
  );
  assertEquals(
    errorFromBody("P", "plain words", "pre_stream").message,
    "P reported an error: plain words",
  );
  assertStringIncludes(
    errorFromBody("P", { type: "insufficient_quota" }, "pre_stream").message,
    "add credit",
  );
  // After content nothing is retried, whatever the type; what was reported is kept.
  const usage = { inputTokens: 1, outputTokens: 2 };
  const mid = errorFromBody("P", { type: "overloaded_error" }, "mid_stream", {
    finishReason: "length",
    usage,
  });
  assertEquals([mid.name, mid.retryable, mid.phase, mid.usage, mid.finishReason], [
    "ProviderResponseError",
    false,
    "mid_stream",
    usage,
    "length",
  ]);
});

Deno.test("postJson(): a fetch that rejects with a non-Error still names what it said", async () => {
  const e = await assertRejects(
    () =>
      postJson(
        "P",
        () => Promise.reject("socket hang up"),
        "http://x/y?key=secret",
        {},
        {},
        undefined,
      ),
    ProviderError,
  );
  assertStringIncludes(e.message, "(socket hang up)");
  assertStringIncludes(e.message, "http://x/y?...");
  assert(!e.message.includes("secret"), e.message);
});

Deno.test("retryAfterMs(): an empty retry-after is no hint", () => {
  assertEquals(retryAfterMs(new Headers({ "retry-after": " " })), undefined);
});

Deno.test("ModelRequestsDisallowed: the wrapper note only when the port was given a fetch of its own", () => {
  const plain = new ModelRequestsDisallowed("OpenAIChatLLM");
  assert(
    plain.message.startsWith(
      "Cannot send a real model request from a test: OpenAIChatLLM was called under a test context (makeTestCtx), which refuses real provider requests so that no test spends money or reaches the network by accident. Script the model",
    ),
    plain.message,
  );
  const wrapped = new ModelRequestsDisallowed("OpenAIChatLLM", true);
  assertStringIncludes(
    wrapped.message,
    "by accident. Its fetch option is not a FakeProvider's own fetch",
  );
  assertEquals([plain.port, plain.name], ["OpenAIChatLLM", "ModelRequestsDisallowed"]);
});

Deno.test("errorFromBody(): blank words are no message, and long ones are cut with a count", () => {
  const of = (error: unknown) => errorFromBody("P", error, "pre_stream").message;
  assertEquals(of({ message: " \n " }), "P reported an error: no message");
  assertEquals(of(" \t "), "P reported an error: no message");
  assertEquals(of({ message: " words " }), "P reported an error:  words ");
  assertEquals(
    of({ message: "w".repeat(2_500) }),
    `P reported an error: ${"w".repeat(2_000)} ... (500 more characters left out)`,
  );
  assertEquals(
    of("s".repeat(2_001)),
    `P reported an error: ${"s".repeat(2_000)} ... (1 more characters left out)`,
  );
});

Deno.test("errorForStatus(): the provider's words up to 2,000 characters, a raw body up to 500", () => {
  const of = (text: string) => errorForStatus("P", 400, new Headers(), text).message;
  const json = (message: string) => JSON.stringify({ error: { message } });
  assertEquals(of(json("  bad model  ")), "P answered 400: bad model");
  assertEquals(
    of(json("m".repeat(2_100))),
    `P answered 400: ${"m".repeat(2_000)} ... (100 more characters left out)`,
  );
  // Not the provider's JSON: the body itself, trimmed, and cut sooner.
  assertEquals(
    of(`  <html>${"h".repeat(600)}</html>\n`),
    `P answered 400: <html>${"h".repeat(494)} ... (113 more characters left out)`,
  );
  assertEquals(of(" \n "), "P answered 400: no message");
  assertEquals(of(""), "P answered 400: no message");
  // Blank words in the provider's JSON: the body is what there is to show.
  assertEquals(of(json("   ")), `P answered 400: ${json("   ")}`);
});

Deno.test("checkPortOptions(): a Headers is taken as it is; its own checks ran when it was built", () => {
  checkPortOptions("P", { headers: new Headers({ "x-route": "a", authorization: "Bearer t" }) });
  checkPortOptions("P", { headers: new Headers() });
  assertThrows(() => new Headers({ "bad name": "x" }), TypeError);
});
