// Raw HTTP against FakeProvider.fetch, for the wire tests: what a client
// sends and reads, byte for byte, without an SDK in between.
import type { FakeProvider } from "@agentkit/testing/testing";

const HEADERS: Record<string, Record<string, string>> = {
  openai: { authorization: "Bearer sk-test", "content-type": "application/json" },
  anthropic: {
    "x-api-key": "sk-ant-test",
    "anthropic-version": "2023-06-01",
    "content-type": "application/json",
  },
};

/** A POST of `body` (JSON unless a string) to `path`, with the vendor's key. */
export function post(
  provider: FakeProvider,
  path: string,
  body: unknown,
  headers: Record<string, string> = HEADERS[path === "/v1/messages" ? "anthropic" : "openai"],
): Promise<Response> {
  return provider.fetch(`https://api.example.com${path}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The status and JSON body of a blocking answer. */
export async function json(
  provider: FakeProvider,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await post(provider, path, body);
  return { status: res.status, body: await res.json() };
}

/** One SSE message: its event name (if any) and its data, parsed when JSON. */
export interface Frame {
  readonly event?: string;
  readonly data: unknown;
}

/** The SSE messages of a streamed answer, in order. */
export async function frames(
  provider: FakeProvider,
  path: string,
  body: unknown,
): Promise<Frame[]> {
  const res = await post(provider, path, body);
  if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
  const text = await res.text();
  const out: Frame[] = [];
  for (const block of text.split("\n\n")) {
    if (!block.trim()) continue;
    let event: string | undefined;
    let data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data += line.slice(6);
    }
    let parsed: unknown = data;
    try {
      parsed = JSON.parse(data);
    } catch {
      // `[DONE]` and the like stay text.
    }
    out.push(event === undefined ? { data: parsed } : { event, data: parsed });
  }
  return out;
}
