// The requests strict_wire.bench.ts and strict_wire_ratio.ts send: a tool
// loop's fourth step on Chat Completions and on Messages.

/** What the model answers. */
export const ANSWER = "All three hosts are up.";

const schema = {
  type: "object",
  properties: { host: { type: "string" }, port: { type: "integer" } },
  required: ["host"],
};
const names = ["ping_host", "read_logs", "restart_service"];

// Three rounds of two parallel calls, their results, and the question: the
// request an agent sends on its fourth step.
function chatBody(): string {
  const messages: unknown[] = [
    { role: "system", content: "You are the on-call assistant." },
    { role: "user", content: "Are db1, db2 and web1 up?" },
  ];
  for (let r = 0; r < 3; r++) {
    const ids = [`call_${r}_a`, `call_${r}_b`];
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: ids.map((id, i) => ({
        id,
        type: "function",
        function: { name: names[i], arguments: `{"host":"db${r}"}` },
      })),
    });
    for (const id of ids) messages.push({ role: "tool", tool_call_id: id, content: "ok" });
  }
  return JSON.stringify({
    model: "gpt-4o-mini",
    messages,
    tools: names.map((name) => ({ type: "function", function: { name, parameters: schema } })),
    temperature: 0,
    max_tokens: 512,
  });
}

function messagesBody(): string {
  const messages: unknown[] = [{ role: "user", content: "Are db1, db2 and web1 up?" }];
  for (let r = 0; r < 3; r++) {
    const ids = [`toolu_${r}_a`, `toolu_${r}_b`];
    messages.push({
      role: "assistant",
      content: ids.map((id, i) => ({
        type: "tool_use",
        id,
        name: names[i],
        input: { host: `db${r}` },
      })),
    });
    messages.push({
      role: "user",
      content: ids.map((id) => ({ type: "tool_result", tool_use_id: id, content: "ok" })),
    });
  }
  return JSON.stringify({
    model: "claude-sonnet-4-6",
    max_tokens: 512,
    system: "You are the on-call assistant.",
    messages,
    tools: names.map((name) => ({ name, input_schema: schema })),
    temperature: 0,
  });
}

/** Each wire's URL, headers and body, and how to read the answer. */
export const WIRES = [
  {
    api: "chat.completions",
    url: "https://api.openai.com/v1/chat/completions",
    headers: { authorization: "Bearer sk-bench", "content-type": "application/json" },
    body: chatBody(),
    answer: (j: { choices: Array<{ message: { content: string } }> }) =>
      j.choices[0].message.content,
  },
  {
    api: "messages",
    url: "https://api.anthropic.com/v1/messages",
    headers: {
      "x-api-key": "sk-bench",
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    },
    body: messagesBody(),
    answer: (j: { content: Array<{ text: string }> }) => j.content[0].text,
  },
] as const;
