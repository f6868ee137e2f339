// The OpenAI wires at their edges: a legacy function_call and its `function`
// answer read as a call and its result; the reasoning count at its bounds;
// the Responses object echoing every setting a request gave (and the API's
// defaults for the rest); obfuscation turned off; completed_at only on a
// completed response.
import { assertEquals } from "@std/assert";
import { FakeLLM, FakeProvider, type Turn } from "@agentkit/testing/testing";
import { frames, json, post } from "./_wire_fetch.ts";

const CHAT = "/v1/chat/completions";
const RESP = "/v1/responses";

function lenient(...turns: Array<Turn | string>): { llm: FakeLLM; provider: FakeProvider } {
  const llm = FakeLLM.script(turns, { strictTools: false });
  return { llm, provider: new FakeProvider({ llm, strict: false }) };
}

Deno.test("chat wire parse: a legacy function_call and the function message answering it", async () => {
  const { llm, provider: p } = lenient("ok", "ok");
  const body = (calls: unknown[]) => ({ model: "gpt-4o", messages: calls });
  await json(
    p,
    CHAT,
    body([
      { role: "user", content: "hi" },
      { role: "assistant", content: null, function_call: { name: "f", arguments: '{"a":1}' } },
      { role: "function", name: "f", content: "done" },
      { role: "user", content: [{ type: "text", text: "and?" }] },
    ]),
  );
  assertEquals(llm.requests[0].messages.slice(1, 3), [
    { role: "assistant", content: "", toolCalls: [{ id: "call_fn_1", name: "f", args: { a: 1 } }] },
    { role: "tool", content: "done", toolCallId: "call_fn_1" },
  ]);
  // A function message with no call before it answers by its name; a
  // function_call without a name, or with no arguments, is read as it can be.
  await json(
    p,
    CHAT,
    body([
      { role: "user", content: "hi" },
      { role: "function", name: "g", content: "x" },
      { role: "assistant", content: "plain", function_call: { arguments: "{}" } },
      { role: "assistant", content: "", function_call: { name: "h" } },
      { role: "user", content: "more" },
    ]),
  );
  assertEquals(llm.requests[1].messages.slice(1, 4), [
    { role: "tool", content: "x", toolCallId: "g" },
    { role: "assistant", content: "plain" },
    { role: "assistant", content: "", toolCalls: [{ id: "call_fn_3", name: "h", args: {} }] },
  ]);
});

Deno.test("OpenAI wires: reasoning_tokens is the script's when within the output, else all of a thought-only turn's", async () => {
  const turn = (outputTokens: number, reasoningTokens: number) => ({
    content: "x",
    usage: { inputTokens: 1, outputTokens, reasoningTokens },
  });
  const { provider: p } = lenient(turn(4, 4), turn(4, 5), turn(4, 4), turn(4, 5));
  const chat = [];
  for (let i = 0; i < 2; i++) {
    const u = (await json(p, CHAT, { model: "m", messages: [{ role: "user", content: "hi" }] }))
      .body.usage as { completion_tokens_details: { reasoning_tokens: number } };
    chat.push(u.completion_tokens_details.reasoning_tokens);
  }
  const resp = [];
  for (let i = 0; i < 2; i++) {
    const u = (await json(p, RESP, { model: "m", input: "hi" })).body.usage as {
      output_tokens_details: { reasoning_tokens: number };
    };
    resp.push(u.output_tokens_details.reasoning_tokens);
  }
  assertEquals([chat, resp], [[4, 0], [4, 0]]);
});

Deno.test("responses wire: the Response echoes every setting the request gave", async () => {
  const { provider: p } = lenient("a", "b", "c", "d");
  const settings = {
    background: true,
    instructions: "be brief",
    max_output_tokens: 99,
    max_tool_calls: 3,
    parallel_tool_calls: false,
    previous_response_id: "resp_prev",
    prompt_cache_key: "k",
    prompt_cache_retention: "24h",
    reasoning: { effort: "low", summary: "auto" },
    safety_identifier: "s",
    service_tier: "flex",
    store: false,
    temperature: 0.5,
    text: { format: { type: "json_object" }, verbosity: "low" },
    tool_choice: "required",
    top_logprobs: 2,
    top_p: 0.5,
    truncation: "auto",
    user: "u",
    metadata: { a: "1" },
  };
  const r = (await json(p, RESP, { model: "m", input: "hi", ...settings })).body;
  assertEquals(Object.fromEntries(Object.keys(settings).map((k) => [k, r[k]])), settings);
  assertEquals(
    (await json(p, RESP, { model: "m", input: "hi", service_tier: "priority" })).body.service_tier,
    "priority",
  );
  const defaults = (await json(p, RESP, {
    model: "m",
    input: "hi",
    service_tier: "auto",
    instructions: [{ role: "system", content: "x" }],
    top_p: "1",
    truncation: 5,
  })).body;
  assertEquals(
    [defaults.service_tier, defaults.instructions, defaults.top_p, defaults.truncation],
    ["default", null, 1, "disabled"],
  );
  const bare = (await json(p, RESP, { model: "m", input: "hi" })).body;
  assertEquals(
    [
      bare.background,
      bare.parallel_tool_calls,
      bare.store,
      bare.tool_choice,
      bare.top_logprobs,
      bare.metadata,
      bare.user,
    ],
    [false, true, true, "auto", 0, {}, null],
  );
});

Deno.test("responses wire stream: obfuscation off when the request says so; completed_at only on a completed response", async () => {
  const { provider: p } = lenient({ chunks: ["a", "b"] }, { chunks: ["a"] }, {
    content: "cut",
    finishReason: "length",
  }, { chunks: ["c"], finishReason: "length" });
  const text = async (body: Record<string, unknown>) =>
    await (await post(p, RESP, { model: "m", input: "hi", stream: true, ...body })).text();
  const off = await text({ stream_options: { include_obfuscation: false } });
  const on = await text({ stream_options: { include_obfuscation: true } });
  assertEquals([off.includes('"obfuscation"'), on.includes('"obfuscation"')], [false, true]);
  const cut = (await json(p, RESP, { model: "m", input: "hi" })).body;
  assertEquals([cut.status, cut.completed_at], ["incomplete", null]);
  const streamed = await text({});
  const last = streamed.trim().split("\n\n").at(-1)!;
  const done = JSON.parse(last.slice(last.indexOf("data: ") + 6));
  assertEquals([done.type, done.response.completed_at], ["response.incomplete", null]);
});

Deno.test("responses wire: a thought-only turn's output is all reasoning, blocking and streamed; a turn with text is not", async () => {
  const thought = { reasoning: "Weighing it.", usage: { inputTokens: 1, outputTokens: 6 } };
  const spoken = { ...thought, content: "Done." };
  const { provider: p } = lenient(thought, thought, spoken, spoken);
  const reasoning = (u: unknown) =>
    (u as { output_tokens_details: { reasoning_tokens: number } }).output_tokens_details
      .reasoning_tokens;
  const seen = [];
  for (let i = 0; i < 2; i++) {
    seen.push(reasoning((await json(p, RESP, { model: "m", input: "hi" })).body.usage));
    const events = await frames(p, RESP, { model: "m", input: "hi", stream: true });
    const done = events.find((f) => f.event === "response.completed")!.data as {
      response: { usage: unknown };
    };
    seen.push(reasoning(done.response.usage));
  }
  assertEquals(seen, [6, 6, 0, 0]);
});
