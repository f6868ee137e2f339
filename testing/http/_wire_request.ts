// What every wire's parse shares: reading the client's JSON (plain objects,
// text content, tool-call arguments), the settings it collects, and the
// request in ours it ends with. The wire-specific checks and messages stay
// in each wire.
import type { ChatRequest, ChatSettings } from "../../ports/chat.ts";
import type { Message } from "../../ports/message.ts";
import type { ToolSpec } from "../../ports/tool_spec.ts";
import type { Problem, WireRequest } from "./_wire.ts";

/** The 400 every wire answers for a body that is not a JSON object. */
export const NOT_AN_OBJECT: Problem = Object.freeze({
  status: 400,
  message: "The request body must be a JSON object.",
});

/** Settings as a parse fills them in. */
export type SettingsDraft = { -readonly [K in keyof ChatSettings]: ChatSettings[K] };

/** A plain object, or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/** The text of a content that is a string or an array of text parts. */
export function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (!Array.isArray(content)) return undefined;
  let text = "";
  for (const part of content) {
    const p = record(part);
    if (!p) return undefined;
    if (typeof p.text === "string") text += p.text;
  }
  return text;
}

/** A request body that is a JSON object naming a model. */
export type WireBody = Readonly<Record<string, unknown>> & { readonly model: string };

/**
 * A wire's parse: what every wire checks first (a JSON object, a model;
 * `noModel` is the wire's own 400 for a missing one), then `rest`.
 */
export function wireParser(
  noModel: Problem,
  rest: (body: WireBody) => WireRequest | Problem,
): (value: unknown) => WireRequest | Problem {
  return (value) => {
    const body = record(value);
    if (!body) return NOT_AN_OBJECT;
    if (typeof body.model !== "string" || body.model === "") return noModel;
    return rest(body as WireBody);
  };
}

/**
 * The parsed request: `body.model` (checked by the wire) with the messages,
 * the tools and settings when there are any, and `stream` as the body asks.
 */
export function wireRequest(
  body: WireBody,
  messages: Message[],
  tools: ToolSpec[] | undefined,
  settings: ChatSettings | undefined,
  includeUsage: boolean,
): WireRequest {
  const chat: ChatRequest = {
    model: body.model,
    messages,
    ...(tools ? { tools } : {}),
    ...(settings ? { settings } : {}),
  };
  return { chat, stream: body.stream === true, includeUsage };
}
