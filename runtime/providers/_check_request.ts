// What a real port is handed is checked before anything is sent: a request
// that is not a ChatRequest is a bug in the caller, and as a TypeError here
// it is neither sent nor retried (retry() retries provider faults only).
import type { ChatRequest } from "../../ports/chat.ts";
import { preview } from "../_preview.ts";

const ROLES = new Set(["system", "user", "assistant", "tool"]);

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Throws a `TypeError` naming the first field of `request` that a
 * `ChatRequest` cannot have; `where` is the call (`OpenAIChatLLM.chat()`).
 */
export function checkRequest(where: string, request: unknown): asserts request is ChatRequest {
  const bad = (what: string, got: unknown): never => {
    throw new TypeError(
      `${where}: ${what}, got ${
        preview(got)
      }; pass a ChatRequest such as { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }`,
    );
  };
  if (!isObj(request)) bad("the request must be a ChatRequest object", request);
  const r = request as Record<string, unknown>;
  if (typeof r.model !== "string" || r.model === "") {
    bad("request.model must be a non-empty string", r.model);
  }
  if (!Array.isArray(r.messages) || r.messages.length === 0) {
    bad("request.messages must be a non-empty array of messages", r.messages);
  }
  const messages = r.messages as unknown[];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const at = `request.messages[${i}]`;
    if (!isObj(m)) bad(`${at} must be a message object`, m);
    const msg = m as Record<string, unknown>;
    if (typeof msg.role !== "string" || !ROLES.has(msg.role)) {
      bad(`${at}.role must be "system", "user", "assistant" or "tool"`, msg.role);
    }
    if (typeof msg.content !== "string") bad(`${at}.content must be a string`, msg.content);
    if (msg.role === "tool" && typeof msg.toolCallId !== "string") {
      bad(`${at}.toolCallId must name the call it answers`, msg.toolCallId);
    }
    if (msg.toolCalls !== undefined) {
      if (!Array.isArray(msg.toolCalls)) bad(`${at}.toolCalls must be an array`, msg.toolCalls);
      for (let j = 0; j < (msg.toolCalls as unknown[]).length; j++) {
        const c = (msg.toolCalls as unknown[])[j];
        const cat = `${at}.toolCalls[${j}]`;
        if (!isObj(c)) bad(`${cat} must be a tool call`, c);
        const call = c as Record<string, unknown>;
        if (typeof call.id !== "string") bad(`${cat}.id must be a string`, call.id);
        if (typeof call.name !== "string" || call.name === "") {
          bad(`${cat}.name must be a non-empty string`, call.name);
        }
        if (!isObj(call.args)) bad(`${cat}.args must be an object`, call.args);
      }
    }
  }
  if (r.tools !== undefined) {
    if (!Array.isArray(r.tools)) bad("request.tools must be an array of tool specs", r.tools);
    for (let i = 0; i < (r.tools as unknown[]).length; i++) {
      const t = (r.tools as unknown[])[i];
      if (!isObj(t) || typeof t.name !== "string" || t.name === "") {
        bad(`request.tools[${i}] must be a tool spec with a name`, t);
      }
      if (!isObj((t as Record<string, unknown>).parameters)) {
        bad(
          `request.tools[${i}].parameters must be a JSON schema object`,
          (t as Record<string, unknown>).parameters,
        );
      }
    }
  }
  if (r.settings !== undefined) {
    if (!isObj(r.settings)) bad("request.settings must be an object", r.settings);
    const s = r.settings as Record<string, unknown>;
    if (
      s.maxTokens !== undefined &&
      (typeof s.maxTokens !== "number" || !Number.isSafeInteger(s.maxTokens) || s.maxTokens < 1)
    ) bad("request.settings.maxTokens must be a positive integer", s.maxTokens);
    if (
      s.temperature !== undefined &&
      (typeof s.temperature !== "number" || !Number.isFinite(s.temperature) || s.temperature < 0)
    ) bad("request.settings.temperature must be a finite number of at least 0", s.temperature);
    if (s.jsonSchema !== undefined && !isObj(s.jsonSchema)) {
      bad("request.settings.jsonSchema must be a JSON schema object", s.jsonSchema);
    }
  }
}

/** Throws a `TypeError` when `ctx` is given but is not a context object. */
export function checkCtx(where: string, ctx: unknown): void {
  if (ctx === undefined || (typeof ctx === "object" && ctx !== null && !Array.isArray(ctx))) return;
  throw new TypeError(
    `${where}: the ctx must be a RunContext (makeTestCtx() in tests) or left out, got ${
      preview(ctx)
    }`,
  );
}
