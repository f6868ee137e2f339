// FakeMcpServer's in-memory transport as the SDK's Transport contract
// (src/shared/transport.ts) has it: onclose once, nothing delivered after
// close, and a client without handlers set is no error.
import { assertEquals, assertRejects } from "@std/assert";
import { FakeMcpServer } from "@agentkit/testing/testing";

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("memory transport: closing one never started fires no onclose, and it cannot start after", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const t = server.transport();
  let closes = 0;
  t.onclose = () => void closes++;
  await t.close();
  assertEquals(closes, 0);
  await assertRejects(() => t.start(), Error, "already started");
  await assertRejects(
    () => t.send({ jsonrpc: "2.0", id: 1, method: "ping" }),
    Error,
    "Not connected",
  );
});

Deno.test("memory transport: onclose fires once however often close() is called", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const t = server.transport();
  let closes = 0;
  t.onclose = () => void closes++;
  await t.start();
  await t.close();
  await t.close();
  assertEquals(closes, 1);
});

Deno.test("memory transport: an answer that comes after close() is not delivered", async () => {
  let release!: () => void;
  await using server = new FakeMcpServer({
    tools: [{ name: "held", result: { gate: new Promise<void>((r) => release = r) } }],
  });
  const t = server.transport();
  const seen: unknown[] = [];
  t.onmessage = (m) => void seen.push(m);
  await t.start();
  await t.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "held" } });
  await tick();
  await t.close();
  release();
  for (let i = 0; i < 5; i++) await tick();
  assertEquals(seen, []);
});

Deno.test("memory transport: a client that set no onmessage sends without error", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const t = server.transport();
  await t.start();
  await t.send({ jsonrpc: "2.0", id: 1, method: "ping" });
  await tick();
  await t.close();
});
