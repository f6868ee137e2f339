// What a FakeProvider's model answered, checked before it is written to the
// wire: a model of the test's own (any LLMPort) that answers `content: 5` or
// `finishReason: "bogus"` would otherwise be served as a valid answer, and
// the port under test would fail on a body the real provider never sends.
import type { ChatResponse } from "../../ports/chat.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { describe } from "../../runtime/internal.ts";
import { InvalidScript } from "../errors.ts";

// ports/usage.ts FinishReason.
const FINISH = ["stop", "tool_calls", "length", "content_filter", "error"];

/** `answer` when it is a `ChatResponse` the wire can write; else an `InvalidScript` naming the field. */
export function checkedAnswer(answer: unknown, request: string): ChatResponse {
  const where = `FakeProvider: the model's answer to request ${request}`;
  const bad = (what: string): never => {
    throw new InvalidScript(
      `${where} ${what}; a model behind a FakeProvider answers a ChatResponse ({ content: string, toolCalls: [], finishReason: "stop" | "tool_calls" | "length" | "content_filter" | "error", usage })`,
    );
  };
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
    return bad(`is ${describe(answer)}, not an object`);
  }
  const a = answer as Partial<Record<keyof ChatResponse, unknown>>;
  if (typeof a.content !== "string") bad(`has content ${describe(a.content)}, not a string`);
  if (!Array.isArray(a.toolCalls)) bad(`has toolCalls ${describe(a.toolCalls)}, not an array`);
  if (!FINISH.includes(a.finishReason as string)) {
    bad(`has finishReason ${describe(a.finishReason)}, not one of ${FINISH.join(", ")}`);
  }
  const u = a.usage as { inputTokens?: unknown; outputTokens?: unknown } | null | undefined;
  if (
    u === null || typeof u !== "object" || !Number.isSafeInteger(u.inputTokens) ||
    !Number.isSafeInteger(u.outputTokens)
  ) bad(`has usage ${describe(a.usage)}, not { inputTokens, outputTokens } counts`);
  return answer as ChatResponse;
}

/** A streamed event's text and finish reason, checked as `checkedAnswer` checks a blocking answer's. */
export function checkedEvent(event: StreamEvent, request: string): StreamEvent {
  const where = `FakeProvider: the model's stream for request ${request}`;
  if (event.type === "text_delta" && typeof event.content !== "string") {
    throw new InvalidScript(
      `${where} has a text_delta whose content is ${describe(event.content)}, not a string`,
    );
  }
  if (event.type === "message_end" && !FINISH.includes(event.finishReason)) {
    throw new InvalidScript(
      `${where} ends with finishReason ${describe(event.finishReason)}, not one of ${
        FINISH.join(", ")
      }`,
    );
  }
  return event;
}
