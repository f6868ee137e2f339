import { assert, assertEquals, assertInstanceOf, assertRejects } from "@std/assert";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JsonlSession, MalformedTranscript, TranscriptClosed } from "@agentkit/testing/runtime";
import { type Message, toolCall } from "@agentkit/testing/ports";

// Each test gets its own directory, removed afterwards; the resource
// sanitizer fails any test that leaves a session's handle open.
async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "jsonl-session-"));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true });
  }
}

const transcript: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Why did the deploy fail?" },
  { role: "assistant", content: "", toolCalls: [toolCall("c1", "lookup_cert", { host: "a" })] },
  { role: "tool", content: '{"notAfter":"2026-08-01"}', toolCallId: "c1" },
  { role: "assistant", content: "The cert expired." },
];

Deno.test("JsonlSession.create() and load() round-trip the meta and every message", () =>
  inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    const session = await JsonlSession.create(path, { user: "ana", ticket: 42 });
    for (const m of transcript) await session.append(m);
    assertEquals(session.messages, transcript);
    await session.close();
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    assertEquals(lines.length, 1 + transcript.length);
    assertEquals(JSON.parse(lines[0]).meta, { user: "ana", ticket: 42 });
    await using again = await JsonlSession.load(path);
    assertEquals([again.meta, again.messages, again.path], [
      { user: "ana", ticket: 42 },
      transcript,
      path,
    ]);
  }));

Deno.test("JsonlSession.append() has written the line when it resolves, while the handle stays open", () =>
  inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    await using session = await JsonlSession.create(path);
    await session.append({ role: "user", content: "first" });
    const onDisk = (await readFile(path, "utf8")).trimEnd().split("\n");
    assertEquals(JSON.parse(onDisk[1]).message, { role: "user", content: "first" });
    assertEquals(session.closed, false);
    await session.append({ role: "assistant", content: "second" });
    assertEquals((await readFile(path, "utf8")).trimEnd().split("\n").length, 3);
  }));

Deno.test("JsonlSession.append() keeps call order for appends not awaited, and close() waits for them", () =>
  inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    const session = await JsonlSession.create(path, {}, { sync: true });
    const pending = Array.from(
      { length: 20 },
      (_, i) => session.append({ role: "user", content: `m${i}` }),
    );
    await session.close(); // before a single append was awaited
    await Promise.all(pending);
    const again = await JsonlSession.load(path);
    assertEquals(again.messages.map((m) => m.content), pending.map((_, i) => `m${i}`));
    await again.close();
  }));

Deno.test("JsonlSession.append() copies the message and rejects what is not one", () =>
  inTempDir(async (dir) => {
    await using session = await JsonlSession.create(join(dir, "s.jsonl"));
    const m = { role: "user" as const, content: "hi" };
    await session.append(m);
    m.content = "mutated";
    assertEquals(session.messages[0].content, "hi");
    // deno-lint-ignore no-explicit-any
    const bad = (x: any) => session.append(x);
    await assertRejects(() => bad({ role: "robot", content: "x" }), TypeError, 'role "robot"');
    await assertRejects(() => bad({ role: "user" }), TypeError, "content must be a string");
    assertEquals(session.messages.length, 1);
  }));

Deno.test("JsonlSession.close() is idempotent, never throws, and append afterwards fails with TranscriptClosed", () =>
  inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    const session = await JsonlSession.create(path);
    const first = session.close();
    assertEquals(session.close(), first);
    await first;
    await session.close();
    await session[Symbol.asyncDispose]();
    assertEquals(session.closed, true);
    await assertRejects(
      () => session.append({ role: "user", content: "late" }),
      TranscriptClosed,
      "JsonlSession.load(path)",
    );
  }));

Deno.test("JsonlSession is AsyncDisposable: await using closes it at scope exit", () =>
  inTempDir(async (dir) => {
    let kept: JsonlSession | undefined;
    {
      await using session = await JsonlSession.create(join(dir, "s.jsonl"));
      kept = session;
      assertEquals(session.closed, false);
    }
    assertEquals(kept.closed, true);
  }));

Deno.test("JsonlSession.create() refuses an existing file and points to load()", () =>
  inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    await (await JsonlSession.create(path)).close();
    await assertRejects(() => JsonlSession.create(path), Error, "JsonlSession.load(path)");
  }));

Deno.test("JsonlSession.load() names the line of a malformed transcript", async (t) => {
  const header = JSON.stringify({ type: "agentkit.session", version: 1, meta: {} });
  const msg = (m: unknown) => JSON.stringify({ type: "message", message: m });
  const cases: Array<[string, string, number, string]> = [
    [
      "bad JSON",
      [header, msg({ role: "user", content: "a" }), '{"type":'].join("\n"),
      3,
      "not valid JSON",
    ],
    ["not a header", msg({ role: "user", content: "a" }), 1, "not a session header"],
    ["a bad role", [header, msg({ role: "robot", content: "a" })].join("\n"), 2, 'role "robot"'],
    ["an unknown record", [header, JSON.stringify({ type: "note" })].join("\n"), 2, '"note"'],
    ["an empty file", "", 1, "empty"],
    ["an array line", [header, "[1]"].join("\n"), 2, "not a JSON object"],
    ["a null line", [header, "null"].join("\n"), 2, "not a JSON object"],
    ["a number line", [header, "5"].join("\n"), 2, "not a JSON object"],
    ["a header of another format", JSON.stringify({ type: "other", meta: {} }), 1, "header"],
    [
      "a header with null meta",
      JSON.stringify({ type: "agentkit.session", meta: null }),
      1,
      "header",
    ],
    [
      "a header with number meta",
      JSON.stringify({ type: "agentkit.session", meta: 5 }),
      1,
      "header",
    ],
    ["a null message", [header, msg(null)].join("\n"), 2, "not a message object"],
    ["a string message", [header, msg("hi")].join("\n"), 2, "not a message object"],
    ["an array message", [header, msg([])].join("\n"), 2, "not a message object"],
  ];
  for (const [name, text, line, problem] of cases) {
    await t.step(name, () =>
      inTempDir(async (dir) => {
        const path = join(dir, "s.jsonl");
        await writeFile(path, text);
        const error = await assertRejects(() => JsonlSession.load(path), MalformedTranscript);
        assertEquals([error.line, error.path], [line, path]);
        assert(error.message.includes(`line ${line}`), error.message);
        assert(error.message.includes(problem), error.message);
        assertEquals(error.name, "MalformedTranscript");
      }));
  }
});

Deno.test("JsonlSession.create() and load() check their arguments before touching the file", () =>
  inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    // deno-lint-ignore no-explicit-any
    const create = (...args: any[]) => () => (JsonlSession.create as any)(...args);
    await assertRejects(create(42), TypeError, "JsonlSession.create(): the path");
    await assertRejects(create(path, {}, { sinc: true }), TypeError, "JsonlSession.create()");
    for (const [meta, got] of [[null, "null"], [[1], "an array"], ["m", "string"]]) {
      await assertRejects(create(path, meta), TypeError, `meta must be a plain object, got ${got}`);
    }
    // deno-lint-ignore no-explicit-any
    const load = (...args: any[]) => () => (JsonlSession.load as any)(...args);
    await assertRejects(load(42), TypeError, "JsonlSession.load(): the path");
    await assertRejects(load(path, { sinc: true }), TypeError, "JsonlSession.load()");
    await assertRejects(() => readFile(path), Error); // nothing was created
  }));

Deno.test("JsonlSession.create(): a path it cannot open fails with the system's error, not 'the file exists'", () =>
  inTempDir(async (dir) => {
    const error = await assertRejects(() =>
      JsonlSession.create(join(dir, "no", "such", "s.jsonl"))
    );
    assert(!String((error as Error).message).includes("exists"), String(error));
    await (await JsonlSession.create(join(dir, "s.jsonl"))).close();
    const exists = await assertRejects(() => JsonlSession.create(join(dir, "s.jsonl")), Error);
    assert(exists.cause instanceof Error, "the system's error stays as the cause");
  }));

Deno.test("JsonlSession: skipped is empty unless a lenient load skipped lines, which it lists", () =>
  inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    const created = await JsonlSession.create(path);
    assertEquals(created.skipped, []);
    await created.append({ role: "user", content: "one" });
    await created.close();
    const strict = await JsonlSession.load(path);
    assertEquals(strict.skipped, []);
    await strict.close();
    const clean = await JsonlSession.load(path, { lenient: true });
    assertEquals(clean.skipped, []);
    await clean.close();
    await writeFile(path, (await readFile(path, "utf8")) + "garbage\n");
    await assertRejects(() => JsonlSession.load(path), MalformedTranscript, "line 3");
    const lenient = await JsonlSession.load(path, { lenient: true });
    assertEquals(lenient.messages.map((m) => m.content), ["one"]);
    assertEquals(lenient.skipped.map((e) => [e.line, e instanceof MalformedTranscript]), [[
      3,
      true,
    ]]);
    await lenient.close();
  }));

Deno.test("JsonlSession.load() ends a last line cut off without its newline before appending", () =>
  inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    const header = JSON.stringify({ type: "agentkit.session", version: 1, meta: {} });
    const line = JSON.stringify({ type: "message", message: { role: "user", content: "one" } });
    await writeFile(path, `${header}\n${line}`);
    const session = await JsonlSession.load(path);
    await session.append({ role: "assistant", content: "two" });
    await session.close();
    assertEquals((await readFile(path, "utf8")).split("\n"), [
      header,
      line,
      JSON.stringify({ type: "message", message: { role: "assistant", content: "two" } }),
      "",
    ]);
    // A file that ends its lines properly gets no blank line.
    const again = await JsonlSession.load(path);
    await again.close();
    assert(!(await readFile(path, "utf8")).includes("\n\n"));
  }));

Deno.test("JsonlSession { sync: true } syncs each write to disk; by default it does not", () =>
  inTempDir(async (dir) => {
    const proto = Deno.FsFile.prototype;
    const real = proto.syncData;
    let syncs = 0;
    proto.syncData = function (this: Deno.FsFile) {
      syncs++;
      return real.call(this);
    };
    try {
      const path = join(dir, "s.jsonl");
      const quick = await JsonlSession.create(path);
      await quick.append({ role: "user", content: "a" });
      await quick.close();
      const quickAgain = await JsonlSession.load(path);
      await quickAgain.append({ role: "user", content: "b" });
      await quickAgain.close();
      assertEquals(syncs, 0);
      const synced = await JsonlSession.create(join(dir, "t.jsonl"), {}, { sync: true });
      await synced.append({ role: "user", content: "a" });
      await synced.close();
      assertEquals(syncs, 2); // the header, the message
      const syncedAgain = await JsonlSession.load(join(dir, "t.jsonl"), { sync: true });
      await syncedAgain.append({ role: "user", content: "b" });
      await syncedAgain.close();
      assertEquals(syncs, 3);
    } finally {
      proto.syncData = real;
    }
  }));

Deno.test("JsonlSession errors carry their names, and a bad role lists the roles", () =>
  inTempDir(async (dir) => {
    const session = await JsonlSession.create(join(dir, "s.jsonl"));
    await session.close();
    const closed = await assertRejects(() => session.append({ role: "user", content: "x" }));
    assertInstanceOf(closed, TranscriptClosed);
    assertEquals(closed.name, "TranscriptClosed");
    await using open = await JsonlSession.create(join(dir, "t.jsonl"));
    // deno-lint-ignore no-explicit-any
    const bad = (x: any) => open.append(x);
    await assertRejects(
      () => bad({ role: "robot", content: "x" }),
      TypeError,
      "system, user, assistant, tool",
    );
    await assertRejects(() => bad(null), TypeError, "is not a message object");
    await assertRejects(() => bad("hi"), TypeError, "is not a message object");
  }));
