// The strict wire's pairing rules (a tool result needs its call, a call needs
// its result) walk the request without building id lists or Sets, so a valid
// request allocates nothing. These properties hold them to a plain oracle
// written the obvious way (lists and Sets, as the API's error texts describe
// the rules) on random conversations: calls and results with ids from a small
// pool, out of order, repeated, missing, on the wrong role, with odd blocks and
// items between them. Both the check's path with every rule on (valid shapes
// only) and the one with other rules off (any shape) are compared.
import { assertEquals } from "@std/assert";
import fc from "fast-check";
import { CATALOGUE, rulesOff, violation } from "../../../testing/http/_strict.ts";
import type { Violation } from "../../../testing/http/_rules.ts";
import type { ProviderApi } from "../../../testing/http/_wire.ts";

type Found = Pick<Violation, "rule" | "path" | "text"> | undefined;

const ID = fc.constantFrom("a", "b", "c");

/** The check's answer, with every rule off but `keep`; or with all on when `keep` is undefined. */
function check(api: ProviderApi, body: Record<string, unknown>, keep?: string[]): Found {
  const except = keep &&
    Object.keys(CATALOGUE).filter((id) => CATALOGUE[id].api.includes(api) && !keep.includes(id));
  const v = violation(api, body, rulesOff(except ? { except } : true)!);
  return v && { rule: v.rule, path: v.path, text: v.text };
}

const plain = (x: unknown): x is Record<string, unknown> =>
  x !== null && typeof x === "object" && !Array.isArray(x);

// --- Anthropic Messages ------------------------------------------------------

const PAIRS_MESSAGES = ["tool-result-without-use", "tool-use-without-result"];

function messagesOracle(messages: unknown[]): Found {
  let prev: Array<[string, number]> = [];
  let prevAt = -1;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!plain(m) || (m.role !== "user" && m.role !== "assistant")) continue;
    const uses: Array<[string, number]> = [];
    const results: Array<[string, number]> = [];
    let lead = 0;
    if (Array.isArray(m.content)) {
      m.content.forEach((b: unknown, j: number) => {
        if (!plain(b)) return;
        if (b.type === "tool_use" && typeof b.id === "string") uses.push([b.id, j]);
        if (b.type === "tool_result" && typeof b.tool_use_id === "string") {
          results.push([b.tool_use_id, j]);
          if (lead === j) lead = j + 1;
        }
      });
    } else if (typeof m.content !== "string") {
      prev = [];
      continue;
    }
    const prevIds = new Set(prev.map(([id]) => id));
    for (const [id, j] of results) {
      if (m.role === "user" && prevIds.has(id)) continue;
      return {
        rule: "tool-result-without-use",
        path: `messages[${i}].content[${j}].tool_use_id`,
        text:
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      };
    }
    const leading = new Set(
      m.role === "user" ? results.filter(([, j]) => j < lead).map(([id]) => id) : [],
    );
    const missing = prev.filter(([id]) => !leading.has(id));
    if (missing.length > 0) {
      return {
        rule: "tool-use-without-result",
        path: `messages[${prevAt}].content[${missing[0][1]}].id`,
        text:
          `messages.${prevAt}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${
            missing.map(([id]) => id).join(", ")
          }. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      };
    }
    prev = m.role === "assistant" ? uses : [];
    prevAt = i;
  }
  return undefined;
}

const validBlock = fc.oneof(
  fc.constant({ type: "text", text: "x" }),
  fc.constant({ type: "image", source: { type: "url", url: "https://example.com/a.png" } }),
  ID.map((id) => ({ type: "tool_use", id, name: "f", input: {} })),
  ID.map((id) => ({ type: "tool_result", tool_use_id: id, content: "ok" })),
);
const oddBlock = fc.oneof(
  validBlock,
  fc.constantFrom(null, 7, "s", [], { type: "image" }),
  ID.map((id) => ({ type: "tool_use", tool_use_id: id })),
  ID.map((id) => ({ type: "tool_result", id })),
  ID.map((id) => ({ type: "tool_result", id, tool_use_id: 5 })),
);
const anthropicMessage = (block: fc.Arbitrary<unknown>, odd: boolean) =>
  fc.record({
    role: odd ? fc.constantFrom("user", "assistant", "tool") : fc.constantFrom("user", "assistant"),
    content: odd
      ? fc.oneof(fc.array(block, { maxLength: 4 }), fc.constantFrom("hi", 3, null))
      : fc.oneof(fc.array(block, { minLength: 1, maxLength: 4 }), fc.constant("hi")),
  });

Deno.test("messages pairing rules agree with the oracle: every rule on, valid blocks", () => {
  fc.assert(
    fc.property(
      fc.array(anthropicMessage(validBlock, false), { minLength: 1, maxLength: 6 }),
      (generated) => {
        // The conversation ends in a user turn, so no final-assistant rule is
        // in play (a copy: fast-check replays the generated value when it shrinks).
        const messages = [...generated, { role: "user", content: "hi" }];
        const body = { model: "claude-sonnet-4-5", max_tokens: 10, messages };
        assertEquals(check("messages", body), messagesOracle(messages));
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("messages pairing rules agree with the oracle: odd messages and blocks, other rules off", () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(anthropicMessage(oddBlock, true), fc.constantFrom(null, [], "m")), {
        maxLength: 6,
      }),
      (messages) => {
        const body = { model: "claude-sonnet-4-5", max_tokens: 10, messages };
        assertEquals(check("messages", body, PAIRS_MESSAGES), messagesOracle(messages));
      },
    ),
    { numRuns: 2000 },
  );
});

// --- Chat Completions --------------------------------------------------------

const PAIRS_CHAT = ["tool-message-without-call", "tool-call-without-result"];

function chatOracle(messages: unknown[]): Found {
  let calls: unknown[] | undefined;
  let callsAt = -1;
  let answered = new Set<string>();
  const unanswered = (): Found => {
    const missing: Array<[string, number]> = [];
    calls!.forEach((c, j) => {
      const id = plain(c) ? c.id : undefined;
      if (typeof id === "string" && !answered.has(id)) missing.push([id, j]);
    });
    if (missing.length === 0) return undefined;
    return {
      rule: "tool-call-without-result",
      path: `messages[${callsAt}].tool_calls[${missing[0][1]}].id`,
      text:
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${
          missing.map(([id]) => id).join(", ")
        }`,
    };
  };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!plain(m)) continue;
    if (m.role === "tool") {
      const id = m.tool_call_id;
      if (typeof id !== "string") continue;
      const made = new Set((calls ?? []).map((c) => plain(c) ? c.id : undefined));
      if (!made.has(id)) {
        return {
          rule: "tool-message-without-call",
          path: `messages[${i}].tool_call_id`,
          text:
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        };
      }
      answered.add(id);
      continue;
    }
    if (calls) {
      const bad = unanswered();
      if (bad) return bad;
    }
    calls = undefined;
    if (m.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      [calls, callsAt, answered] = [m.tool_calls, i, new Set()];
    }
  }
  return calls ? unanswered() : undefined;
}

const call = (id: string) => ({
  id,
  type: "function",
  function: { name: "f", arguments: "{}" },
});
const chatMessage = (odd: boolean) =>
  fc.oneof(
    fc.constant({ role: "user", content: "hi" }),
    fc.array(ID, { minLength: 1, maxLength: 3 }).map((ids) => ({
      role: "assistant",
      content: null,
      tool_calls: odd
        ? ids.map((id, k) => k === 1 ? { type: "function" } : call(id))
        : ids.map(call),
    })),
    ID.map((id) => ({ role: "tool", tool_call_id: id, content: "ok" })),
    ...(odd
      ? [
        fc.constantFrom(null, [], "m", { role: "tool", content: "ok" }, {
          role: "assistant",
          content: "x",
          tool_calls: [],
        }),
      ]
      : []),
  );

Deno.test("chat pairing rules agree with the oracle: every rule on, valid messages", () => {
  fc.assert(
    fc.property(fc.array(chatMessage(false), { minLength: 1, maxLength: 8 }), (messages) => {
      const body = { model: "gpt-4o-mini", messages };
      assertEquals(check("chat.completions", body), chatOracle(messages));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("chat pairing rules agree with the oracle: odd messages, other rules off", () => {
  fc.assert(
    fc.property(fc.array(chatMessage(true), { maxLength: 8 }), (messages) => {
      const body = { model: "gpt-4o-mini", messages };
      assertEquals(check("chat.completions", body, PAIRS_CHAT), chatOracle(messages));
    }),
    { numRuns: 2000 },
  );
});

// --- Responses ---------------------------------------------------------------

const PAIRS_RESPONSES = ["function-output-without-call", "function-call-without-output"];

function responsesOracle(input: unknown[], chained: boolean): Found {
  const calls = new Map<string, number>();
  const outputs = new Set<string>();
  for (let i = 0; i < input.length; i++) {
    const item = input[i];
    if (!plain(item) || typeof item.call_id !== "string") continue;
    if (item.type === "function_call" && !calls.has(item.call_id)) calls.set(item.call_id, i);
    if (item.type !== "function_call_output") continue;
    if (!chained && !calls.has(item.call_id)) {
      return {
        rule: "function-output-without-call",
        path: `input[${i}].call_id`,
        text: `No tool call found for function call output with call_id ${item.call_id}.`,
      };
    }
    outputs.add(item.call_id);
  }
  for (const [id, at] of calls) {
    if (outputs.has(id)) continue;
    return {
      rule: "function-call-without-output",
      path: `input[${at}].call_id`,
      text: `No tool output found for function call ${id}.`,
    };
  }
  return undefined;
}

const responsesItem = (odd: boolean) =>
  fc.oneof(
    fc.constant({ role: "user", content: "hi" }),
    ID.map((call_id) => ({ type: "function_call", call_id, name: "f", arguments: "{}" })),
    ID.map((call_id) => ({ type: "function_call_output", call_id, output: "ok" })),
    fc.constant({ type: "item_reference", id: "msg_1" }),
    ...(odd
      ? [
        fc.constantFrom(null, [], "m", { type: "function_call_output", output: "ok" }, {
          type: "function_call",
          call_id: 5,
          name: "f",
          arguments: "{}",
        }, { type: "function_call_output", call_id: 5, output: "ok" }),
        ID.map((call_id) => ({ type: "function_call", call_id, arguments: 5 })),
        ID.map((call_id) => ({ type: "message", role: "assistant", call_id, content: "x" })),
      ]
      : []),
  );

// A request of `input`, chained to a stored response or not.
const responses = (input: unknown[], chained: boolean) => ({
  model: "gpt-4o-mini",
  input,
  ...(chained ? { previous_response_id: "resp_1" } : {}),
});

Deno.test("responses pairing rules agree with the oracle: every rule on, valid items", () => {
  fc.assert(
    fc.property(
      fc.array(responsesItem(false), { maxLength: 8 }),
      fc.boolean(),
      (input, chained) => {
        assertEquals(
          check("responses", responses(input, chained)),
          responsesOracle(input, chained),
        );
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("responses pairing rules agree with the oracle: odd items, other rules off", () => {
  fc.assert(
    fc.property(
      fc.array(responsesItem(true), { maxLength: 8 }),
      fc.boolean(),
      (input, chained) => {
        assertEquals(
          check("responses", responses(input, chained), PAIRS_RESPONSES),
          responsesOracle(input, chained),
        );
      },
    ),
    { numRuns: 2000 },
  );
});
