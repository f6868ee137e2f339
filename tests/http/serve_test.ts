// The server behind FakeProvider.listen() and serveAgent(), on its node:http
// side (what Node users run; Deno has node:http too) and its Deno side.
// Runs with --allow-net=127.0.0.1 only.
import { assert, assertEquals, assertRejects } from "@std/assert";
import { type Handler, serve, serveNode } from "../../testing/_serve.ts";

const echo: Handler = async (request) =>
  Response.json({
    method: request.method,
    path: new URL(request.url).pathname,
    text: await request.text(),
    trace: request.headers.get("x-trace"),
  });

Deno.test("serveNode() hands the handler the method, path, headers and body; GET and HEAD have none", async () => {
  const server = await serveNode(echo);
  try {
    assertEquals(server.hostname, "127.0.0.1");
    const base = `http://127.0.0.1:${server.port}`;
    const post = await fetch(`${base}/a`, {
      method: "POST",
      headers: { "x-trace": "t-1" },
      body: "héllo",
    });
    assertEquals(await post.json(), { method: "POST", path: "/a", text: "héllo", trace: "t-1" });
    const get = await fetch(`${base}/b?q=1`);
    assertEquals(await get.json(), { method: "GET", path: "/b", text: "", trace: null });
    const head = await fetch(`${base}/c`, { method: "HEAD" });
    await head.body?.cancel();
    assertEquals(head.status, 200);
    const empty = await fetch(`${base}/d`, { method: "POST" });
    assertEquals((await empty.json()).text, "");
  } finally {
    await server.close();
  }
});

Deno.test("serveNode() sends a bodiless answer, and drops the connection when a body fails", async () => {
  let fail = false;
  const server = await serveNode(() => {
    if (!fail) return Promise.resolve(new Response(null, { status: 204 }));
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("partial"));
      },
      pull(c) {
        c.error(new Error("broken"));
      },
    });
    return Promise.resolve(new Response(body));
  });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const none = await fetch(base, { method: "POST", body: "x" });
    assertEquals([none.status, await none.text()], [204, ""]);
    fail = true;
    // The connection drops: before the status line or inside the body.
    await assertRejects(async () =>
      await (await fetch(base, { method: "POST", body: "x" })).text()
    );
  } finally {
    await server.close();
  }
});

Deno.test("serveNode() aborts the handler's signal when the client leaves mid-answer, not after a full one", async () => {
  const signals: AbortSignal[] = [];
  const server = await serveNode((_request, signal) => {
    signals.push(signal!);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("first"));
        if (signals.length === 1) c.close();
      },
    });
    return Promise.resolve(new Response(body));
  });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    assertEquals(await (await fetch(base)).text(), "first");
    const client = new AbortController();
    const res = await fetch(base, { signal: client.signal });
    const reader = res.body!.getReader();
    await reader.read();
    const aborted = new Promise((resolve) => signals[1].addEventListener("abort", resolve));
    client.abort();
    await aborted;
    assertEquals(signals[0].aborted, false, "a full answer is not an abort");
    const reason = signals[1].reason as DOMException;
    assertEquals([reason instanceof DOMException, reason.name, reason.message], [
      true,
      "AbortError",
      "client gone",
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("serveNode() rejects when the port is taken, and close() closes once", async () => {
  const first = await serveNode(echo);
  try {
    await assertRejects(() => serveNode(echo, { port: first.port }));
  } finally {
    const closing = first.close();
    assert(first.close() === closing, "a second close() is the first one");
    await closing;
  }
  await assertRejects(() => fetch(`http://127.0.0.1:${first.port}/`), TypeError);
});

Deno.test("serve() runs abortOpen when it closes, on either side", async () => {
  for (const start of [serve, serveNode]) {
    let aborted = 0;
    const server = await start(echo, { abortOpen: () => aborted++ });
    await server.close();
    await server.close();
    assertEquals(aborted, 1);
  }
});

Deno.test("serveNode() ignores a body sent with GET or HEAD, and keeps repeated headers apart", async () => {
  const http = await import("node:http");
  const seen: Array<{ method: string; text: string; cookies: string[] }> = [];
  const server = await serveNode(async (request) => {
    seen.push({
      method: request.method,
      text: await request.text(),
      cookies: request.headers.getSetCookie(),
    });
    return new Response("ok");
  });
  // fetch() refuses a GET with a body; a raw node:http client sends one.
  const send = (method: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port: server.port,
        method,
        path: "/",
        headers: { "set-cookie": ["a=1", "b=2"], "content-length": "4" },
      }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end("body");
    });
  try {
    assertEquals([await send("GET"), await send("HEAD")], [200, 200]);
  } finally {
    await server.close();
  }
  assertEquals(seen, [
    { method: "GET", text: "", cookies: ["a=1", "b=2"] },
    { method: "HEAD", text: "", cookies: ["a=1", "b=2"] },
  ]);
});
