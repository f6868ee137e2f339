// The requests strict_wire.bench.ts and strict_wire_ratio.ts send: a tool
// loop's fourth step on Chat Completions, Messages, Responses and Gemini.

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

function responsesBody(): string {
  const input: unknown[] = [{ role: "user", content: "Are db1, db2 and web1 up?" }];
  for (let r = 0; r < 3; r++) {
    const ids = [`call_${r}_a`, `call_${r}_b`];
    ids.forEach((call_id, i) =>
      input.push({
        type: "function_call",
        call_id,
        name: names[i],
        arguments: `{"host":"db${r}"}`,
      })
    );
    for (const call_id of ids) input.push({ type: "function_call_output", call_id, output: "ok" });
  }
  return JSON.stringify({
    model: "gpt-4o-mini",
    instructions: "You are the on-call assistant.",
    input,
    tools: names.map((name) => ({ type: "function", name, parameters: schema })),
    temperature: 0,
    max_output_tokens: 512,
  });
}

function geminiBody(): string {
  const contents: unknown[] = [{ role: "user", parts: [{ text: "Are db1, db2 and web1 up?" }] }];
  for (let r = 0; r < 3; r++) {
    const calls = [0, 1].map((i) => ({ name: names[i], args: { host: `db${r}` } }));
    contents.push({ role: "model", parts: calls.map((functionCall) => ({ functionCall })) });
    contents.push({
      role: "user",
      parts: calls.map((c) => ({ functionResponse: { name: c.name, response: { result: "ok" } } })),
    });
  }
  return JSON.stringify({
    systemInstruction: { parts: [{ text: "You are the on-call assistant." }] },
    contents,
    tools: [{ functionDeclarations: names.map((name) => ({ name, parameters: schema })) }],
    generationConfig: { temperature: 0, maxOutputTokens: 512 },
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
  {
    api: "responses",
    url: "https://api.openai.com/v1/responses",
    headers: { authorization: "Bearer sk-bench", "content-type": "application/json" },
    body: responsesBody(),
    answer: (j: { output: Array<{ content: Array<{ text: string }> }> }) =>
      j.output[0].content[0].text,
  },
  {
    api: "generateContent",
    url: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
    headers: { "x-goog-api-key": "bench-key", "content-type": "application/json" },
    body: geminiBody(),
    answer: (j: { candidates: Array<{ content: { parts: Array<{ text: string }> } }> }) =>
      j.candidates[0].content.parts[0].text,
  },
] as const;
