// The edges of SPEC §22's session state, frame by frame over the in-memory
// transport: what the server asks the client and how each answer (a
// result, an error, none, a cancellation, a closed session) reaches the tool;
// the capability each request needs; logging's levels; completion's limits;
// a batch in memory.
import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import {
  FakeMcpServer,
  type FakeMcpToolCall,
  type FakeMcpTransport,
  InvalidScript,
} from "@agentkit/testing/testing";

type Msg = {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

async function session(
  server: FakeMcpServer,
  capabilities: Record<string, unknown> = {},
  protocolVersion = "2025-11-25",
): Promise<{ t: FakeMcpTransport; seen: Msg[]; send(m: unknown): Promise<void> }> {
  const t = server.transport();
  const seen: Msg[] = [];
  t.onmessage = (m) => seen.push(m as Msg);
  await t.start();
  const send = (m: unknown) => t.send(m);
  await send({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion, capabilities, clientInfo: { name: "c", version: "1" } },
  });
  seen.length = 0;
  return { t, seen, send };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const call = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});
const SAMPLE = { messages: [], maxTokens: 5 };

Deno.test("a client's error answer to call.sample is McpClientRequestFailed with its code, message and data", async () => {
  const caught: unknown[] = [];
  await using server = new FakeMcpServer({
    tools: [{
      name: "s",
      result: async (_a, c) => {
        try {
          await c.sample(SAMPLE);
        } catch (e) {
          caught.push(e);
        }
        return "ok";
      },
    }],
  });
  const { t, seen, send } = await session(server, { sampling: {} });
  for (
    const error of [
      { code: -32001, message: "busy", data: { retry: 1 } },
      { message: "no code" },
      { code: 5 },
    ]
  ) {
    seen.length = 0;
    await send(call(1, "s"));
    const ask = seen[0];
    assertEquals([ask.method, ask.params], ["sampling/createMessage", SAMPLE]);
    await send({ jsonrpc: "2.0", id: 999, result: {} }); // an answer to nothing: ignored
    await send({ jsonrpc: "2.0", id: ask.id, error });
    await tick();
    assertEquals(seen.at(-1)?.result, { content: [{ type: "text", text: "ok" }] });
  }
  const [a, b, c] = caught as { name: string; code: number; message: string; data: unknown }[];
  assertEquals([a.name, a.code, a.data], ["McpClientRequestFailed", -32001, { retry: 1 }]);
  assertStringIncludes(a.message, "error -32001: busy");
  assertEquals(b.code, -32603);
  assertStringIncludes(c.message, '{"code":5}');
  await t.close();
});

Deno.test("a cancelled call tells the client its pending request is cancelled; a closed session rejects it", async () => {
  let reason: unknown;
  await using server = new FakeMcpServer({
    tools: [{
      name: "s",
      result: async (_a, c) => {
        try {
          await c.sample(SAMPLE);
        } catch (e) {
          reason = e;
        }
        return "late";
      },
    }],
  });
  const { t, seen, send } = await session(server, { sampling: {} });
  await send(call(1, "s"));
  const askId = seen[0].id;
  await send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
  await tick();
  assertEquals(seen[1], {
    method: "notifications/cancelled",
    params: { requestId: askId, reason: "The tool call was cancelled" },
    jsonrpc: "2.0",
  } as Msg);
  assertEquals(seen.length, 2, "the cancelled call is not answered");
  assertEquals(server.calls.at(-1)?.cancelled, true);
  await send({ jsonrpc: "2.0", id: askId, result: {} }); // too late: ignored

  const second = await session(server, { sampling: {} });
  await second.send(call(2, "s"));
  await second.t.close();
  await tick();
  assertEquals((reason as Error).name, "AbortError");
  await t.close();
});

Deno.test("the capability each request needs: sampling, form and URL elicitation", async () => {
  const results: string[] = [];
  const url = { mode: "url", message: "m", elicitationId: "e", url: "https://x.example" };
  const formParams = { message: "m", requestedSchema: { type: "object", properties: {} } };
  await using server = new FakeMcpServer({
    tools: [
      {
        name: "form",
        result: (_a, c: FakeMcpToolCall) => c.elicit(formParams).then(() => "asked"),
      },
      { name: "url", result: (_a, c: FakeMcpToolCall) => c.elicit(url).then(() => "asked") },
      { name: "sample", result: (_a, c: FakeMcpToolCall) => c.sample(SAMPLE).then(() => "asked") },
    ],
  });
  for (
    const caps of [
      {},
      { elicitation: {} },
      { elicitation: { url: {} } },
      {
        elicitation: { form: {}, url: {} },
      },
      { sampling: {} },
      { elicitation: null },
    ]
  ) {
    const { t, seen, send } = await session(server, caps);
    for (const [i, name] of ["form", "url", "sample"].entries()) {
      await send(call(i, name));
      await tick();
      const last = seen.at(-1)!;
      results.push(
        last.method
          ? `${name}:asked`
          : `${name}:${(last.result?.content as { text: string }[])[0].text.split(" (")[0]}`,
      );
    }
    await t.close();
  }
  assertEquals(results, [
    "form:Client does not support elicitation",
    "url:Client does not support URL elicitation",
    "sample:Client does not support sampling",
    "form:asked",
    "url:Client does not support URL elicitation",
    "sample:Client does not support sampling",
    "form:Client does not support elicitation",
    "url:asked",
    "sample:Client does not support sampling",
    "form:asked",
    "url:asked",
    "sample:Client does not support sampling",
    "form:Client does not support elicitation",
    "url:Client does not support URL elicitation",
    "sample:asked",
    "form:Client does not support elicitation",
    "url:Client does not support URL elicitation",
    "sample:Client does not support sampling",
  ]);
});

Deno.test("call.log: bad levels and loggers are InvalidScripts; each level against the one set", async () => {
  const sent: unknown[] = [];
  const server = new FakeMcpServer({
    logging: true,
    tools: [
      {
        name: "all",
        result: (_a, c) => {
          for (
            const l of [
              "debug",
              "info",
              "notice",
              "warning",
              "error",
              "critical",
              "alert",
              "emergency",
            ] as const
          ) {
            c.log(l, l);
          }
          return "ok";
        },
      },
      { name: "bad_level", result: (_a, c) => (c.log("loud" as never, 1), "x") },
      { name: "bad_logger", result: (_a, c) => (c.log("info", 1, 7 as never), "x") },
    ],
  });
  const { t, seen, send } = await session(server);
  await send({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "error" } });
  assertEquals(seen.at(-1)?.result, {});
  await send(call(2, "all"));
  await tick();
  for (const m of seen) if (m.method) sent.push(m.params?.level);
  assertEquals(sent, ["error", "critical", "alert", "emergency"]);
  await send(call(3, "bad_level"));
  await tick();
  assertEquals(seen.at(-1)?.error?.code, -32603);
  await send(call(4, "bad_logger"));
  await tick();
  assertStringIncludes(seen.at(-1)?.error?.message ?? "", "logger must be a string");
  await t.close();
  await server.close();
  assertThrows(() => server.verify(), InvalidScript, "level must be one of debug, info, notice");
});

Deno.test("completion/complete: at most 100 values with the total and hasMore; unknown refs and bad params", async () => {
  const many = Array.from({ length: 150 }, (_, i) => `v${i}`);
  await using server = new FakeMcpServer({
    tools: [],
    prompts: [{ name: "p", messages: ["x"] }, { name: "bare", messages: ["y"] }],
    resources: [{ uriTemplate: "t://{a}", name: "t", read: () => "" }],
    completions: { p: { a: many }, "only-completions": { a: ["z"] } },
  });
  const { t, seen, send } = await session(server);
  const complete = async (ref: Record<string, string>, value = "v") => {
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "completion/complete",
      params: { ref, argument: { name: "a", value } },
    });
    await tick();
    return seen.at(-1)!;
  };
  const big = (await complete({ type: "ref/prompt", name: "p" })).result?.completion as {
    values: string[];
    total: number;
    hasMore: boolean;
  };
  assertEquals([big.values.length, big.total, big.hasMore], [100, 150, true]);
  assertEquals(
    (await complete({ type: "ref/prompt", name: "p" }, "v14")).result?.completion,
    {
      values: ["v14", ...Array.from({ length: 10 }, (_, i) => `v14${i}`)],
      total: 11,
      hasMore: false,
    },
  );
  assertEquals(
    ((await complete({ type: "ref/prompt", name: "bare" })).result?.completion as { values: [] })
      .values,
    [],
  );
  assertEquals(
    ((await complete({ type: "ref/resource", uri: "t://{a}" })).result?.completion as {
      values: [];
    }).values,
    [],
  );
  assertEquals(
    ((await complete({ type: "ref/prompt", name: "only-completions" }, "")).result
      ?.completion as { values: string[] }).values,
    ["z"],
  );
  assertEquals(
    (await complete({ type: "ref/resource", uri: "t://{b}" })).error?.message,
    "Resource template t://{b} not found",
  );
  assertEquals((await complete({ type: "ref/other", name: "p" })).error?.code, -32602);
  await t.close();
});

Deno.test("a batch in memory, on a 2025-03-26 session: each member answered", async () => {
  await using server = new FakeMcpServer({ tools: [{ name: "t", result: "ok" }] });
  const { t, seen, send } = await session(server, {}, "2025-03-26");
  await send([{ jsonrpc: "2.0", id: 1, method: "ping" }, call(2, "t"), 7]);
  await tick();
  assertEquals(seen.map((m) => m.id ?? m.error?.code), [1, -32600, 2]);
  const later = await session(server);
  await later.send([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
  assertStringIncludes(later.seen[0].error?.message ?? "", "only on protocol 2025-03-26");
  await later.t.close();
  await t.close();
});

Deno.test("completion/complete: params the schema refuses are -32602 naming the field, never a completion", async () => {
  await using server = new FakeMcpServer({
    tools: [],
    prompts: [{ name: "p", messages: ["x"] }],
    resources: [{ uriTemplate: "t://{a}", name: "t", read: () => "" }],
    completions: { p: { a: ["v1"] } },
  });
  const { t, seen, send } = await session(server);
  const refused = async (params: unknown) => {
    await send({ jsonrpc: "2.0", id: 1, method: "completion/complete", params });
    await tick();
    const answer = seen.at(-1)!;
    assertEquals(answer.result, undefined, JSON.stringify(params));
    assertEquals(answer.error?.code, -32602, JSON.stringify(params));
    return answer.error!.message;
  };
  const argument = { name: "a", value: "v" };
  // Each reference kind needs its own key: a prompt's name, a template's uri.
  assertStringIncludes(await refused({ ref: { type: "ref/prompt" }, argument }), "ref");
  assertStringIncludes(await refused({ ref: { type: "ref/resource" }, argument }), "ref");
  assertStringIncludes(await refused({ ref: { type: "ref/other", name: "p" }, argument }), "ref");
  // The argument needs a name and a string value.
  assertStringIncludes(
    await refused({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a" } }),
    "argument.value",
  );
  assertStringIncludes(
    await refused({ ref: { type: "ref/prompt", name: "p" }, argument: { value: "v" } }),
    "argument.name",
  );
  // context.arguments holds strings: the values of the arguments already given.
  assertStringIncludes(
    await refused({
      ref: { type: "ref/prompt", name: "p" },
      argument,
      context: { arguments: { b: 5 } },
    }),
    "context.arguments.b",
  );
  await t.close();
});
