import { assertEquals, assertMatch, assertRejects } from "@std/assert";
import { ApiRequestFailed, ApiTestClient } from "@agentkit/testing/testing";

// A stand-in server that records each body and answers as told.
async function withServer(
  answer: (body: Record<string, unknown>) => Response,
  fn: (url: string, bodies: Record<string, unknown>[]) => Promise<void>,
): Promise<void> {
  const bodies: Record<string, unknown>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json();
    bodies.push(body);
    return answer(body);
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/`, bodies);
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
