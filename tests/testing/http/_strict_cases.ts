// What every strict-rule test asks of FakeProvider: a request the rule
// refuses is the provider's 400 naming the rule and the path, recorded in
// `rejections`, with no turn of the script consumed; with the rule turned off
// the same request is not refused by it. A request no rule refuses is served.
import { FakeLLM, FakeProvider, type ProviderApi } from "@agentkit/testing/testing";
import { assert, assertEquals } from "@std/assert";
import { json } from "./_wire_fetch.ts";

const PATHS: Record<ProviderApi, string> = {
  "chat.completions": "/v1/chat/completions",
  responses: "/v1/responses",
  messages: "/v1/messages",
  generateContent: "/v1beta/models/gemini-3-pro-preview:generateContent",
};

/** The error JSON's fields, whichever vendor sent it. */
export interface Refusal {
  readonly message: string;
  readonly param?: unknown;
  readonly code?: unknown;
}

/** Sends `body` to a strict FakeProvider and expects `rule` to refuse it at `path`. */
export async function refuses(
  api: ProviderApi,
  body: Record<string, unknown>,
  rule: string,
  path: string,
): Promise<Refusal> {
  const llm = new FakeLLM("never sent");
  const provider = new FakeProvider({ llm });
  const { status, body: answer } = await json(provider, PATHS[api], body);
  assertEquals(status, 400, JSON.stringify(answer));
  const error = answer.error as Record<string, unknown>;
  if (api === "generateContent") {
    // Google's error body: { error: { code, message, status } }.
    assertEquals([error.code, error.status], [400, "INVALID_ARGUMENT"]);
  } else {
    assertEquals(error.type, "invalid_request_error");
    if (api === "messages") assertEquals(answer.type, "error");
    else assertEquals(error.param, path);
  }
  assertEquals(provider.rejections.map((r) => [r.rule, r.api, r.path]), [[rule, api, path]]);
  const message = String(error.message);
  assertEquals(message, provider.rejections[0].message);
  assert(message.includes(`strict rule ${rule} at ${path}`), message);
  assertEquals(llm.calls, 0, "a refused request consumes no turn");
  const off = new FakeProvider({ llm: new FakeLLM("ok"), strict: { except: [rule] } });
  await json(off, PATHS[api], body);
  assertEquals(off.rejections.filter((r) => r.rule === rule), [], `${rule} is off`);
  return { ...error, message: message.slice(0, message.indexOf(" [FakeProvider")) };
}

/** Sends `body` to a strict FakeProvider and expects it served (200, no rejection). */
export async function serves(api: ProviderApi, body: Record<string, unknown>): Promise<void> {
  const provider = new FakeProvider({ llm: FakeLLM.script(["ok"], { strictTools: false }) });
  const { status, body: answer } = await json(provider, PATHS[api], body);
  assertEquals([status, provider.rejections], [200, []], JSON.stringify(answer));
}

/** A user's one-line message, as Chat Completions and Messages take it. */
export const user = { role: "user", content: "hi" };

/** A minimal valid Chat Completions body, with `fields` over it. */
export const chat = (fields: Record<string, unknown>): Record<string, unknown> => ({
  model: "gpt-4o",
  messages: [user],
  ...fields,
});

/** A minimal valid Responses body, with `fields` over it. */
export const resp = (fields: Record<string, unknown>): Record<string, unknown> => ({
  model: "gpt-4.1",
  input: "hi",
  ...fields,
});

/** A minimal valid Messages body, with `fields` over it. */
export const claude = (fields: Record<string, unknown>): Record<string, unknown> => ({
  model: "claude-sonnet-4-5",
  max_tokens: 2048,
  messages: [user],
  ...fields,
});

/** A minimal valid generateContent body, with `fields` over it. */
export const gem = (fields: Record<string, unknown>): Record<string, unknown> => ({
  contents: [{ role: "user", parts: [{ text: "hi" }] }],
  ...fields,
});
