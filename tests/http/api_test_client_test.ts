import { assertEquals, assertMatch, assertRejects, assertThrows } from "@std/assert";
import { ApiRequestFailed, ApiTestClient } from "@agentkit/testing/testing";

// A stand-in server that records each body and answers as told.
async function withServer(
  answer: (body: Record<string, unknown>) => Response,
  fn: (url: string, bodies: Record<string, unknown>[], types: (string | null)[]) => Promise<void>,
): Promise<void> {
  const bodies: Record<string, unknown>[] = [];
  const types: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json();
    bodies.push(body);
    types.push(req.headers.get("content-type"));
    return answer(body);
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/`, bodies, types);
  } finally {
    await server.shutdown();
  }
}

Deno.test("ApiTestClient.send() keeps one session id across sends and names the agent", async () => {
  await withServer((b) => Response.json({ result: `echo ${b.prompt}` }), async (url, bodies) => {
    const client = new ApiTestClient(url, { agent: "triage" });
    assertMatch(client.sessionId, /^[0-9a-f-]{36}$/);
    assertEquals(await client.send("one"), "echo one");
    assertEquals(await client.send("two"), "echo two");
    assertEquals(bodies, [
      { prompt: "one", sessionId: client.sessionId, agent: "triage" },
      { prompt: "two", sessionId: client.sessionId, agent: "triage" },
    ]);
    assertEquals(client.replies, ["echo one", "echo two"]);
    const other = new ApiTestClient(url, { sessionId: "fixed" });
    await other.send("x");
    assertEquals(bodies[2].sessionId, "fixed");
  });
});

Deno.test("ApiTestClient.send() throws ApiRequestFailed on an error status or a body without result", async (t) => {
  await t.step("a JSON error", async () => {
    await withServer(
      () => Response.json({ error: "Missing prompt" }, { status: 400 }),
      async (url) => {
        const e = await assertRejects(() => new ApiTestClient(url).send("x"), ApiRequestFailed);
        assertEquals([e.status, e.message], [400, "The agent server answered 400: Missing prompt"]);
      },
    );
  });
  await t.step("a non-JSON error page", async () => {
    await withServer(() => new Response("Bad gateway", { status: 502 }), async (url) => {
      const e = await assertRejects(() => new ApiTestClient(url).send("x"), ApiRequestFailed);
      assertEquals([e.status, e.body], [502, "Bad gateway"]);
    });
  });
  await t.step("a 200 without a string result", async () => {
    await withServer(() => Response.json({ answer: "4" }), async (url) => {
      await assertRejects(
        () => new ApiTestClient(url).send("x"),
        ApiRequestFailed,
        'the body has no string "result"',
      );
    });
  });
});

Deno.test("ApiTestClient.send() posts JSON and names its own errors", async () => {
  await withServer(() => Response.json({ result: "ok" }), async (url, _bodies, types) => {
    await new ApiTestClient(url).send("x");
    assertEquals(types, ["application/json"]);
  });
  const e = assertThrows(
    () => new ApiTestClient("http://127.0.0.1:1/", { sesionId: "s" } as never),
    TypeError,
  );
  assertEquals(e.message.startsWith("new ApiTestClient()"), true, e.message);
  assertEquals(new ApiRequestFailed(500, "boom", {}).name, "ApiRequestFailed");
});

Deno.test("ApiTestClient.send() reports any body an error status or a bare 200 brings", async (t) => {
  const failure = async (response: () => Response) => {
    let error: ApiRequestFailed | undefined;
    await withServer(response, async (url) => {
      error = await assertRejects(() => new ApiTestClient(url).send("x"), ApiRequestFailed);
    });
    return error!;
  };
  await t.step("an error that is not a string shows the body", async () => {
    const e = await failure(() => Response.json({ error: { code: 7 } }, { status: 500 }));
    assertEquals(e.message, 'The agent server answered 500: {"error":{"code":7}}');
  });
  await t.step("a JSON null, with an error status or without", async () => {
    const bad = await failure(() => Response.json(null, { status: 503 }));
    assertEquals([bad.status, bad.body, bad.message], [
      503,
      null,
      "The agent server answered 503: null",
    ]);
    const ok = await failure(() => Response.json(null));
    assertEquals(
      ok.message,
      'The agent server answered 200: the body has no string "result": null',
    );
  });
  await t.step("a long page is cut at 200 characters", async () => {
    const page = "x".repeat(300);
    const e = await failure(() => new Response(page, { status: 502 }));
    assertEquals(e.message, `The agent server answered 502: ${"x".repeat(200)}`);
    assertEquals(e.body, page);
    const long = await failure(() => new Response(page));
    assertEquals(
      long.message,
      `The agent server answered 200: the body has no string "result": ${"x".repeat(200)}`,
    );
  });
});
