// The strict rules of Anthropic Messages (POST /v1/messages). The error texts
// are the API's own, paths in its dotted form (`messages.3.content.0`).
import {
  badSchemaType,
  isToolName,
  obj,
  ruleFlags,
  type RuleSet,
  type RulesOff,
  type Violation,
} from "./_rules.ts";

const SDK = "anthropics/anthropic-sdk-typescript src/resources/messages/messages.ts";

// Empty, or only whitespace (what trim() would leave empty), without a copy.
function blank(text: string): boolean {
  return !/\S/.test(text);
}

function v(rule: string, path: string, text: string): Violation {
  return { rule, path, text };
}

function settingsProblem(
  body: Readonly<Record<string, unknown>>,
  off: RulesOff,
): Violation | undefined {
  const max = body.max_tokens;
  if (max === undefined) {
    return off.has("max-tokens-required")
      ? undefined
      : v("max-tokens-required", "max_tokens", "max_tokens: Field required");
  }
  if (!off.has("max-tokens-range")) {
    if (typeof max !== "number" || !Number.isInteger(max)) {
      return v("max-tokens-range", "max_tokens", "max_tokens: Input should be a valid integer");
    }
    if (max < 0) {
      return v(
        "max-tokens-range",
        "max_tokens",
        "max_tokens: Input should be greater than or equal to 0",
      );
    }
  }
  const stream = body.stream;
  if (!off.has("stream-type") && stream !== undefined && typeof stream !== "boolean") {
    return v("stream-type", "stream", "stream: Input should be a valid boolean");
  }
  const t = body.temperature;
  if (!off.has("temperature-range") && t !== undefined) {
    if (typeof t !== "number") {
      return v("temperature-range", "temperature", "temperature: Input should be a valid number");
    }
    if (t > 1 || t < 0) {
      return v(
        "temperature-range",
        "temperature",
        `temperature: Input should be ${
          t > 1 ? "less than or equal to 1" : "greater than or equal to 0"
        }`,
      );
    }
  }
  return undefined;
}

// What blocksProblem() saw in the message it walked (one walk at a time: no
// await inside), so a valid message allocates nothing: where its leading
// tool_result blocks stop, the text of its last block, and whether it has
// tool_use or tool_result blocks at all.
let lead = 0;
let lastText: string | undefined;
let hasUses = false;
let hasResults = false;

// Paths are built only for the block that fails.
const at = (i: number, j: number) => `messages[${i}].content[${j}]`;
const dotted = (i: number, j: number) => `messages.${i}.content.${j}`;

// Which rules are on, by the names the check reads.
const flags = ruleFlags({
  shape: "content-block-shape",
  empty: "empty-text-block",
  system: "system-role-in-messages",
  contentType: "message-content-type",
  orphan: "tool-result-without-use",
  pairing: "tool-use-without-result",
  trailing: "final-assistant-trailing-whitespace",
});
type On = ReturnType<typeof flags>;

function blocksProblem(
  content: unknown[],
  i: number,
  final: boolean,
  on: On,
): Violation | undefined {
  lead = 0;
  lastText = undefined;
  hasUses = false;
  hasResults = false;
  if (content.length === 0 && !final && on.empty) {
    return v(
      "empty-text-block",
      `messages[${i}].content`,
      `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
    );
  }
  for (let j = 0; j < content.length; j++) {
    const b = obj(content[j]);
    if (!b) continue;
    lastText = undefined;
    const type = b.type;
    if (type === "text") {
      const text = b.text;
      if (typeof text !== "string") {
        if (!on.shape) continue;
        return v(
          "content-block-shape",
          `${at(i, j)}.text`,
          text === undefined
            ? `${dotted(i, j)}.text.text: Field required`
            : `${dotted(i, j)}.text.text: Input should be a valid string`,
        );
      }
      if (on.empty && blank(text)) {
        return v(
          "empty-text-block",
          `${at(i, j)}.text`,
          text === ""
            ? "messages: text content blocks must be non-empty"
            : "messages: text content blocks must contain non-whitespace text",
        );
      }
      lastText = text;
    } else if (type === "tool_use") {
      if (on.shape) {
        const field = typeof b.id !== "string"
          ? "id"
          : typeof b.name !== "string"
          ? "name"
          : undefined;
        if (field) {
          return v(
            "content-block-shape",
            `${at(i, j)}.${field}`,
            `${dotted(i, j)}.tool_use.${field}: Field required`,
          );
        }
        if (!obj(b.input)) {
          return v(
            "content-block-shape",
            `${at(i, j)}.input`,
            `${dotted(i, j)}.tool_use.input: Input should be a valid dictionary`,
          );
        }
      }
      if (typeof b.id === "string") hasUses = true;
    } else if (type === "tool_result") {
      if (typeof b.tool_use_id !== "string") {
        if (!on.shape) continue;
        return v(
          "content-block-shape",
          `${at(i, j)}.tool_use_id`,
          `${dotted(i, j)}.tool_result.tool_use_id: Field required`,
        );
      }
      hasResults = true;
      if (lead === j) lead = j + 1;
    }
  }
  return undefined;
}

// A block's id when it is a `tool_use` (or, with `result`, a `tool_result`'s
// `tool_use_id`) the walk counted, else undefined.
function blockId(block: unknown, result: boolean): string | undefined {
  // No obj(): an array has no `type`, so it is no block of either kind.
  if (typeof block !== "object" || block === null) return undefined;
  const b = block as { type?: unknown; id?: unknown; tool_use_id?: unknown };
  const id = result
    ? (b.type === "tool_result" ? b.tool_use_id : undefined)
    : (b.type === "tool_use" ? b.id : undefined);
  return typeof id === "string" ? id : undefined;
}

// Whether `blocks[0..end)` hold a block with `id` (tool_use ids, or with
// `result` tool_result ids). Turns have a few blocks: a scan beats a Set, and
// it looks at `guess` first, since clients answer calls in the order made.
function holds(
  blocks: unknown[],
  end: number,
  id: string,
  result: boolean,
  guess: number,
): boolean {
  if (guess < end && blockId(blocks[guess], result) === id) return true;
  for (let k = 0; k < end; k++) if (blockId(blocks[k], result) === id) return true;
  return false;
}

// The previous assistant message's tool_use blocks that the message at `i`
// (its leading `end` blocks) leaves unanswered, as the API words it.
function unanswered(
  uses: unknown[],
  usesAt: number,
  answers: unknown[] | undefined,
  end: number,
): Violation | undefined {
  let first = -1;
  let missing: string[] | undefined;
  for (let k = 0; k < uses.length; k++) {
    const id = blockId(uses[k], false);
    if (id === undefined || (answers && holds(answers, end, id, true, k))) continue;
    if (!missing) [missing, first] = [[], k];
    missing.push(id);
  }
  if (!missing) return undefined;
  return v(
    "tool-use-without-result",
    `messages[${usesAt}].content[${first}].id`,
    `messages.${usesAt}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${
      missing.join(", ")
    }. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  );
}

function messagesProblem(messages: unknown[], on: On): Violation | undefined {
  // The blocks of the message before, if it was the assistant's with tool_use blocks.
  let uses: unknown[] | undefined;
  let usesAt = -1;
  const last = messages.length - 1;
  for (let i = 0; i < messages.length; i++) {
    const m = obj(messages[i]);
    if (!m) continue;
    const role = m.role;
    if (role === "system") {
      if (!on.system) continue;
      return v(
        "system-role-in-messages",
        `messages[${i}].role`,
        'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
      );
    }
    if (role !== "user" && role !== "assistant") continue;
    const final = i === last && role === "assistant";
    const content = m.content;
    let blocks: unknown[] | undefined;
    if (typeof content === "string") {
      // A string is shorthand for one text block, and is held to its rules.
      if (!final && on.empty && blank(content)) {
        return v(
          "empty-text-block",
          `messages[${i}].content`,
          content === ""
            ? `messages.${i}: all messages must have non-empty content except for the optional final assistant message`
            : "messages: text content blocks must contain non-whitespace text",
        );
      }
      lead = 0;
      lastText = content;
      hasUses = false;
      hasResults = false;
    } else if (Array.isArray(content)) {
      const bad = blocksProblem(content, i, final, on);
      if (bad) return bad;
      blocks = content;
    } else if (on.contentType) {
      return v(
        "message-content-type",
        `messages[${i}].content`,
        content === undefined
          ? `messages.${i}.content: Field required`
          : `messages.${i}.content: Input should be a valid list`,
      );
    } else {
      uses = undefined;
      continue;
    }
    if (on.orphan && blocks && hasResults) {
      for (let j = 0; j < blocks.length; j++) {
        const id = blockId(blocks[j], true);
        if (id === undefined) continue;
        if (role === "user" && uses && holds(uses, uses.length, id, false, j)) continue;
        return v(
          "tool-result-without-use",
          `messages[${i}].content[${j}].tool_use_id`,
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
    if (on.pairing && uses) {
      // A use is answered by a result among the message's leading blocks.
      const bad = unanswered(uses, usesAt, role === "user" ? blocks : undefined, lead);
      if (bad) return bad;
    }
    if (
      final && on.trailing && lastText !== undefined && /\s$/.test(lastText)
    ) {
      return v(
        "final-assistant-trailing-whitespace",
        typeof content === "string"
          ? `messages[${i}].content`
          : `messages[${i}].content[${(content as unknown[]).length - 1}].text`,
        "messages: final assistant content cannot end with trailing whitespace",
      );
    }
    uses = role === "assistant" && hasUses ? blocks : undefined;
    usesAt = i;
  }
  return undefined;
}

function toolsProblem(tools: unknown, off: RulesOff): Violation | undefined {
  if (!Array.isArray(tools)) return undefined;
  const duplicates = !off.has("duplicate-tool-name");
  const names = !off.has("tool-name-pattern");
  const schemas = !off.has("tool-schema-type");
  for (let i = 0; i < tools.length; i++) {
    const t = obj(tools[i]);
    if (!t) continue;
    const name = t.name;
    if (duplicates && typeof name === "string") {
      for (let k = 0; k < i; k++) {
        if ((tools[k] as { name?: unknown } | null)?.name !== name) continue;
        return v("duplicate-tool-name", `tools[${i}].name`, "tools: Tool names must be unique.");
      }
    }
    // Server tools (web search, code execution) carry a versioned type and no schema.
    if (t.type !== undefined && t.type !== null && t.type !== "custom") continue;
    if (names && typeof name === "string" && !isToolName(name, 64)) {
      return v(
        "tool-name-pattern",
        `tools[${i}].name`,
        `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`,
      );
    }
    if (schemas) {
      const bad = schemaProblem(t.input_schema, i);
      if (bad) return bad;
    }
  }
  return undefined;
}

function schemaProblem(schema: unknown, i: number): Violation | undefined {
  const s = obj(schema);
  if (!s) {
    return v(
      "tool-schema-type",
      `tools[${i}].input_schema`,
      schema === undefined
        ? `tools.${i}.custom.input_schema: Field required`
        : `tools.${i}.custom.input_schema: Input should be a valid dictionary`,
    );
  }
  if (s.type !== "object") {
    return v(
      "tool-schema-type",
      `tools[${i}].input_schema.type`,
      s.type === undefined
        ? `tools.${i}.custom.input_schema.type: Field required`
        : `tools.${i}.custom.input_schema.type: Input should be 'object'`,
    );
  }
  const bad = badSchemaType(s, "");
  if (!bad) return undefined;
  return v(
    "tool-schema-type",
    `tools[${i}].input_schema${bad[0]}`,
    `tools.${i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.claude.com/en/docs/tool-use.`,
  );
}

/** Anthropic Messages. */
export const anthropicRules: RuleSet = {
  api: "messages",
  rules: {
    "max-tokens-required": {
      description: "A request without `max_tokens`.",
      source:
        `${SDK}: MessageCreateParamsBase.max_tokens is required (\`max_tokens: number\`, not optional) — "The maximum number of tokens to generate before stopping."`,
    },
    "tool-use-without-result": {
      description:
        "An assistant `tool_use` id with no `tool_result` block at the start of the next user message.",
      source:
        'Real error reported in anthropics/claude-code#5989 and #1237: "messages.22: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_…. Each `tool_use` block must have a corresponding `tool_result` block in the next message."',
    },
    "tool-result-without-use": {
      description:
        "A `tool_result` block whose `tool_use_id` names no `tool_use` block of the message before it.",
      source:
        'Real error reported in anthropics/claude-code#13460 and tghamm/Anthropic.SDK#184: "messages.48.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_…. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."',
    },
    "system-role-in-messages": {
      description: "A message with role `system` (the system prompt is the top-level `system`).",
      source:
        `${SDK}: "there is no \\"system\\" role for input messages in the Messages API"; the real error, reported in ianarawjo/ChainForge#271: "messages: Unexpected role \\"system\\". The Messages API accepts a top-level \`system\` parameter, not \\"system\\" as an input message role."`,
    },
    "empty-text-block": {
      description:
        "A text block that is empty or only whitespace, or a message with empty content that is not the final assistant message.",
      source:
        'Real errors reported in anthropics/claude-code#59812: "messages: text content blocks must be non-empty"; in anomalyco/opencode#31259: "text content blocks must contain non-whitespace text"; in anthropics/claude-code#6774: "messages.0: all messages must have non-empty content except for the optional final assistant message"',
    },
    "final-assistant-trailing-whitespace": {
      description: "A final assistant message (a prefill) whose text ends with whitespace.",
      source:
        'Real error reported in tailcallhq/forgecode#1872 and anomalyco/opencode#1295: "messages: final assistant content cannot end with trailing whitespace"',
    },
    "tool-name-pattern": {
      description: "A custom tool's `name` that does not match `^[a-zA-Z0-9_-]{1,64}$`.",
      source:
        "Real error reported in apify/tester-mcp-client#11: \"tools.7.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'\"",
    },
    "duplicate-tool-name": {
      description: "Two tools with the same `name`.",
      source:
        'Real error reported in anthropics/claude-code#10687 and microsoft/vscode#276110: "tools: Tool names must be unique."',
    },
    "messages-empty": {
      description: "`messages` is an empty array.",
      source:
        'Real error reported in langchain-ai/langchain#31696 (Anthropic): "at least one message is required"; the SDK\'s MessageCreateParams.messages doc: "You can specify a single `user`-role message, or …"',
    },
    "message-content-type": {
      description: "A message `content` that is missing, or neither a string nor a list of blocks.",
      source:
        `${SDK}: MessageParam.content is required, \`string | Array<ContentBlockParam>\`; the API's wording for such faults ("Field required", "Input should be a valid list") as in su-kaka/gcli2api#392`,
    },
    "content-block-shape": {
      description:
        "A text block without a string `text`, a `tool_use` block without `id`, `name` or an object `input`, or a `tool_result` without `tool_use_id`.",
      source:
        `${SDK}: TextBlockParam.text, ToolUseBlockParam.id/name/input and ToolResultBlockParam.tool_use_id are required; the real error for a bad input, reported in anthropics/claude-code#6696: "messages.61.content.0.tool_use.input: Input should be a valid dictionary"`,
    },
    "tool-schema-type": {
      description:
        'A custom tool without `input_schema`, with one that is not an object of `type: "object"`, or with a `type` in it that is not a JSON Schema type.',
      source:
        `${SDK}: Tool.input_schema is required, Tool.InputSchema.type is 'object'; real errors reported in su-kaka/gcli2api#392: "tools.0.custom.input_schema: Field required", in Kilo-Org/kilocode#12238: "tools.0.custom.input_schema.type: Field required", and in anthropics/claude-code#63673: "tools.12.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 …"`,
    },
    "stream-type": {
      description: "`stream` that is not a boolean.",
      source:
        `${SDK}: MessageCreateParamsNonStreaming.stream is \`false\`, …Streaming.stream is \`true\``,
    },
    "temperature-range": {
      description: "`temperature` that is not a number from 0 to 1.",
      source:
        `${SDK} (up to sdk-v0.91): temperature "Defaults to \`1.0\`. Ranges from \`0.0\` to \`1.0\`."`,
    },
    "max-tokens-range": {
      description:
        "`max_tokens` that is not an integer of at least 0 (0 only warms the prompt cache).",
      source:
        `${SDK} (sdk-v0.92 on): max_tokens "Set to \`0\` to populate the prompt cache without generating a response" — the smallest value the API takes`,
    },
  },
  check(body, off) {
    const head = settingsProblem(body, off);
    const on = flags(off);
    if (head) return head;
    const messages = body.messages;
    if (Array.isArray(messages)) {
      if (messages.length === 0 && !off.has("messages-empty")) {
        return v("messages-empty", "messages", "messages: at least one message is required");
      }
      const bad = messagesProblem(messages, on);
      if (bad) return bad;
    }
    return toolsProblem(body.tools, off);
  },
};
