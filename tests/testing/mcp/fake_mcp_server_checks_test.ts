// FakeMcpServer's public entry points check what they are given and name
// themselves in the error (issue 37's mutation pass found these unpinned):
// script() and setTools() by name, a repeated resource template, and
// updateResource()'s forms, among them that a text update keeps the
// declared mimeType.
import { assertEquals, assertThrows } from "@std/assert";
import { FakeMcpServer } from "@agentkit/testing/testing";
import { Client } from "../../_mcp_sdk.ts";

Deno.test("script() and setTools() name themselves in their errors", async () => {
  assertThrows(
    () => FakeMcpServer.script(["a"], { repeatlast: true } as never),
    TypeError,
    'FakeMcpServer.script(): unknown option "repeatlast"; did you mean "repeatLast"?',
  );
  await using server = new FakeMcpServer({ tools: [] });
  assertThrows(
    () => server.setTools([{ name: "t", reslt: 1 } as never]),
    TypeError,
    'FakeMcpServer.setTools(): tools[0]: unknown key "reslt"',
  );
});

Deno.test("resources: a uriTemplate declared twice is refused by name", () => {
  const template = { uriTemplate: "test://u/{id}", name: "u", read: () => "x" };
  assertThrows(
    () => new FakeMcpServer({ tools: [], resources: [template, { ...template, name: "v" }] }),
    TypeError,
    'new FakeMcpServer(): resources[1] repeats "test://u/{id}"',
  );
});

Deno.test("updateResource(): null and a single content's uri are refused; an unknown uri lists the resources, or none", async () => {
  await using server = new FakeMcpServer({
    tools: [],
    resources: [{ uri: "test://a", text: "a" }, { uri: "test://b", text: "b" }],
  });
  assertThrows(
    () => server.updateResource("test://a", null as never),
    TypeError,
    "FakeMcpServer.updateResource() must be a string or { text | blob, mimeType? }, got null",
  );
  assertThrows(
    () => server.updateResource("test://a", { text: "x", uri: "test://b" } as never),
    TypeError,
    'FakeMcpServer.updateResource(): unknown option "uri"',
  );
  assertThrows(
    () => server.updateResource("test://c", "x"),
    TypeError,
    'FakeMcpServer.updateResource(): no resource has the uri "test://c"; the resources are "test://a", "test://b"',
  );
  await using bare = new FakeMcpServer({ tools: [] });
  assertThrows(
    () => bare.updateResource("test://a", "x"),
    TypeError,
    'no resource has the uri "test://a"; the resources are none',
  );
});

Deno.test("updateResource(): a text update keeps the declared mimeType; a given one replaces it", async () => {
  await using server = new FakeMcpServer({
    tools: [],
    resources: [{ uri: "test://doc", text: "# v1", mimeType: "text/markdown" }],
  });
  const client = new Client({ name: "c", version: "1" });
  await client.connect(server.transport());
  server.updateResource("test://doc", "# v2");
  assertEquals((await client.readResource({ uri: "test://doc" })).contents, [
    { uri: "test://doc", mimeType: "text/markdown", text: "# v2" },
  ]);
  server.updateResource("test://doc", { text: "v3", mimeType: "text/plain" });
  assertEquals((await client.readResource({ uri: "test://doc" })).contents, [
    { uri: "test://doc", mimeType: "text/plain", text: "v3" },
  ]);
  await client.close();
});
