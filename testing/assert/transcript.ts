/**
 * A run, or what a double saw, as stable text for snapshots and failure
 * messages.
 *
 * @module
 */
import type { Message } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { Usage } from "../../ports/usage.ts";
import type { AgentResult } from "../../runtime/cognition/cognition.ts";
import { Run } from "../../runtime/run.ts";
import type { StreamChunk } from "../../runtime/stream/stream_chunk.ts";
import { FakeLLM, type RecordedRequest } from "../llm/fake_llm.ts";
import { FakeTool } from "../tools/fake_tool.ts";
import { type RecordedToolCall, ScriptedProvider } from "../tools/scripted_provider.ts";
import { line, Normalizer } from "./_transcript_text.ts";
import { checkMessages, redactText } from "../../runtime/internal.ts";

/**
 * What {@linkcode transcript} renders without waiting: a result (anything
 * with `messages` and a `stopReason`), a list of messages, a `FakeLLM` or its
 * `requests`, a `FakeTool`, a `ScriptedProvider` or its `recordedCalls`, or
 * the events of a run (`drainEvents` / `drainChunks`).
 */
export type Transcribable =
  | AgentResult
  | readonly Message[]
  | FakeLLM
  | readonly RecordedRequest[]
  | FakeTool
  | ScriptedProvider
  | readonly RecordedToolCall[]
  | readonly StreamEvent[]
  | readonly StreamChunk[];

/**
 * What {@linkcode transcript} returns for `T`: a promise of the text for a
 * `Run`, the text for the rest.
 */
export type TranscriptOf<T> = T extends Run ? Promise<string> : string;

/**
 * Renders a result, a run or a double's record as stable, readable text: one
 * line per message (`user: ...`, `assistant: ...`), each tool call with its
 * arguments (`assistant calls lookup [call_1] {"host":"a"}`), each tool
 * result (`tool lookup [call_1]: ...`), then the stop reason and the usage.
 * It is made for snapshots and failure messages, so nothing in it changes
 * between two runs of the same test:
 *
 * - call ids become `call_1`, `call_2`, ... and message ids `msg_1`, ... in
 *   order of appearance;
 * - date-times (ISO 8601 with a time of day) and values under time keys
 *   (`at`, `timestamp`, `createdAt`, ...) become `<time>`;
 * - credentials become `[REDACTED]`, through the package's one redaction
 *   engine: every value under a secret-named key at any depth (`apiKey`,
 *   `api_token`, `secretAccessKey`, `password`, `authorization`, `cookie`,
 *   ...; the shape stays), and in all text the credential shapes: vendor
 *   key prefixes (`sk-`, `sk-ant-`, `sk_live_`, `AIza`, `ghp_`, `AKIA`,
 *   `xox?-`, `hf_`, ...), JWTs, PEM private keys, `Bearer`/`Basic`
 *   credentials, secret-named `name=value` / JSON fields and URL query
 *   parameters, `user:pass@` in URLs and cookie lines;
 * - content that is not a string (content parts, a number) is shown as
 *   JSON, redacted alike;
 * - JSON (arguments, and tool results that hold JSON) is printed on one line
 *   with sorted keys.
 *
 * A {@linkcode Run} is rendered once it has settled, so that form returns a
 * promise: a finished run renders its result; a failed or cancelled run
 * renders the events it streamed and then the error.
 *
 * Pin it with a snapshot: `await assertSnapshot(t, transcript(result))` with
 * `@std/testing/snapshot` on Deno, `expect(transcript(result)).toMatchSnapshot()`
 * in Vitest or Jest, or compare it with a string as below.
 *
 * @param x What to render.
 * @returns The text (a promise of it for a `Run`).
 * @throws {TypeError} When `x` is none of the accepted shapes.
 *
 * @example A tool loop
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, FakeTool, makeTestCtx, transcript } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const tool = new FakeTool({ name: "lookup_cert", responder: { notAfter: "2026-08-01" } });
 * const llm = FakeLLM.script([
 *   { toolCalls: [toolCall("toolu_01XyZ", "lookup_cert", { host: "example.com" })] },
 *   { content: "The certificate expired on 2026-08-01." },
 * ]);
 * const agent = new Agent("sre", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) });
 * const result = await agent.run("Why did the deploy fail?", makeTestCtx({ llm }));
 * assertEquals(
 *   transcript(result),
 *   [
 *     "user: Why did the deploy fail?",
 *     'assistant calls lookup_cert [call_1] {"host":"example.com"}',
 *     'tool lookup_cert [call_1]: {"notAfter":"2026-08-01"}',
 *     "assistant: The certificate expired on 2026-08-01.",
 *     "stop reason: stop",
 *     "usage: 20 input tokens, 0 output tokens",
 *   ].join("\n"),
 * );
 * ```
 *
 * @example What the model was sent, secrets redacted
 * ```ts
 * import { FakeLLM, transcript } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = new FakeLLM("ok");
 * await llm.chat({ model: "m", messages: [{ role: "user", content: "use key sk-abcdefghijklmnop1234 at 2026-01-02T03:04:05Z" }] });
 * assertEquals(
 *   transcript(llm),
 *   "request 1 (chat, model m)\n  user: use key [REDACTED] at <time>",
 * );
 * ```
 */
export function transcript<T extends Transcribable | Run>(x: T): TranscriptOf<T> {
  if (x instanceof Run) return runText(x) as TranscriptOf<T>;
  return render(x, new Normalizer()) as TranscriptOf<T>;
}

function render(x: unknown, n: Normalizer): string {
  if (x instanceof FakeLLM) {
    const text = requestsText(x.requests, n);
    const unknown = x.unknownToolCalls.map((u) =>
      `unknown tool call in request ${u.turn}: ${u.toolName} [${n.callId(u.callId)}] (offered: ${
        u.offered.join(", ") || "no tools"
      })`
    );
    return [text, ...unknown].join("\n");
  }
  if (x instanceof FakeTool) return toolText(x.name, x.calls, n);
  if (x instanceof ScriptedProvider) return providerText(x.recordedCalls, n);
  if (Array.isArray(x)) {
    if (x.length === 0) return "(nothing recorded)";
    const first = x[0];
    if (isRecord(first) && "role" in first) {
      // A message no port would take (content 5, role "robot") is refused,
      // not printed as if a run had sent it.
      checkShown("Cannot make a transcript", x);
      return messagesText(x as Message[], n).join("\n");
    }
    if (isRecord(first) && "streaming" in first && "turn" in first) {
      return requestsText(x as RecordedRequest[], n);
    }
    if (isRecord(first) && "batch" in first && "id" in first) {
      return providerText(x as RecordedToolCall[], n);
    }
    if (isRecord(first) && "event" in first) {
      return eventsText((x as StreamChunk[]).map((c) => c.event), n).join("\n");
    }
    if (isRecord(first) && "type" in first && "messageId" in first) {
      return eventsText(x as StreamEvent[], n).join("\n");
    }
  } else if (isRecord(x) && Array.isArray(x.messages) && typeof x.stopReason === "string") {
    checkShown("Cannot make a transcript of the result", x.messages);
    return resultText(x as unknown as AgentResult, n);
  }
  throw new TypeError(
    `Cannot make a transcript of ${
      describe(x)
    }: pass an AgentResult, a Run, a list of messages, a FakeLLM or its requests, a FakeTool, a ScriptedProvider or its recordedCalls, or a run's events`,
  );
}

// The message refusing a bad message quotes its content: masked like a transcript.
function checkShown(where: string, messages: readonly unknown[]): void {
  try {
    checkMessages(where, messages);
  } catch (error) {
    // A getter that throws is the caller's own error, passed on as it is.
    if (!(error instanceof TypeError)) throw error;
    throw new TypeError(redactText(error.message));
  }
}

async function runText(run: Run): Promise<string> {
  try {
    return resultText(await run.result, new Normalizer());
  } catch (error) {
    const events: StreamEvent[] = [];
    try {
      for await (const chunk of run.events) events.push(chunk.event);
    } catch {
      // The run's error, which ends the lines below.
    }
    const n = new Normalizer();
    const lines = eventsText(events, n);
    lines.push(line("run failed", errorText(error, n)));
    return lines.join("\n");
  }
}

function resultText(result: AgentResult, n: Normalizer): string {
  const lines = messagesText(result.messages, n);
  const data = (result as { data?: unknown }).data;
  if (data !== undefined) lines.push(line("data", n.json(data)));
  lines.push(`stop reason: ${result.stopReason}`);
  if (result.usage) lines.push(`usage: ${usageText(result.usage)}`);
  return lines.join("\n");
}

function messagesText(messages: readonly Message[], n: Normalizer): string[] {
  const names = new Map<string, string>();
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      const id = m.toolCallId ?? "";
      const name = names.get(id);
      const label = `tool${name ? ` ${name}` : ""} [${id ? n.callId(id) : "no call id"}]`;
      lines.push(line(m.isError ? `${label} failed` : label, n.content(m.content)));
      continue;
    }
    if (m.content !== "" || !m.toolCalls?.length) lines.push(line(m.role, n.text(m.content)));
    for (const call of m.toolCalls ?? []) {
      names.set(call.id, call.name);
      lines.push(`${m.role} calls ${callText(call, n)}`);
    }
  }
  return lines;
}

function callText(
  call: { id: string; name: string; args?: unknown; rawArgs?: string },
  n: Normalizer,
): string {
  const args = call.rawArgs !== undefined ? `(raw) ${n.text(call.rawArgs)}` : n.json(call.args);
  return `${call.name} [${n.callId(call.id)}] ${args}`;
}

function requestsText(requests: readonly RecordedRequest[], n: Normalizer): string {
  if (requests.length === 0) return "(no requests)";
  const out: string[] = [];
  let previous: readonly Message[] = [];
  for (const r of requests) {
    const details = [r.kind, `model ${r.model}`];
    if (r.tools.length) details.push(`tools: ${r.tools.map((t) => t.name).join(", ")}`);
    if (r.settings?.jsonSchema !== undefined) details.push("json schema");
    out.push(`request ${r.turn} (${details.join(", ")})`);
    // A loop resends its transcript: show only what is new since the last request.
    const same = samePrefix(previous, r.messages);
    if (same > 0) out.push(`  (${same} earlier message(s))`);
    for (const l of messagesText(r.messages, n).slice(sameLines(r.messages, same, n))) {
      out.push(`  ${l.replace(/\n/g, "\n  ")}`);
    }
    previous = r.messages;
  }
  return out.join("\n");
}

// How many leading messages of `next` equal those of `previous`.
function samePrefix(previous: readonly Message[], next: readonly Message[]): number {
  let i = 0;
  while (
    i < previous.length && i < next.length && previous[i].role === next[i].role &&
    previous[i].content === next[i].content && previous[i].toolCallId === next[i].toolCallId
  ) i++;
  return i;
}

// How many rendered lines the first `count` messages take.
function sameLines(messages: readonly Message[], count: number, n: Normalizer): number {
  return count === 0 ? 0 : messagesText(messages.slice(0, count), n).length;
}

function toolText(name: string, calls: readonly unknown[], n: Normalizer): string {
  if (calls.length === 0) return `tool ${name}: never called`;
  return [
    `tool ${name}: called ${calls.length} time(s)`,
    ...calls.map((args, i) => {
      return `  call ${i + 1}: ${n.json(args)}`;
    }),
  ].join("\n");
}

function providerText(calls: readonly RecordedToolCall[], n: Normalizer): string {
  if (calls.length === 0) return "(no tool calls)";
  const lines: string[] = [];
  for (const c of calls) {
    lines.push(`batch ${c.batch} calls ${callText({ ...c, args: c.args ?? {} }, n)}`);
    if (c.result) {
      const label = `  result [${n.callId(c.result.callId)}]${c.result.isError ? " failed" : ""}`;
      lines.push(line(label, n.content(String(c.result.content))));
    } else lines.push("  (no result yet)");
  }
  return lines.join("\n");
}

function eventsText(events: readonly StreamEvent[], n: Normalizer): string[] {
  const lines: string[] = [];
  let text = "";
  let id = "";
  const flush = () => {
    if (text) lines.push(line(`assistant [${n.messageId(id)}]`, n.text(text)));
    text = "";
  };
  for (const e of events) {
    switch (e.type) {
      case "message_start":
        flush();
        id = e.messageId;
        n.messageId(id);
        break;
      case "text_delta":
        id = e.messageId;
        text += e.content;
        break;
      case "tool_call":
        flush();
        lines.push(`assistant [${n.messageId(e.messageId)}] calls ${callText(e.call, n)}`);
        break;
      case "message_end":
        flush();
        lines.push(
          `end [${n.messageId(e.messageId)}]: ${e.finishReason}; usage: ${usageText(e.usage)}`,
        );
        break;
      case "error": {
        flush();
        const extra = [
          e.finishReason ? `finish reason ${e.finishReason}` : "",
          e.usage ? `usage: ${usageText(e.usage)}` : "",
        ].filter(Boolean).join("; ");
        lines.push(
          line(`error [${n.messageId(e.messageId)}]`, errorText(e.error, n)) +
            (extra ? ` (${extra})` : ""),
        );
        break;
      }
    }
  }
  flush();
  return lines;
}

// `20 input tokens, 5 output tokens` (+ cached, + reported cost).
function usageText(u: Usage): string {
  let s = `${u.inputTokens} input tokens, ${u.outputTokens} output tokens`;
  if (u.cachedInputTokens !== undefined) s += `, ${u.cachedInputTokens} cached`;
  if (u.costUsd !== undefined) s += `, $${u.costUsd}`;
  return s;
}

function errorText(error: unknown, n: Normalizer): string {
  if (error instanceof Error) return `${error.name}: ${n.text(error.message)}`;
  return n.text(String(error));
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === "object";
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array of unknown items";
  if (typeof x === "object") return `an object (${x.constructor?.name ?? "no prototype"})`;
  return typeof x;
}
