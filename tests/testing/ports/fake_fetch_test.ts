import * as A from "@std/assert";
import * as K from "@agentkit/testing/testing";
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import { Agent, HarnessError, ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  FakeFetch,
  FakeLLM,
  FakeTool,
  FetchNotScripted,
  InvalidScript,
  makeTestCtx,
} from "@agentkit/testing/testing";

Deno.test("FakeFetch.fetch() returns the scripted page with defaults filled in", async () => {
  const fetch = new FakeFetch({
    "https://ex/1": "plain body",
    "https://ex/2": {
      headers: { "Content-Type": "text/html; charset=utf-8" },
      body: "<p>hi</p>",
      fetchedAt: 1_700_000_000_000,
    },
    "https://ex/old": { url: "https://ex/new", status: 301 },
  });
  assertEquals(await fetch.fetch("https://ex/1"), {
    url: "https://ex/1",
    status: 200,
    headers: { "content-type": "text/plain" },
    body: "plain body",
    contentType: "text/plain",
    fetchedAt: 0,
  });
  assertEquals(await fetch.fetch("https://ex/2"), {
    url: "https://ex/2",
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: "<p>hi</p>",
    contentType: "text/html",
    fetchedAt: 1_700_000_000_000,
  });
  const moved = await fetch.fetch("https://ex/old");
  assertEquals([moved.url, moved.status, moved.body], ["https://ex/new", 301, ""]);
});

Deno.test("FakeFetch.fetch() of an unscripted URL throws FetchNotScripted naming it and the scripted URLs", async () => {
  const fetch = new FakeFetch({ "https://ex/1": "a", "https://ex/gone": { status: 404 } });
  const error = await assertRejects(() => fetch.fetch("https://ex/2"), FetchNotScripted);
  assertEquals(error.url, "https://ex/2");
  assertEquals(error.scripted, ["https://ex/1", "https://ex/gone"]);
  assert(error.message.includes('"https://ex/2"'), error.message);
  assert(error.message.includes('the scripted URLs are "https://ex/1", "https://ex/gone"'));
  assertInstanceOf(error, HarnessError);
  assertEquals(error.name, "FetchNotScripted");
});

Deno.test("FakeFetch.calls records every URL asked for, scripted or not", async () => {
  const fetch = new FakeFetch({ "https://ex/1": "a" });
  await fetch.fetch("https://ex/1");
  await fetch.fetch("https://ex/3").catch(() => {});
  assertEquals(fetch.calls, ["https://ex/1", "https://ex/3"]);
});

Deno.test("FetchNotScripted escapes ReActCognition's failing-tool catch", async () => {
  const fetch = new FakeFetch({ "https://ex/1": "a" });
  const browse = new FakeTool({
    name: "browse",
    responder: async ({ url }: { url: string }) => (await fetch.fetch(url)).body,
  });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "browse", { url: "https://ex/typo" })] },
    "unreached",
  ], { allowUnused: true });
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [browse] }),
  });
  await assertRejects(() => agent.run("read", makeTestCtx({ llm })), FetchNotScripted);
  assertEquals(llm.calls, 1); // the model never saw a made-up error page
});

Deno.test("FakeFetch.fetch() returns copies and honours an aborted signal", async () => {
  const fetch = new FakeFetch({ "https://ex/1": { headers: { a: "1" } } });
  const page = await fetch.fetch("https://ex/1");
  (page.headers as Record<string, string>).a = "changed";
  assertEquals((await fetch.fetch("https://ex/1")).headers.a, "1");
  const controller = new AbortController();
  const reason = new Error("stop");
  controller.abort(reason);
  assertStrictEquals(
    await assertRejects(() => fetch.fetch("https://ex/1", { signal: controller.signal })),
    reason,
  );
});

Deno.test("FakeFetch validates its pages when built, naming the bad key", () => {
  assertThrows(
    () => new FakeFetch({ "https://ex/1": { stauts: 404 } as never }),
    InvalidScript,
    'did you mean "status"?',
  );
  assertThrows(() => new FakeFetch({ "https://ex/1": { status: 42 } }), InvalidScript, "status");
});

Deno.test("FetchNotScripted suggests a near URL only, and says when nothing is scripted", async () => {
  const fetch = new FakeFetch({ "https://ex/1": "a" });
  const near = await assertRejects(() => fetch.fetch("https://ex/2"), FetchNotScripted);
  assert(near.message.includes('"https://ex/2" (did you mean "https://ex/1"?); the scripted'));
  const far = await assertRejects(
    () => fetch.fetch("gopher://elsewhere.example/a/long/path"),
    FetchNotScripted,
  );
  assert(
    far.message.includes(
      '"gopher://elsewhere.example/a/long/path"; the scripted URLs are "https://ex/1"',
    ),
    far.message,
  );
  const none = await assertRejects(() => new FakeFetch({}).fetch("https://ex/1"), FetchNotScripted);
  assert(none.message.includes("the scripted URLs are none; script it"), none.message);
});

Deno.test("FakeFetch takes only a map of URL to page, and names the page at fault", () => {
  for (const pages of [null, "https://ex/1", ["https://ex/1"]]) {
    assertThrows(
      () => new FakeFetch(pages as never),
      InvalidScript,
      "FakeFetch takes a map of URL to page",
    );
  }
  assertThrows(
    () => new FakeFetch({ "https://ex/1": { status: 42 } }),
    InvalidScript,
    'the FakeFetch page for "https://ex/1"',
  );
});

Deno.test("FakeFetch reads the media type of a Content-Type header with spaces", async () => {
  const fetch = new FakeFetch({
    "https://ex/1": { headers: { "Content-Type": " text/html ; charset=utf-8" }, body: "" },
  });
  assertEquals((await fetch.fetch("https://ex/1")).contentType, "text/html");
});

Deno.test("FakeFetch.fetch() refuses a url that is not a string, naming it", async () => {
  const fetch = new K.FakeFetch({ "https://ex/1": "hi" });
  await A.assertRejects(
    () => fetch.fetch(5 as never),
    TypeError,
    "FakeFetch.fetch(): the url must be a string, got 5",
  );
  await A.assertRejects(
    () => fetch.fetch("https://ex/1", "x" as never),
    TypeError,
    "the options must be an object",
  );
  A.assertEquals(fetch.calls, []);
});
