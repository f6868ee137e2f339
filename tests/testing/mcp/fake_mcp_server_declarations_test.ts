// new FakeMcpServer()'s declarations, one rule each: auth, resources and
// prompts are checked where given, with messages that name the entry; what
// is declared is what the lists show; verify() names what it found.
import { assertEquals, assertThrows } from "@std/assert";
import { FakeMcpServer, InvalidScript, UnknownMcpToolCall } from "@agentkit/testing/testing";

const build = (options: Record<string, unknown>) =>
  new FakeMcpServer({ tools: [], ...options } as never);

Deno.test("new FakeMcpServer() auth: exactly { token: a non-empty string }", () => {
  for (const auth of [null, "tok", ["tok"]]) {
    assertThrows(() => build({ auth }), TypeError, "{ token: a non-empty string }");
  }
  assertThrows(
    () => build({ auth: {} }),
    TypeError,
    'option "auth" must be { token: a non-empty string }, got an object with no keys',
  );
  assertThrows(
    () => build({ auth: { token: "t", realm: "r" } }),
    TypeError,
    "got an object with token, realm",
  );
  assertThrows(() => build({ auth: { token: "" } }), TypeError, "got an object with token");
  assertThrows(() => build({ auth: { token: 5 } }), TypeError, "got an object with token");
  assertThrows(() => build({ tools: "t" }), TypeError, "an array");
  assertThrows(() => build({ resources: {} }), TypeError, "an array");
  build({ auth: { token: "t" }, unknownTool: "error" });
});

Deno.test("new FakeMcpServer() resources: each an object with a uri, exactly one of text and blob, uris unique", () => {
  for (const r of [null, "file:///a", [{ uri: "a" }]]) {
    assertThrows(
      () => build({ resources: [r] }),
      TypeError,
      "new FakeMcpServer(): resources[0] must be { uri, text | blob, mimeType?, name? }",
    );
  }
  assertThrows(
    () => build({ resources: [{ text: "x" }] }),
    TypeError,
    "new FakeMcpServer(): resources[0]",
  );
  assertThrows(() => build({ resources: [{ text: "x" }] }), TypeError, '"uri"');
  assertThrows(
    () => build({ resources: [{ uri: "a", text: "x", blob: "eA==" }] }),
    TypeError,
    'resources[0] ("a") needs exactly one of text and blob (base64)',
  );
  assertThrows(
    () =>
      build({
        resources: [{ uri: "a", text: "x" }, { uri: "b", text: "y" }, { uri: "a", blob: "eA==" }],
      }),
    TypeError,
    'new FakeMcpServer(): resources[2] repeats the uri "a"',
  );
});

Deno.test("new FakeMcpServer() prompts: the entry, its messages and its arguments are each checked and named", () => {
  for (const p of [null, "p", [{ name: "p" }]]) {
    assertThrows(
      () => build({ prompts: [p] }),
      TypeError,
      "new FakeMcpServer(): prompts[0] must be { name, arguments?, messages }",
    );
  }
  assertThrows(() => build({ prompts: [{ messages: [] }] }), TypeError, '"name"');
  assertThrows(
    () => build({ prompts: [{ name: "p", messages: [] }, { name: "p", messages: [] }] }),
    TypeError,
    'new FakeMcpServer(): prompts[1] repeats the name "p"',
  );
  assertThrows(
    () => build({ prompts: [{ name: "p", messages: [], arguments: [{ required: true }] }] }),
    TypeError,
    "new FakeMcpServer(): prompts[0].arguments[0]",
  );
  assertThrows(
    () => build({ prompts: [{ name: "p", messages: "hi" }] }),
    TypeError,
    "new FakeMcpServer(): prompts[0].messages must be an array of messages or a function of the arguments",
  );
  for (
    const m of [null, 5, { role: "user" }, { role: "user", content: null }, {
      role: "user",
      content: {},
    }]
  ) {
    assertThrows(
      () => build({ prompts: [{ name: "p", messages: ["ok", m] }] }),
      TypeError,
      "new FakeMcpServer(): prompts[0].messages[1]",
    );
  }
  assertThrows(
    () => build({ prompts: [{ name: "p", messages: [{ role: "user", content: 5 }] }] }),
    TypeError,
    "prompts[0].messages[0].content must be a string or a content block ({ type, ... }), got 5",
  );
});

type Msg = { id?: number; result?: Record<string, unknown>; error?: { message: string } };

async function ask(server: FakeMcpServer, method: string, params?: unknown): Promise<Msg> {
  const t = server.transport();
  const seen: Msg[] = [];
  t.onmessage = (m) => void seen.push(m as Msg);
  await t.start();
  await t.send({ jsonrpc: "2.0", id: 1, method, params });
  for (let i = 0; i < 5 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 0));
  await t.close();
  return seen[0];
}

Deno.test("FakeMcpServer prompts: a string message is the user's text; arguments are listed with what is required", async () => {
  const server = new FakeMcpServer({
    tools: [],
    prompts: [
      {
        name: "review",
        description: "Reviews code",
        arguments: [{ name: "code", required: true }, { name: "style" }],
        messages: (
          a,
        ) => [`review ${a.code}`, { role: "assistant", content: { type: "text", text: "ok" } }],
      },
      { name: "bare", messages: ["hi"] },
      { name: "broken", messages: () => "not a list" as never },
    ],
  });
  assertEquals((await ask(server, "prompts/list")).result, {
    prompts: [
      {
        name: "review",
        description: "Reviews code",
        arguments: [{ name: "code", required: true }, { name: "style" }],
      },
      { name: "bare" },
      { name: "broken" },
    ],
  });
  assertEquals(
    (await ask(server, "prompts/get", { name: "review", arguments: { code: "x" } })).result,
    {
      description: "Reviews code",
      messages: [
        { role: "user", content: { type: "text", text: "review x" } },
        { role: "assistant", content: { type: "text", text: "ok" } },
      ],
    },
  );
  assertEquals((await ask(server, "prompts/get", { name: "bare" })).result, {
    messages: [{ role: "user", content: { type: "text", text: "hi" } }],
  });
  const missing = await ask(server, "prompts/get", {
    name: "review",
    arguments: { style: "terse" },
  });
  assertEquals(missing.error?.message.includes("code"), true, missing.error?.message);
  // A messages function that returns no array is a harness error: -32603 on
  // the wire, and verify() throws it.
  const broken = await ask(server, "prompts/get", { name: "broken" });
  assertEquals(broken.error?.message.startsWith("Internal error"), true, broken.error?.message);
  assertThrows(
    () => server.verify(),
    InvalidScript,
    'the messages function of prompt "broken" returned "not a list", not an array',
  );
  await server.close();
});

Deno.test("FakeMcpServer resources: the name defaults to the uri; a declared name and mimeType are kept", async () => {
  await using server = new FakeMcpServer({
    tools: [],
    resources: [
      { uri: "file:///a", text: "x" },
      { uri: "file:///b", name: "B", mimeType: "image/png", blob: "eA==" },
    ],
  });
  assertEquals((await ask(server, "resources/list")).result, {
    resources: [
      { uri: "file:///a", name: "file:///a" },
      { uri: "file:///b", name: "B", mimeType: "image/png" },
    ],
  });
});

Deno.test("FakeMcpServer strict verify(): UnknownMcpToolCall names each call and the declared tools", async () => {
  const none = new FakeMcpServer({ tools: [], strict: true });
  await ask(none, "tools/call", { name: "rm", arguments: {} });
  await ask(none, "tools/call", { name: "mv", arguments: {} });
  assertThrows(
    () => none.verify(),
    UnknownMcpToolCall,
    'the client called "rm", "mv", which the FakeMcpServer does not declare (it declares no tools); declare the tool, or fix the agent that called it',
  );
  const some = new FakeMcpServer({
    tools: [{ name: "ls", result: 1 }, { name: "cat", result: 2 }],
    strict: true,
  });
  some.verify();
  await ask(some, "tools/call", { name: "rm", arguments: {} });
  assertThrows(() => some.verify(), UnknownMcpToolCall, '(it declares "ls", "cat")');
  await none.close();
  await some.close();
});

Deno.test("FakeMcpServer prompts: a messages function that throws is a -32603 answer, as the SDK's Protocol answers a throwing handler", async () => {
  await using server = new FakeMcpServer({
    tools: [],
    prompts: [{
      name: "down",
      messages: () => {
        throw new Error("prompt store offline");
      },
    }],
  });
  const answer = (await ask(server, "prompts/get", { name: "down" })) as Msg & {
    error?: { code: number };
  };
  assertEquals(answer.error, { code: -32603, message: "Internal error: prompt store offline" });
});

Deno.test("FakeMcpServer prompts: a malformed message from a messages function is an InvalidScript naming it, thrown by verify()", async () => {
  const server = new FakeMcpServer({
    tools: [],
    prompts: [{ name: "p", messages: () => ["ok", { role: "system", content: "x" } as never] }],
  });
  const answer = (await ask(server, "prompts/get", { name: "p" })) as Msg & {
    error?: { code: number };
  };
  assertEquals(answer.error?.code, -32603);
  assertThrows(
    () => server.verify(),
    InvalidScript,
    'prompt "p" messages[1] must be a string or { role: "user" | "assistant", content }',
  );
  await server.close();
});
