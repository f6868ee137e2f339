import { assert, assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { Agent } from "@agentkit/testing/runtime";
import {
  AgentTest,
  ApiRequestFailed,
  ApiTestClient,
  FakeLLM,
  makeTestCtx,
  serveAgent,
} from "@agentkit/testing/testing";
import { listen, listenNode } from "../../testing/eval/_http_listen.ts";

// An answer that depends on the earlier turns, so a lost session shows.
function quizLlm(): FakeLLM {
  return new FakeLLM(({ user, messages }) => {
    if (user.includes("1996")) return "Sri Lanka won the 1996 cricket world cup.";
    const earlier = messages.some((m) => m.role === "assistant" && m.content.includes("Sri Lanka"));
    return earlier ? "They beat Australia in the final." : "Who do you mean?";
  });
}

async function post(
  url: string,
  body: string,
  method = "POST",
): Promise<[number, { error?: string; result?: string }]> {
  const res = await fetch(url, { method, body: method === "GET" ? undefined : body });
  return [res.status, await res.json()];
}

Deno.test("serveAgent() holds a multi-turn conversation over loopback HTTP", async () => {
  const llm = quizLlm();
  await using server = await serveAgent(new Agent("quiz", { model: "fake-model" }), {
    ctx: makeTestCtx({ llm }),
    port: 0,
  });
  assert(server.url.startsWith("http://127.0.0.1:"), server.url);
  const client = new ApiTestClient(server.url);
  await AgentTest.compare(await client.send("Who won the 1996 cricket world cup?"), [
    "Sri Lanka won the 1996 cricket world cup.",
  ], { config: false });
  await AgentTest.compare(await client.send("Whom did they beat?"), [
    "They beat Australia in the final.",
  ], { config: false });
  assertEquals(llm.requests[1].messages.length, 3, "the follow-up carried the first turn");
  assertEquals(
    (await server.store.load(makeTestCtx().scope, client.sessionId))?.transcript.length,
    4,
  );
  const stranger = new ApiTestClient(server.url);
  assertEquals(
    await stranger.send("Whom did they beat?"),
    "Who do you mean?",
    "sessions are apart",
  );
  assertEquals(client.replies.length, 2);
});

Deno.test("serveAgent() answers bad requests with 400 and keeps serving", async (t) => {
  await using server = await serveAgent(new Agent("quiz", { model: "fake-model" }), {
    ctx: makeTestCtx({ llm: new FakeLLM("ok") }),
  });
  const cases: [string, string, number, string][] = [
    ["invalid JSON", "{prompt:", 400, "Invalid JSON body"],
    ["a missing prompt", '{"sessionId": "s"}', 400, 'Missing "prompt"'],
    ["a prompt that is not a string", '{"prompt": 42}', 400, '"prompt" must be a string'],
    [
      "an unknown agent",
      '{"prompt": "hi", "agent": "triage"}',
      400,
      'Unknown agent "triage"; this server runs "quiz"',
    ],
    ["a snake_case key", '{"prompt": "hi", "session_id": "s"}', 400, 'did you mean "sessionId"?'],
    ["a body that is not an object", '["hi"]', 400, "must be a JSON object"],
    ["an empty sessionId", '{"prompt": "hi", "sessionId": ""}', 400, '"sessionId" must be'],
  ];
  for (const [name, body, status, message] of cases) {
    await t.step(name, async () => {
      const [got, reply] = await post(server.url, body);
      assertEquals(got, status);
      assertStringIncludes(reply.error ?? "", message);
    });
  }
  await t.step("another path or method", async () => {
    assertEquals((await post(`${server.url}chat`, '{"prompt": "hi"}'))[0], 404);
    assertEquals((await post(server.url, "", "GET"))[0], 405);
  });
  await t.step("a good request still works afterwards", async () => {
    assertEquals(await new ApiTestClient(server.url).send("hi"), "ok");
  });
});

Deno.test("serveAgent() routes by agent name when it serves several", async () => {
  await using server = await serveAgent([
    new Agent("triage", { model: "fake-model" }),
    new Agent("billing", { model: "fake-model" }),
  ], {
    ctx: makeTestCtx({ llm: new FakeLLM(({ system }) => `system was ${JSON.stringify(system)}`) }),
  });
  const billing = new ApiTestClient(server.url, { agent: "billing" });
  assertEquals(await billing.send("hi"), 'system was ""');
  const e = await assertRejects(() => new ApiTestClient(server.url).send("hi"), ApiRequestFailed);
  assertEquals(e.status, 400);
  assertStringIncludes(e.message, 'Name the agent: this server runs "triage", "billing"');
});

Deno.test("serveAgent() answers 500 when the agent throws, and records the error", async () => {
  await using server = await serveAgent(new Agent("a", { model: "fake-model" }), {
    ctx: makeTestCtx({ llm: new FakeLLM("x", { failTimes: 1 }) }),
  });
  const client = new ApiTestClient(server.url);
  const e = await assertRejects(() => client.send("hi"), ApiRequestFailed);
  assertEquals(e.status, 500);
  assertStringIncludes(e.message, 'Agent "a" failed: upstream timeout');
  assertEquals(server.errors.length, 1);
  assertEquals(await client.send("again"), "x");
});

Deno.test("serveAgent() runs requests on one session one at a time", async () => {
  const gate = Promise.withResolvers<void>();
  const llm = FakeLLM.script([{ content: "first", gate: gate.promise }, "second"]);
  await using server = await serveAgent(new Agent("a", { model: "fake-model" }), {
    ctx: makeTestCtx({ llm }),
  });
  const client = new ApiTestClient(server.url);
  const one = client.send("one");
  const two = client.send("two");
  // Yield to the event loop (zero-delay turns, so socket I/O can progress)
  // until both requests have reached the server.
  for (let turns = 0; server.inFlight < 2; turns++) {
    assert(turns < 1000, "both requests should reach the server");
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assertEquals(llm.calls, 1, "the second request waits for the first");
  gate.resolve();
  assertEquals(await Promise.all([one, two]), ["first", "second"]);
  assertEquals(llm.requests[1].messages.map((m) => m.content), ["one", "first", "two"]);
});

Deno.test("serveAgent() shuts down cleanly and releases the port", async () => {
  const server = await serveAgent(new Agent("a", { model: "fake-model" }), {
    ctx: makeTestCtx({ llm: new FakeLLM("ok") }),
  });
  assertEquals(await new ApiTestClient(server.url).send("hi"), "ok");
  await server.close();
  await server.close();
  await assertRejects(() => fetch(server.url, { method: "POST", body: "{}" }), TypeError);
});

Deno.test("the node:http adapter serves the same protocol (what Node users run)", async () => {
  const listener = await listenNode(
    (method, path, text) => Promise.resolve({ status: 200, body: { method, path, text } }),
    "127.0.0.1",
    0,
  );
  try {
    const res = await fetch(`http://127.0.0.1:${listener.port}/x`, {
      method: "POST",
      body: "héllo",
    });
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), { method: "POST", path: "/x", text: "héllo" });
  } finally {
    await listener.close();
  }
});

// A port nothing listens on right now (bound, read, released).
function freePort(): number {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return port;
}

Deno.test("serveAgent() refuses what it cannot serve", async (t) => {
  const agent = new Agent("a", { model: "fake-model" });
  const refuses = async (agents: unknown, options: Record<string, unknown>, message: string) => {
    const e = await assertRejects(() => serveAgent(agents as never, options), Error);
    assert(e instanceof TypeError || e instanceof RangeError, String(e));
    assertStringIncludes(e.message, message);
  };
  await t.step("something that is not an agent", async () => {
    await refuses({ name: "a" }, {}, "Cannot serve: pass an Agent, or an array of agents");
    await refuses([agent, null], {}, "Cannot serve: pass an Agent, or an array of agents");
  });
  await t.step("two agents of one name", async () => {
    await refuses([agent, new Agent("a", { model: "m" })], {}, 'two agents named "a"');
  });
  await t.step("no agent", async () => {
    await refuses([], {}, "Cannot serve: pass at least one agent");
  });
  await t.step("a port that is no port", async () => {
    await refuses(agent, { port: 1.5 }, 'serveAgent(): option "port"');
    await refuses(agent, { port: 70_000 }, 'serveAgent(): option "port"');
  });
});

Deno.test("serveAgent() listens on the port it is given", async () => {
  const port = freePort();
  await using server = await serveAgent(new Agent("a", { model: "fake-model" }), {
    ctx: makeTestCtx({ llm: new FakeLLM("ok") }),
    port,
  });
  assertEquals([server.port, server.url], [port, `http://127.0.0.1:${port}/`]);
  assertEquals(await new ApiTestClient(server.url).send("hi"), "ok");
});

Deno.test("serveAgent() explains a wrong path, method, body or key", async (t) => {
  await using server = await serveAgent(new Agent("quiz", { model: "fake-model" }), {
    ctx: makeTestCtx({ llm: new FakeLLM("ok") }),
  });
  await t.step("another path, another method", async () => {
    assertEquals(await post(`${server.url}chat`, "{}"), [404, {
      error: 'Nothing at /chat: POST / with { "prompt": "..." }',
    }]);
    assertEquals(await post(server.url, "", "GET"), [405, {
      error: 'Method GET is not allowed: POST / with { "prompt": "..." }',
    }]);
  });
  for (const body of ["null", '"hi"', "42"]) {
    await t.step(`a JSON body ${body}`, async () => {
      const [status, reply] = await post(server.url, body);
      assertEquals([status, reply.error], [
        400,
        'The body must be a JSON object such as { "prompt": "..." }',
      ]);
    });
  }
  await t.step("a key near no known one, a sessionId that is not a string", async () => {
    assertEquals(
      (await post(server.url, '{"prompt": "hi", "zzzzzz": 1}'))[1].error,
      'Unknown key "zzzzzz" (send prompt, and optionally sessionId and agent)',
    );
    assertEquals(await post(server.url, '{"prompt": "hi", "sessionId": 42}'), [400, {
      error: '"sessionId" must be a non-empty string',
    }]);
  });
  assertEquals([server.inFlight, server.errors.length], [0, 0], "every request was answered");
});

Deno.test("serveAgent() answers 500 for an agent that throws something that is not an Error", async () => {
  const odd = {
    name: "odd",
    run: (prompt: string) => Promise.reject(prompt === "null" ? null : "a string"),
  };
  await using server = await serveAgent(odd as never);
  assertEquals(await post(server.url, '{"prompt": "null"}'), [500, {
    error: 'Agent "odd" failed: null',
  }]);
  assertEquals(await post(server.url, '{"prompt": "s"}'), [500, {
    error: 'Agent "odd" failed: a string',
  }]);
  assertEquals(server.errors, [null, "a string"]);
});

// Yields to the event loop until the server holds `n` requests.
async function until(server: { readonly inFlight: number }, n: number): Promise<void> {
  for (let turns = 0; server.inFlight < n; turns++) {
    assert(turns < 1000, `${n} requests should reach the server`);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

Deno.test("serveAgent() runs different sessions side by side", async () => {
  const gate = Promise.withResolvers<void>();
  const llm = FakeLLM.script([{ content: "slow", gate: gate.promise }, "fast"]);
  await using server = await serveAgent(new Agent("a", { model: "fake-model" }), {
    ctx: makeTestCtx({ llm }),
  });
  const slow = new ApiTestClient(server.url).send("one");
  await until(server, 1);
  assertEquals(await new ApiTestClient(server.url).send("two"), "fast");
  gate.resolve();
  assertEquals(await slow, "slow");
});

Deno.test("serveAgent() keeps a session's third request behind its second", async () => {
  const gates = [Promise.withResolvers<void>(), Promise.withResolvers<void>()];
  const llm = FakeLLM.script([
    { content: "1", gate: gates[0].promise },
    { content: "2", gate: gates[1].promise },
    "3",
  ]);
  await using server = await serveAgent(new Agent("a", { model: "fake-model" }), {
    ctx: makeTestCtx({ llm }),
  });
  const client = new ApiTestClient(server.url);
  const one = client.send("one");
  const two = client.send("two");
  await until(server, 2);
  gates[0].resolve();
  assertEquals(await one, "1");
  const three = client.send("three");
  await until(server, 2);
  // Let the server take the third request as far as it would go.
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(llm.calls, 2, "the third waits for the second");
  gates[1].resolve();
  assertEquals(await Promise.all([two, three]), ["2", "3"]);
});

Deno.test("the adapters read the body of a POST only", async () => {
  const echo = (method: string, path: string, text: string) =>
    Promise.resolve({ status: 200, body: { method, path, text } });
  const port = freePort();
  const node = await listenNode(echo, "127.0.0.1", port);
  try {
    assertEquals(node.port, port);
    const res = await fetch(`http://127.0.0.1:${port}/x`, { method: "PUT", body: "ignored" });
    assertEquals(await res.json(), { method: "PUT", path: "/x", text: "" });
  } finally {
    await node.close();
  }
  const deno = await listen(echo, "127.0.0.1", 0);
  try {
    const res = await fetch(`http://127.0.0.1:${deno.port}/y`, { method: "PUT", body: "ignored" });
    assertEquals(await res.json(), { method: "PUT", path: "/y", text: "" });
  } finally {
    await deno.close();
  }
});
