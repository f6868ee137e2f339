// A run that fails inside the `using` scope of a scripted double: the error
// that leaves the scope is the run's own, never a SuppressedError, and it
// carries what the double's verify() found (SPEC §19). Each double with a
// verifying dispose, under a run that fails for a reason of its own (a hook
// that rejects the answer), and the cases where the dispose stays strict.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  Agent,
  type AgentResult,
  ClaudeCliCognition,
  type Cognition,
  HookFailed,
  OpenAIChatLLM,
  ReActCognition,
  retry,
  type RunContext,
  SingleShotCognition,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  cassette,
  FakeAsker,
  FakeClaudeCli,
  FakeClock,
  FakeLLM,
  FakeProvider,
  FakeTool,
  makeTestCtx,
  ScriptedProvider,
  UnusedTurns,
} from "@agentkit/testing/testing";

// A guardrail that rejects every answer: the run fails after the doubles served it.
const REJECTING = {
  afterRun: [{
    name: "guard",
    afterRun: (_: AgentResult): void => {
      throw new Error("the guard rejects the answer");
    },
  }],
};

function guarded(cognition?: Cognition): Agent {
  return new Agent("a", {
    model: "fake-model",
    hooks: REJECTING,
    ...(cognition ? { cognition } : {}),
  });
}

// What left the scope, checked the way a runner shows it: the run's error,
// not a SuppressedError, with each unmet claim in its message and its stack.
async function left(scope: () => Promise<void>, ...claims: string[]): Promise<Error> {
  const error = await assertRejects(scope);
  assert(!(error instanceof SuppressedError), `a SuppressedError left the scope: ${error}`);
  assertInstanceOf(error, HookFailed);
  assert(
    error.message.startsWith('The afterRun hook "guard" threw: the guard rejects the answer;'),
    error.message,
  );
  for (const claim of claims) {
    assertStringIncludes(error.message, claim);
    assertStringIncludes(error.stack!, claim);
  }
  assert(error.stack!.startsWith(`HookFailed: ${error.message}`), error.stack);
  return error;
}

const NOTE = "The scripted double's dispose found, after this failure: UnusedTurns: ";

Deno.test("FakeLLM.script: the run's error leaves the scope, with the unused turns on it", async () => {
  await left(async () => {
    using llm = FakeLLM.script(["one", "two"]);
    await guarded().run("hi", makeTestCtx({ llm }));
  }, `${NOTE}FakeLLM.script has 2 turn(s), but the run used only 1`);
});

Deno.test("FakeLLM.script streamed through a Run: the same", async () => {
  await left(async () => {
    using llm = FakeLLM.script(["one", "two"]);
    await guarded().start("hi", makeTestCtx({ llm })).result;
  }, `${NOTE}FakeLLM.script has 2 turn(s), but the run used only 1`);
});

Deno.test("a scripted failure the run ends on: its error, with the turns after it", async () => {
  const error = await assertRejects(async () => {
    using llm = FakeLLM.script([{ error: new Error("the provider is down") }, "never"]);
    await new Agent("a", { model: "fake-model" }).run("hi", makeTestCtx({ llm }));
  });
  assert(!(error instanceof SuppressedError));
  assert(error.message.startsWith("the provider is down"), error.message);
  assertStringIncludes(
    error.message,
    `${NOTE}FakeLLM.script has 2 turn(s), but the run used only 1`,
  );
});

Deno.test("a run that fails on ScriptExhausted leaves it as is: nothing is added twice", async () => {
  const error = await assertRejects(async () => {
    using llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "t", {})] }]);
    const tool = new FakeTool({ name: "t", responder: "x" });
    await new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) })
      .run("hi", makeTestCtx({ llm }));
  });
  assertEquals(error.name, "ScriptExhausted");
  assert(!error.message.includes("dispose found"), error.message);
});

Deno.test("several doubles in one scope: each one's claim is on the run's error", async () => {
  await left(
    async () => {
      using llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "flaky", {})] }, "done", "never"]);
      using tool = new FakeTool({ name: "flaky", responder: "ok", failWith: "busy", failTimes: 2 });
      const agent = guarded(new ReActCognition({ tools: [tool] }));
      await agent.run("hi", makeTestCtx({ llm }));
    },
    `${NOTE}FakeTool "flaky" has 2 scripted failure(s), but the run used only 1`,
    `${NOTE}FakeLLM.script has 3 turn(s), but the run used only 2`,
  );
});

Deno.test("ScriptedProvider: the unused tools on the run's error", async () => {
  await left(
    async () => {
      using llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "fs_read", {})] }, "done"]);
      using provider = new ScriptedProvider({
        tools: [{ name: "fs_read" }, { name: "fs_write" }],
        results: { fs_read: "hello", fs_write: "ok" },
      });
      await guarded(new ReActCognition({ provider })).run("hi", makeTestCtx({ llm }));
    },
    `${NOTE}ScriptedProvider has 2 scripted tool(s), but the run used only 1 (never used: fs_write)`,
  );
});

Deno.test("FakeAsker: the unused answers on the run's error", async () => {
  const inner = new SingleShotCognition();
  const asking: Cognition = {
    name: "asking",
    async *stream(input, ctx: RunContext) {
      await ctx.services.asker!.ask("Deploy?", ctx);
      yield* inner.stream(input, ctx);
    },
  };
  await left(async () => {
    using asker = new FakeAsker(["yes", "no"]);
    await guarded(asking).run("hi", makeTestCtx({ asker, llm: new FakeLLM("ok") }));
  }, `${NOTE}FakeAsker has 2 answer(s), but the run used only 1`);
});

Deno.test("FakeClaudeCli: the unused runs on the run's error (a process gets no run context)", async () => {
  await left(async () => {
    using cli = FakeClaudeCli.script(["first", "second"]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    await new Agent("a", { model: "claude-sonnet-4-5", cognition: claude, hooks: REJECTING })
      .run("hi", makeTestCtx());
  }, `${NOTE}FakeClaudeCli.script has 2 turn(s), but the run used only 1`);
});

Deno.test("FakeProvider behind a real port: the unused turns of its model on the run's error", async () => {
  await left(async () => {
    using provider = new FakeProvider({ llm: FakeLLM.script(["one", "two"]) });
    const llm = new OpenAIChatLLM({ apiKey: "sk-test", fetch: provider.fetch });
    await new Agent("a", { model: "gpt-4o-mini", hooks: REJECTING }).run(
      "hi",
      makeTestCtx({ llm }),
    );
  }, `${NOTE}FakeLLM.script has 2 turn(s), but the run used only 1`);
});

Deno.test("cassette replay under await using: the unused interactions on the run's error", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const line = (content: string) =>
      JSON.stringify({
        request: { model: "fake-model", messages: [{ role: "user", content: "hi" }] },
        turn: { content },
      });
    await Deno.writeTextFile(path, `${line("one")}\n${line("two")}\n`);
    await left(
      async () => {
        await using llm = cassette(path, { mode: "replay" });
        await guarded().run("hi", makeTestCtx({ llm }));
      },
      `${NOTE}`,
      "has 2 turn(s), but the run used only 1",
    );
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a run that succeeds: the dispose still throws UnusedTurns", async () => {
  await assertRejects(
    async () => {
      using llm = FakeLLM.script(["one", "two"]);
      await new Agent("a", { model: "fake-model" }).run("hi", makeTestCtx({ llm }));
    },
    UnusedTurns,
    "has 2 turn(s), but the run used only 1",
  );
});

Deno.test("a failed run the test caught, then a run that used the double: strict again", async () => {
  await assertRejects(
    async () => {
      using llm = FakeLLM.script(["one", "two", "three"]);
      const ctx = makeTestCtx({ llm });
      await assertRejects(() => guarded().run("first", ctx), HookFailed);
      await new Agent("a", { model: "fake-model" }).run("second", ctx);
    },
    UnusedTurns,
    "has 3 turn(s), but the run used only 2",
  );
});

Deno.test("a run on another context failing does not excuse this double", async () => {
  await assertRejects(
    async () => {
      using llm = FakeLLM.script(["one", "two"]);
      await new Agent("a", { model: "fake-model" }).run("hi", makeTestCtx({ llm }));
      await assertRejects(
        () => guarded().run("other", makeTestCtx({ llm: new FakeLLM("x") })),
        HookFailed,
      );
    },
    UnusedTurns,
    "has 2 turn(s), but the run used only 1",
  );
});

Deno.test("verify() called by the test stays strict after a failed run", async () => {
  const llm = FakeLLM.script(["one", "two"]);
  await assertRejects(() => guarded().run("hi", makeTestCtx({ llm })), HookFailed);
  assertThrows(() => llm.verify(), UnusedTurns, "has 2 turn(s), but the run used only 1");
});

Deno.test("what deno test prints for it: the run's error first, then the unused turns, no SuppressedError", async () => {
  const fixture = new URL("../fixtures/failed_run_in_using.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    // --allow-env: the mutation harness tells the child which mutant is on through the environment.
    args: ["test", "--no-check", "--allow-env", fixture],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const printed = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 1, printed);
  assert(!printed.includes("SuppressedError"), printed);
  assert(!printed.includes("suppressed during disposal"), printed);
  const cause = printed.indexOf(
    'error: HookFailed: The afterRun hook "guard" threw: the guard rejects the answer;',
  );
  const unused = printed.indexOf(
    "UnusedTurns: FakeLLM.script has 2 turn(s), but the run used only 1",
  );
  assert(cause >= 0 && unused > cause, printed);
  assertStringIncludes(printed, "FAILED | 0 passed | 1 failed");
});

Deno.test("a Run that fails on an error event: its result's error, with the unused turns on it", async () => {
  const error = await assertRejects(async () => {
    using llm = FakeLLM.script([{ error: new Error("the stream broke") }, "never"]);
    await new Agent("a", { model: "fake-model" }).start("hi", makeTestCtx({ llm })).result;
  });
  assert(!(error instanceof SuppressedError));
  assert(error.message.startsWith("the stream broke"), error.message);
  assertStringIncludes(
    error.message,
    `${NOTE}FakeLLM.script has 2 turn(s), but the run used only 1`,
  );
});

Deno.test("a Run started on a context already cancelled: its result rejects with the reason", async () => {
  const reason = new Error("cancelled before the start");
  const llm = FakeLLM.script(["never"], { allowUnused: true });
  const run = new Agent("a", { model: "fake-model" })
    .start("hi", makeTestCtx({ llm, signal: AbortSignal.abort(reason) }));
  assertStrictEquals(await run.result.catch((e) => e), reason);
});

Deno.test("retry() giving up on the script's failures: the last failure leaves the scope, with the turns", async () => {
  const error = await assertRejects(async () => {
    using llm = FakeLLM.script(["never reached"], { failTimes: 3 });
    const ctx = makeTestCtx({
      llm,
      clock: new FakeClock(),
      chatMiddleware: [retry({ maxAttempts: 3 })],
    });
    await new Agent("a", { model: "fake-model" }).run("hi", ctx);
  });
  assert(!(error instanceof SuppressedError));
  assertEquals(error.name, "ProviderTimeoutError");
  assertStringIncludes(
    error.message,
    `${NOTE}FakeLLM.script has 1 turn(s), but the run used only 0`,
  );
  assertStringIncludes(
    error.stack!,
    `${NOTE}FakeLLM.script has 1 turn(s), but the run used only 0`,
  );
});
