// The params schemas of the methods FakeMcpServer serves, and how their
// issues read in an error message.
import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import { issuesText, schemas } from "../../../testing/mcp/_mcp_protocol.ts";

Deno.test("schemas() is built once and checks each method's params", () => {
  const s = schemas();
  assertStrictEquals(schemas(), s);
  const init = {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "c", version: "1" },
  };
  assert(s.initialize.safeParse(init).success);
  assert(!s.initialize.safeParse({ ...init, clientInfo: { version: "1" } }).success);
  assert(!s.initialize.safeParse({ ...init, capabilities: 5 }).success);
  assert(s.callTool.safeParse({ name: "t", _meta: { progressToken: 3 } }).success);
  assert(!s.callTool.safeParse({ name: "t", _meta: { progressToken: 1.5 } }).success);
  assert(!s.callTool.safeParse({ name: "t", arguments: [] }).success);
  assert(!s.callTool.safeParse({}).success);
  assert(!s.list.safeParse({ cursor: 5 }).success);
  assert(!s.getPrompt.safeParse({ name: "p", arguments: { a: 1 } }).success);
  assert(!s.getPrompt.safeParse({ arguments: {} }).success);
  assert(!s.readResource.safeParse({}).success);
  assert(!s.cancelled.safeParse({ requestId: 1.5 }).success);
  assert(!s.cancelled.safeParse({ requestId: 1, reason: 5 }).success);
  assert(s.cancelled.safeParse({ requestId: "a", reason: "x", extra: 1 }).success);
});

Deno.test("issuesText() names each issue's path, separated by semicolons", () => {
  const r = schemas().initialize.safeParse({
    protocolVersion: 1,
    capabilities: {},
    clientInfo: {},
  });
  assert(!r.success);
  assertEquals(
    issuesText(r.error!),
    "Invalid input: expected string, received number at protocolVersion; Invalid input: expected string, received undefined at clientInfo.name; Invalid input: expected string, received undefined at clientInfo.version",
  );
  const top = schemas().list.safeParse(5);
  assert(!top.success);
  assertEquals(issuesText(top.error!), "Invalid input: expected object, received number");
});
