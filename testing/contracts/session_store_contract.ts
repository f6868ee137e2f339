/**
 * The contract every `SessionStore` keeps.
 *
 * @module
 */
import type { Message } from "../../ports/message.ts";
import { Scope } from "../../ports/scope.ts";
import type { SessionStore } from "../../ports/session_store.ts";
import { Agent } from "../../runtime/agent.ts";
import { Session } from "../../runtime/sessions/session.ts";
import { buildCases, type Check } from "./_contract.ts";
import type { ContractCase } from "./contract.ts";
import { FakeLLM } from "../llm/fake_llm.ts";
import { makeTestCtx } from "../make_test_ctx.ts";

type Disposable = SessionStore & {
  [Symbol.asyncDispose]?: () => Promise<void>;
  close?: () => void;
};

async function release(store: Disposable): Promise<void> {
  if (typeof store[Symbol.asyncDispose] === "function") await store[Symbol.asyncDispose]!();
  else if (typeof store.close === "function") store.close();
}

/**
 * The cases every `SessionStore` must pass: a session never saved loads as
 * `undefined`; saved state loads back equal and a save replaces it whole;
 * values are copies, not aliases; sessions are isolated from each other and
 * by tenant; `delete` forgets one session only; a long transcript
 * round-trips; and, through a real `Agent`, state survives across runs of
 * the same session (the persistent cache and the transcript do, the
 * volatile cache does not, and a follow-up run sees the earlier turn).
 * `make` is called once per case; a store that is `AsyncDisposable` or has
 * `close()` is released after its case.
 *
 * @param make Builds an empty store.
 * @returns The cases.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore } from "@agentkit/testing/runtime";
 * import { sessionStoreContract } from "@agentkit/testing/testing";
 *
 * for (const c of sessionStoreContract(() => new InMemorySessionStore())) await c.fn();
 * // in a test file: Deno.test("InMemorySessionStore keeps the SessionStore contract", async (t) => {
 * //   for (const c of sessionStoreContract(() => new InMemorySessionStore())) await t.step(c.name, c.fn);
 * // });
 * ```
 */
export function sessionStoreContract(
  make: () => SessionStore | Promise<SessionStore>,
): ContractCase[] {
  const s = new Scope({ orgId: 1, domainId: 1 });
  const other = new Scope({ orgId: 2, domainId: 1 });
  const turn = (n: number): Message[] => [
    { role: "user", content: `question ${n}` },
    { role: "assistant", content: `answer ${n}` },
  ];
  const withStore =
    (body: (store: SessionStore, check: Check) => Promise<void>) => async (check: Check) => {
      const store = await make() as Disposable;
      try {
        await body(store, check);
      } finally {
        await release(store);
      }
    };
  return buildCases("SessionStore", {
    "load() of a session never saved resolves undefined": withStore(async (store, check) => {
      check.equal(await store.load(s, "never"), undefined, "load(never)");
    }),
    "save() then load() returns an equal state": withStore(async (store, check) => {
      const state = {
        persistent: { plan: "pro", limits: { seats: 3 }, none: null },
        transcript: [
          ...turn(1),
          {
            role: "assistant" as const,
            content: "",
            toolCalls: [{ id: "c1", name: "lookup", args: { q: "x" } }],
          },
          { role: "tool" as const, content: "42", toolCallId: "c1" },
        ],
      };
      await store.save(s, "s1", state);
      check.equal(await store.load(s, "s1"), state, "load(s1)");
    }),
    "save() replaces the whole state": withStore(async (store, check) => {
      await store.save(s, "s1", {
        persistent: { a: 1, b: 2 },
        transcript: [...turn(1), ...turn(2)],
      });
      await store.save(s, "s1", { persistent: { c: 3 }, transcript: turn(3) });
      check.equal(
        await store.load(s, "s1"),
        { persistent: { c: 3 }, transcript: turn(3) },
        "load(s1) after the second save",
      );
    }),
    "a state read or written is a copy, not an alias": withStore(async (store, check) => {
      const state = { persistent: { list: [1] }, transcript: turn(1) };
      await store.save(s, "s1", state);
      state.persistent.list.push(2);
      state.transcript.push({ role: "user", content: "sneaked in" });
      const read = await store.load(s, "s1");
      check.equal(
        read,
        { persistent: { list: [1] }, transcript: turn(1) },
        "after mutating the saved object",
      );
      (read!.persistent.list as number[]).push(3);
      (read!.transcript as Message[]).pop();
      check.equal(
        await store.load(s, "s1"),
        { persistent: { list: [1] }, transcript: turn(1) },
        "after mutating a loaded object",
      );
    }),
    "sessions are isolated from each other": withStore(async (store, check) => {
      await store.save(s, "alice", { persistent: { who: "alice" }, transcript: turn(1) });
      await store.save(s, "bob", { persistent: { who: "bob" }, transcript: [] });
      check.equal((await store.load(s, "alice"))?.persistent, { who: "alice" }, "alice");
      check.equal((await store.load(s, "bob"))?.persistent, { who: "bob" }, "bob");
      check.equal((await store.load(s, "bob"))?.transcript, [], "bob's transcript");
      check.equal(await store.load(s, "ali"), undefined, "a prefix of an id");
    }),
    "sessions are isolated by tenant": withStore(async (store, check) => {
      await store.save(s, "s1", { persistent: { tenant: 1 }, transcript: turn(1) });
      check.equal(await store.load(other, "s1"), undefined, "the same id under another tenant");
      check.equal(
        await store.load(new Scope({ orgId: 1, domainId: 2 }), "s1"),
        undefined,
        "another domain of the same organisation",
      );
      check.equal(await store.delete(other, "s1"), false, "delete() by another tenant");
      check.equal((await store.load(s, "s1"))?.persistent, { tenant: 1 }, "the owner's state");
    }),
    "delete() forgets one session and resolves whether it existed": withStore(
      async (store, check) => {
        await store.save(s, "s1", { persistent: {}, transcript: turn(1) });
        await store.save(s, "s2", { persistent: {}, transcript: turn(2) });
        check.equal(await store.delete(s, "s1"), true, "delete(s1)");
        check.equal(await store.load(s, "s1"), undefined, "load(s1) after delete");
        check.equal(await store.delete(s, "s1"), false, "delete(s1) again");
        check.equal((await store.load(s, "s2"))?.transcript, turn(2), "s2 is untouched");
      },
    ),
    "a long transcript round-trips (more than 64 KiB in all)": withStore(async (store, check) => {
      const transcript: Message[] = [];
      for (let i = 0; i < 200; i++) {
        transcript.push({
          role: i % 2 ? "assistant" : "user",
          content: `${i}:${"x".repeat(1000)}`,
        });
      }
      await store.save(s, "long", { persistent: {}, transcript });
      const read = await store.load(s, "long");
      check.equal(read?.transcript.length, 200, "messages loaded");
      check.equal(read?.transcript, transcript, "the transcript");
    }),
    "state survives across runs of the same session": withStore(async (store, check) => {
      const llm = new FakeLLM(({ messages }) => `seen ${messages.length} message(s)`);
      const ctx = makeTestCtx({ llm, scope: s });
      const agent = new Agent("contract", {
        model: "fake-model",
        hooks: {
          beforeRun: [{
            name: "remember",
            beforeRun: (_request, { session }) => {
              session!.persistent.set(
                "runs",
                ((session!.persistent.get("runs") as number) ?? 0) + 1,
              );
              session!.volatile.set("scratch", "this run only");
            },
          }],
        },
      });
      const first = await Session.open("conversation", { store, scope: s });
      await agent.run("first question", ctx, { session: first });
      const second = await Session.open("conversation", { store, scope: s });
      check.equal(second.persistent.get("runs"), 1, "the persistent cache after one run");
      check.equal(second.volatile.size, 0, "the volatile cache of a reopened session");
      check.equal(second.transcript.map((m) => m.content), [
        "first question",
        "seen 1 message(s)",
      ], "the transcript after one run");
      const r = await agent.run("follow-up", ctx, { session: second });
      check.equal(r.output, "seen 3 message(s)", "what the follow-up run sent the model");
      const third = await Session.open("conversation", { store, scope: s });
      check.equal(third.persistent.get("runs"), 2, "the persistent cache after two runs");
      check.equal(third.transcript.length, 4, "the transcript after two runs");
      check.equal(
        (await Session.open("conversation", { store, scope: other })).transcript,
        [],
        "the same session id under another tenant",
      );
    }),
  });
}
