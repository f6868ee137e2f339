/**
 * A cassette as HAR: the exchanges on the wire, for browser devtools and
 * HTTP tooling.
 *
 * @module
 */
import type * as Fs from "node:fs";
import type { ChatRequest } from "../../ports/chat.ts";
import type { LLMPort } from "../../ports/llm.ts";
import {
  builtin,
  checkOptions,
  is,
  isSecretHeader,
  markInProcess,
} from "../../runtime/internal.ts";
import { AnthropicLLM } from "../../runtime/providers/anthropic_llm.ts";
import { GeminiLLM } from "../../runtime/providers/gemini_llm.ts";
import { OpenAIChatLLM } from "../../runtime/providers/openai_chat_llm.ts";
import { OpenAIResponsesLLM } from "../../runtime/providers/openai_responses_llm.ts";
import { FakeLLM } from "../llm/fake_llm.ts";
import { FakeProvider } from "../http/fake_provider.ts";
import { type CassetteLine, parseCassette, replayTurn } from "./_cassette_line.ts";
import { PACKAGE_VERSION } from "./_provenance.ts";
import { sseFrames } from "./_sse_frames.ts";

/** Which wire a cassette's entries are written as. */
export type HarApi = "chat.completions" | "responses" | "messages" | "generateContent";

/** Options for {@linkcode toHar}. */
export interface ToHarOptions {
  /**
   * The wire to write each entry as; by default the one its provenance
   * names (`AnthropicLLM` → Messages, `GeminiLLM` → Gemini,
   * `OpenAIResponsesLLM` → OpenAI Responses), else OpenAI Chat Completions.
   */
  readonly api?: HarApi;
  /**
   * Write every entry as a stream (`true`), none (`false`); by default an
   * entry is a stream when it was recorded in chunks.
   */
  readonly stream?: boolean;
}

/** One header or query pair. */
export interface HarPair {
  /** The name. */
  readonly name: string;
  /** The value. */
  readonly value: string;
}

/** One server-sent event, as Chrome's devtools export it. */
export interface HarEventSourceMessage {
  /** The `event:` field, `"message"` when there is none. */
  readonly type: string;
  /** Seconds since the epoch. */
  readonly time: number;
  /** The `id:` field, `""` when there is none. */
  readonly eventId: string;
  /** The `data:` lines, joined by newlines. */
  readonly data: string;
}

/** One exchange. */
export interface HarEntry {
  /** When the request was sent (the entry's recording date, else the epoch). */
  readonly startedDateTime: string;
  /** Milliseconds from request to the end of the answer, as recorded. */
  readonly time: number;
  /** The request. */
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly headers: readonly HarPair[];
    readonly queryString: readonly HarPair[];
    readonly cookies: readonly HarPair[];
    readonly headersSize: number;
    readonly bodySize: number;
    readonly postData: { readonly mimeType: string; readonly text: string };
  };
  /** The response; an SSE body's events are in `content._eventSourceMessages`. */
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly headers: readonly HarPair[];
    readonly cookies: readonly HarPair[];
    readonly content: {
      readonly size: number;
      readonly mimeType: string;
      readonly text: string;
      readonly _eventSourceMessages?: readonly HarEventSourceMessage[];
    };
    readonly redirectURL: string;
    readonly headersSize: number;
    readonly bodySize: number;
  };
  /** Empty: nothing was cached. */
  readonly cache: Record<string, never>;
  /** `wait` is the time to the first chunk, `receive` the rest, as recorded. */
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  /** The cassette line it came from. */
  readonly comment: string;
}

/** A HAR 1.2 document. */
export interface Har {
  /** The log. */
  readonly log: {
    readonly version: "1.2";
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly HarEntry[];
  };
}

const RULES = {
  api: is.oneOf(["chat.completions", "responses", "messages", "generateContent"]),
  stream: is.boolean,
};
const KEY = "sk-har-placeholder";
const encoder = new TextEncoder();

/**
 * Exports a cassette as HAR 1.2: each entry becomes the HTTP exchange the
 * provider's wire carries for it (written by this package's port and its
 * `FakeProvider`, so the shapes are the real API's), with the recorded
 * date and timing; a streamed answer keeps its SSE text and lists its frames
 * as `_eventSourceMessages`, as Chrome's devtools export them. Credentials
 * never appear: the key headers read `[REDACTED]`.
 *
 * @param path The cassette file.
 * @param options The wire, and whether to write streams.
 * @returns The HAR document (write it with `JSON.stringify`).
 * @throws {TypeError} On a bad option.
 * @throws {InvalidScript} When the cassette has a malformed line.
 *
 * @example A streamed entry, as SSE frames
 * ```ts
 * import { toHar } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, JSON.stringify({
 *   request: { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] },
 *   turn: { chunks: ["Hel", "lo"] },
 * }) + "\n");
 * const har = await toHar(path);
 * const [entry] = har.log.entries;
 * assertEquals(entry.request.url, "https://api.openai.com/v1/chat/completions");
 * assertEquals(entry.response.content.mimeType, "text/event-stream; charset=utf-8");
 * assertEquals(entry.response.content._eventSourceMessages?.at(-1)?.data, "[DONE]");
 * await Deno.remove(path);
 * ```
 */
export async function toHar(path: string | URL, options: ToHarOptions = {}): Promise<Har> {
  checkOptions("toHar()", options, RULES);
  const file = path instanceof URL ? path : String(path);
  const text = builtin<typeof Fs>("node:fs", "toHar()").readFileSync(file, "utf8");
  const { lines } = parseCassette(text, String(path));
  const entries: HarEntry[] = [];
  for (const line of lines) entries.push(await exchange(line, options));
  return {
    log: {
      version: "1.2",
      creator: { name: "@agentkit/testing", version: PACKAGE_VERSION },
      entries,
    },
  };
}

function apiOf(line: CassetteLine, options: ToHarOptions): HarApi {
  if (options.api) return options.api;
  const provider = line.provenance?.provider;
  if (provider === "AnthropicLLM") return "messages";
  if (provider === "GeminiLLM") return "generateContent";
  if (provider === "OpenAIResponsesLLM") return "responses";
  return "chat.completions";
}

interface Captured {
  url: string;
  method: string;
  headers: HarPair[];
  body: string;
  status: number;
  statusText: string;
  responseHeaders: HarPair[];
  responseText: string;
}

async function exchange(line: CassetteLine, options: ToHarOptions): Promise<HarEntry> {
  const api = apiOf(line, options);
  // A stall waits for a cancellation no export sends: the chunks before it are written.
  const { stall: _stall, ...turn } = replayTurn(line);
  const provider = new FakeProvider({
    llm: FakeLLM.script([turn], { usage: { inputTokens: 0, outputTokens: 0 } }),
    strict: false,
  });
  let captured: Captured | undefined;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = await request.clone().text();
    const response = await provider.fetch(request);
    const responseText = await response.text();
    captured = {
      url: request.url,
      method: request.method,
      headers: pairs(request.headers),
      body,
      status: response.status,
      statusText: response.statusText,
      responseHeaders: pairs(response.headers),
      responseText,
    };
    return new Response(responseText, { status: response.status, headers: response.headers });
  };
  markInProcess(fetch);
  const port: LLMPort = api === "messages"
    ? new AnthropicLLM({ apiKey: KEY, fetch })
    : api === "generateContent"
    ? new GeminiLLM({ apiKey: KEY, fetch })
    : api === "responses"
    ? new OpenAIResponsesLLM({ apiKey: KEY, fetch })
    : new OpenAIChatLLM({ apiKey: KEY, fetch });
  const request = { ...line.request } as unknown as ChatRequest;
  const streamed = options.stream ??
    ((line.turn.chunks?.length ?? 0) > 1 || (line.timing?.gapsMs?.length ?? 0) > 0);
  try {
    if (streamed) { for await (const _ of port.stream(request)) { /* the wire is what we keep */ } }
    else await port.chat(request);
  } catch {
    // A recorded failure: its HTTP exchange is what the HAR shows.
  }
  const c = captured!;
  const started = line.provenance ? Date.parse(line.provenance.recordedAt) : 0;
  const wait = line.timing?.firstChunkMs ?? 0;
  const gaps = line.timing?.gapsMs ?? [];
  const receive = gaps.reduce((a, b) => a + b, 0);
  const sse = c.responseHeaders.some((h) =>
    h.name === "content-type" && h.value.startsWith("text/event-stream")
  );
  const mimeType = c.responseHeaders.find((h) => h.name === "content-type")?.value ??
    "application/json";
  const url = new URL(c.url);
  return {
    startedDateTime: new Date(started).toISOString(),
    time: wait + receive,
    request: {
      method: c.method,
      url: c.url,
      httpVersion: "HTTP/1.1",
      headers: c.headers,
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: encoder.encode(c.body).length,
      postData: { mimeType: "application/json", text: c.body },
    },
    response: {
      status: c.status,
      statusText: c.statusText,
      httpVersion: "HTTP/1.1",
      headers: c.responseHeaders,
      cookies: [],
      content: {
        size: encoder.encode(c.responseText).length,
        mimeType,
        text: c.responseText,
        ...(sse ? { _eventSourceMessages: sseFrames(c.responseText, started, wait, gaps) } : {}),
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: encoder.encode(c.responseText).length,
    },
    cache: {},
    timings: { send: 0, wait, receive },
    comment: `cassette line ${line.lineNumber}`,
  };
}

function pairs(headers: Headers): HarPair[] {
  const out: HarPair[] = [];
  headers.forEach((value, name) => {
    out.push({ name, value: isSecretHeader(name) ? "[REDACTED]" : value });
  });
  return out;
}
