// transcript() is "safe to commit": no secret shape survives in any line it
// renders, and content that is not a string is shown (redacted), not thrown on.
import { assertEquals, assertFalse, assertStringIncludes, assertThrows } from "@std/assert";
import fc from "fast-check";
import { type Message, ProviderError, type StreamEvent, toolCall } from "@agentkit/testing/ports";
import { type AgentResult, registerSecret } from "@agentkit/testing/runtime";
import { FakeLLM, FakeTool, makeTestCtx, transcript } from "@agentkit/testing/testing";
import { hiddenSecret, PROSE, SECRET_CASES } from "../../_secret_cases.ts";

// The text in every place a transcript of messages shows one.
function conversation(text: string): Message[] {
  return [
    { role: "system", content: `rules: ${text}` },
    { role: "user", content: text },
    {
      role: "assistant",
      content: "",
      toolCalls: [toolCall("c1", "lookup_key", { query: text, nested: { note: text } })],
    },
    { role: "tool", toolCallId: "c1", content: JSON.stringify({ found: text, list: [text] }) },
    { role: "tool", toolCallId: "c1", content: `plain ${text}`, isError: true },
    { role: "assistant", content: `answer: ${text}` },
  ];
}

function events(text: string): StreamEvent[] {
  return [
    { type: "message_start", messageId: "m1" },
    { type: "text_delta", messageId: "m1", content: text.slice(0, 7) },
    { type: "text_delta", messageId: "m1", content: text.slice(7) },
    { type: "error", messageId: "m1", error: new ProviderError(`provider said ${text}`) },
  ];
}

Deno.test("transcript() shows no secret shape, in messages, requests, tools and events", async (t) => {
  for (const c of SECRET_CASES) {
    await t.step(c.name, async () => {
      const llm = new FakeLLM(`echo ${c.text}`);
      await llm.chat({ model: "m", messages: conversation(c.text) });
      const tool = new FakeTool({ name: "lookup_key", responder: "ok" });
      await tool.call({ query: c.text, token: "t-1" }, makeTestCtx());
      const result = {
        output: "",
        usage: { inputTokens: 1, outputTokens: 1 },
        messages: conversation(c.text),
        stopReason: "stop",
        data: { note: c.text },
      } as AgentResult;
      const texts: string[] = [
        transcript(conversation(c.text)),
        transcript(llm),
        transcript(tool),
        transcript(events(c.text)),
        transcript(result),
      ];
      for (const text of texts) {
        assertFalse(text.includes(c.secret), `${c.secret} in:\n${text}`);
      }
    });
  }
});

Deno.test("transcript() leaves ordinary text and tool names as they are", async (t) => {
  for (const text of PROSE) {
    await t.step(text, () => {
      assertEquals(transcript([{ role: "user", content: text }]), `user: ${text}`);
    });
  }
  const shown = transcript([{
    role: "assistant",
    content: "",
    toolCalls: [toolCall("c", "lookup_key", { id: 7, keyboard: "qwerty" })],
  }]);
  assertEquals(shown, 'assistant calls lookup_key [call_1] {"id":7,"keyboard":"qwerty"}');
});

Deno.test("transcript() masks every value under a secret-named key, whatever its type, keeping the shape", () => {
  const shown = transcript([{
    role: "assistant",
    content: "",
    toolCalls: [
      toolCall("c", "login", {
        credentials: { user: "ann", pin: 1234, big: 10n, remember: true, none: null },
        api_token: "",
        maxTokens: 100,
      }),
    ],
  }]);
  assertEquals(
    shown,
    'assistant calls login [call_1] {"api_token":"[REDACTED]","credentials":{"big":"[REDACTED]","none":null,"pin":"[REDACTED]","remember":true,"user":"[REDACTED]"},"maxTokens":100}',
  );
});

Deno.test("transcript() refuses a message whose content is not a string, naming it, and quotes no secret", () => {
  for (
    const [content, shown] of [
      [[{ type: "text", text: "key sk-proj-Ab3dEf6hIj9kLm2nOp5q" }], "content an array"],
      [42, "content 42"],
      [null, "content null"],
      [{ apiKey: "k-1", ok: true }, `content {"apiKey":"[REDACTED]","ok":true}`],
    ] as const
  ) {
    const messages = [{ role: "user", content: "hi" }, { role: "assistant", content }];
    const e = assertThrows(() => transcript(messages as unknown as Message[]), TypeError);
    assertStringIncludes(e.message, `Cannot make a transcript: message 2 has ${shown}`);
    assertStringIncludes(e.message, "content must be a string");
    assertFalse(e.message.includes("Ab3dEf6hIj9kLm2nOp5q"), e.message);
    const result = { messages, stopReason: "stop", usage: { inputTokens: 0, outputTokens: 0 } };
    assertThrows(() => transcript(result as never), TypeError, "message 2 has");
  }
});

Deno.test("transcript() shows raw arguments that are not a string as JSON", () => {
  const messages = [{
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c2", name: "t", args: {}, rawArgs: 7 }],
  }] as unknown as Message[];
  assertEquals(transcript(messages), "assistant calls t [call_1] (raw) 7");
});

Deno.test("transcript() of an error whose message is not a string", () => {
  const error = new Error("x");
  (error as { message: unknown }).message = { token: "abc" };
  const shown = transcript([{ type: "error", messageId: "m", error } as StreamEvent]);
  assertEquals(shown, `error [msg_1]: Error: {"token":"[REDACTED]"}`);
});

Deno.test("transcript() shows no generated secret hidden in text (property)", () => {
  fc.assert(
    fc.property(hiddenSecret, ({ text, secret }) => {
      const shown = [transcript(conversation(text)), transcript(events(text))].join("\n");
      return !shown.includes(secret);
    }),
    { numRuns: 200 },
  );
});

Deno.test("transcript() names where it refused: the messages, or a result's messages", () => {
  const robot = [{ role: "robot", content: "x" }] as unknown as Message[];
  const roles = 'message 1 has role "robot"; the roles are system, user, assistant, tool';
  const e = assertThrows(() => transcript(robot), TypeError);
  assertEquals(e.message, `Cannot make a transcript: ${roles}`);
  const result = {
    messages: robot,
    stopReason: "stop",
    usage: { inputTokens: 0, outputTokens: 0 },
  };
  const r = assertThrows(() => transcript(result as never), TypeError);
  assertEquals(r.message, `Cannot make a transcript of the result: ${roles}`);
});

Deno.test("transcript()'s refusal masks a registered secret by value; a getter's own error passes as it is", () => {
  // No vendor shape: only the registry knows it is a secret.
  const secret = `plainword${crypto.randomUUID().slice(0, 8)}`;
  registerSecret(secret);
  const shown = [{ role: "user", content: { note: secret } }] as unknown as Message[];
  const e = assertThrows(() => transcript(shown), TypeError);
  assertFalse(e.message.includes(secret), e.message);
  assertStringIncludes(e.message, "Cannot make a transcript: message 1 has content {");
  const result = {
    messages: shown,
    stopReason: "stop",
    usage: { inputTokens: 0, outputTokens: 0 },
  };
  const r = assertThrows(() => transcript(result as never), TypeError);
  assertFalse(r.message.includes(secret), r.message);
  const own = new RangeError("the getter's own failure");
  const getter = [{
    role: "user",
    get content(): string {
      throw own;
    },
  }] as unknown as Message[];
  assertEquals(assertThrows(() => transcript(getter)), own);
});
