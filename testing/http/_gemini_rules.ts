// The strict rules of the Gemini API (POST /v1beta/models/{model}:generateContent
// and :streamGenerateContent). The error texts are the API's own as users
// report them; paths in the API's form (`contents[1].parts`). The thought
// signature rule reads what this provider issued (its WireMemory).
import { badSchemaType, obj, type RuleSet, type RulesOff, type Violation } from "./_rules.ts";
import type { RuleContext } from "./_rules.ts";
import { signsCalls } from "./_gemini_wire.ts";

const REF = "ai.google.dev/api/generate-content";
// "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or
// contain underscores (_), dots (.), colons (:), or dashes (-), with a
// maximum length of 64."
const NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const MODEL = /\/models\/([^/:]*)/;

function v(rule: string, path: string, text: string): Violation {
  return { rule, path, text };
}

function req(path: string, text: string): string {
  return `* GenerateContentRequest.${path}: ${text}\n`;
}

function configProblem(value: unknown, off: RulesOff): Violation | undefined {
  const g = obj(value);
  if (!g) return undefined;
  const t = g.temperature;
  if (!off.has("temperature-range") && t !== undefined && t !== null) {
    if (typeof t !== "number" || !(t >= 0 && t <= 2)) {
      return v(
        "temperature-range",
        "generationConfig.temperature",
        req(
          "generation_config.temperature",
          `Invalid value ${JSON.stringify(t)}: temperature must be a number from 0.0 to 2.0.`,
        ),
      );
    }
  }
  const max = g.maxOutputTokens;
  if (!off.has("max-tokens-range") && max !== undefined && max !== null) {
    if (typeof max !== "number" || !Number.isInteger(max) || max < 1) {
      return v(
        "max-tokens-range",
        "generationConfig.maxOutputTokens",
        `Unable to submit request because it has a maxOutputTokens value of ${
          JSON.stringify(max)
        } but the supported range is from 1 (inclusive). Update the value and try again.`,
      );
    }
  }
  return undefined;
}

// A declaration's path, ours and the API's, built only for one that fails.
const declAt = (i: number, j: number) => `tools[${i}].functionDeclarations[${j}]`;
const declWire = (i: number, j: number) => `tools[${i}].function_declarations[${j}]`;

function declarations(tool: unknown): unknown[] | undefined {
  const t = obj(tool);
  const decls = t && (t.functionDeclarations ?? t.function_declarations);
  return Array.isArray(decls) ? decls : undefined;
}

// Whether a declaration before tools[i] declaration j is named `name`.
function declaredBefore(tools: unknown[], i: number, j: number, name: string): boolean {
  for (let ti = 0; ti <= i; ti++) {
    const decls = declarations(tools[ti]);
    if (!decls) continue;
    const end = ti === i ? j : decls.length;
    for (let k = 0; k < end; k++) {
      if ((decls[k] as { name?: unknown } | null)?.name === name) return true;
    }
  }
  return false;
}

function toolsProblem(value: unknown, off: RulesOff): Violation | undefined {
  if (!Array.isArray(value)) return undefined;
  const name = !off.has("tool-name-pattern");
  const schema = !off.has("tool-schema-type");
  const unique = !off.has("duplicate-tool-name");
  for (let i = 0; i < value.length; i++) {
    const decls = declarations(value[i]);
    if (!decls) continue;
    for (let j = 0; j < decls.length; j++) {
      const f = obj(decls[j]);
      if (!f) continue;
      if (name && (typeof f.name !== "string" || !NAME.test(f.name))) {
        return v(
          "tool-name-pattern",
          `${declAt(i, j)}.name`,
          req(
            `${declWire(i, j)}.name`,
            "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.",
          ),
        );
      }
      if (unique && typeof f.name === "string" && declaredBefore(value, i, j, f.name)) {
        return v(
          "duplicate-tool-name",
          `${declAt(i, j)}.name`,
          `Duplicate function declaration found: ${f.name}`,
        );
      }
      if (!schema) continue;
      const bad = schemaProblem(f, i, j);
      if (bad) return bad;
    }
  }
  return undefined;
}

function schemaProblem(f: Record<string, unknown>, i: number, j: number): Violation | undefined {
  const json = f.parametersJsonSchema;
  const open = f.parameters;
  if (json !== undefined && open !== undefined) {
    return v(
      "tool-schema-type",
      `${declAt(i, j)}.parametersJsonSchema`,
      req(
        `${declWire(i, j)}.parameters_json_schema`,
        "parameters_json_schema and parameters are mutually exclusive: set one of them.",
      ),
    );
  }
  if (open !== undefined && !obj(open)) {
    return v(
      "tool-schema-type",
      `${declAt(i, j)}.parameters`,
      req(`${declWire(i, j)}.parameters`, "Invalid value, expected a Schema object."),
    );
  }
  if (json === undefined) return undefined;
  const s = obj(json);
  if (!s || s.type !== "object") {
    return v(
      "tool-schema-type",
      `${declAt(i, j)}.parametersJsonSchema`,
      req(
        `${declWire(i, j)}.parameters_json_schema`,
        'The schema must describe an object (type "object") whose properties are the function\'s parameters.',
      ),
    );
  }
  // (The path is built only for a bad type: every schema is walked on every request.)
  const found = badSchemaType(s, "");
  if (found) {
    return v(
      "tool-schema-type",
      `${declAt(i, j)}.parametersJsonSchema${found[0]}`,
      req(
        `${declWire(i, j)}.parameters_json_schema`,
        `${JSON.stringify(found[1])} is not a JSON Schema type.`,
      ),
    );
  }
  return undefined;
}

interface Turn {
  readonly role: unknown;
  readonly calls: number;
  readonly responses: number;
}

function turnOf(c: Record<string, unknown>): Turn {
  let calls = 0;
  let responses = 0;
  const parts = c.parts as unknown[];
  for (const raw of parts) {
    const p = obj(raw);
    if (!p) continue;
    if (p.functionCall !== undefined) calls++;
    else if (p.functionResponse !== undefined) responses++;
  }
  return { role: c.role, calls, responses };
}

// Gemini 3 validates the signatures of the current turn only: the steps
// since the last user content that is not function responses (the
// thought-signature guide).
function currentTurnStart(turns: readonly (Turn | undefined)[]): number {
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i];
    if (t && t.role !== "model" && t.responses === 0) return i;
  }
  return 0;
}

// The signatures Google documents for history the model did not sign
// (another model's turns, hand-built transcripts): the API skips the check
// for them ("you can set the following dummy signatures ...
// "context_engineering_is_the_way_to_go" or "skip_thought_signature_validator"",
// ai.google.dev/gemini-api/docs/thought-signatures, FAQ). Some clients send
// them base64-encoded, which the API takes too.
const DUMMY_SIGNATURES = new Set([
  "context_engineering_is_the_way_to_go",
  "skip_thought_signature_validator",
  btoa("context_engineering_is_the_way_to_go"),
  btoa("skip_thought_signature_validator"),
]);

function missingSignature(i: number, j: number, name: unknown): Violation {
  return v(
    "thought-signature-missing",
    `contents[${i}].parts[${j}].thoughtSignature`,
    `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${
      String(name)
    }\` , position ${
      i + 1
    }. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
  );
}

// Every step of the current turn: its first function-call part must carry a
// signature, whether or not the call has an id (the API validates the
// first functionCall part of each step, and parallel calls carry one on the
// first only); a call this provider signed must come back with the signature
// it was given (or a documented dummy).
function signatureProblem(
  contents: unknown[],
  turns: readonly (Turn | undefined)[],
  ctx: RuleContext,
): Violation | undefined {
  for (let i = currentTurnStart(turns); i < contents.length; i++) {
    if (turns[i]?.role !== "model" || !turns[i]!.calls) continue;
    const parts = (contents[i] as { parts: unknown[] }).parts;
    let first = true;
    for (let j = 0; j < parts.length; j++) {
      const p = obj(parts[j]);
      const f = p && obj(p.functionCall);
      if (!f) continue;
      const sig = p!.thoughtSignature;
      const dummy = typeof sig === "string" && DUMMY_SIGNATURES.has(sig);
      const issued = typeof f.id === "string" ? ctx.memory.signatureFor(f.id) : undefined;
      if (issued && sig !== issued.signature && !dummy) return missingSignature(i, j, f.name);
      if (first && !issued && (typeof sig !== "string" || sig === "")) {
        return missingSignature(i, j, f.name);
      }
      first = false;
    }
  }
  return undefined;
}

function contentsProblem(
  contents: unknown[],
  off: RulesOff,
  ctx: RuleContext | undefined,
): Violation | undefined {
  const turns: (Turn | undefined)[] = [];
  for (let i = 0; i < contents.length; i++) {
    const c = obj(contents[i]);
    if (!c) {
      turns.push(undefined);
      continue;
    }
    if (!Array.isArray(c.parts) || c.parts.length === 0) {
      if (!off.has("parts-empty")) {
        return v(
          "parts-empty",
          `contents[${i}].parts`,
          req(`contents[${i}].parts`, "contents.parts must not be empty."),
        );
      }
      turns.push(undefined);
      continue;
    }
    if (
      !off.has("role") && c.role !== undefined && c.role !== "user" && c.role !== "model"
    ) {
      return v("role", `contents[${i}].role`, "Please use a valid role: user, model.");
    }
    const turn = turnOf(c);
    turns.push(turn);
    const before = i > 0 ? turns[i - 1] : undefined;
    if (turn.role === "model" && turn.calls > 0 && !off.has("function-call-turn")) {
      if (!before || before.role === "model") {
        return v(
          "function-call-turn",
          `contents[${i}]`,
          "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
        );
      }
    }
    if (turn.responses > 0) {
      const calls = before?.role === "model" ? before.calls : 0;
      if (calls === 0) {
        if (off.has("function-response-turn")) continue;
        return v(
          "function-response-turn",
          `contents[${i}]`,
          "Please ensure that function response turn comes immediately after a function call turn.",
        );
      }
      if (turn.responses !== calls && !off.has("function-response-count")) {
        return v(
          "function-response-count",
          `contents[${i}].parts`,
          "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
        );
      }
    }
  }
  if (ctx && !off.has("thought-signature-missing")) {
    const model = MODEL.exec(safePath(ctx.url))?.[1];
    if (model !== undefined && signsCalls(model)) return signatureProblem(contents, turns, ctx);
  }
  return undefined;
}

function safePath(url: URL): string {
  const path = url.pathname;
  // Most paths have no escape: no decoding to pay for on every request.
  if (!path.includes("%")) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const THOUGHT_GUIDE = "ai.google.dev/gemini-api/docs/thought-signatures";

/** The Gemini API's rules. */
export const geminiRules: RuleSet = {
  api: "generateContent",
  rules: {
    "contents-empty": {
      description: "`contents` missing, or an empty list.",
      source:
        `${REF}: GenerateContentRequest.contents is "Required"; the real error reported in googleapis/js-genai#912 and ikechan8370/chatgpt-plugin#733: "GenerateContentRequest.contents: contents is not specified"`,
    },
    "parts-empty": {
      description: "A content whose `parts` is missing or empty.",
      source:
        'Real error reported in egoist/chatwise-releases#250: "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty."; livekit/agents#1397 ("Ensure `contents.parts` is non-empty")',
    },
    role: {
      description: "A content `role` other than `user` or `model`.",
      source:
        "ai.google.dev/api/caching#Content: role \"Must be either 'user' or 'model'.\"; the real error reported in the-open-agent/openagent#1666: \"Please use a valid role: user, model.\"",
    },
    "function-call-turn": {
      description:
        "A `model` content with function calls that opens `contents` or follows another `model` content.",
      source:
        'Real error reported in google-gemini/gemini-cli#11814 (a history that starts with a function call) and #26486: "Please ensure that function call turn comes immediately after a user turn or after a function response turn."',
    },
    "function-response-turn": {
      description:
        "A content with function responses that does not follow a `model` content with function calls.",
      source:
        'Real error reported in langchain-ai/langchain#27799 and GoogleCloudPlatform/generative-ai#368: "Please ensure that function response turn comes immediately after a function call turn."',
    },
    "function-response-count": {
      description:
        "A content answering a function call turn with a number of function response parts other than the turn's function call parts.",
      source:
        'Real error reported in google-gemini/gemini-cli#4217, #16415 and #17208: "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."',
    },
    "thought-signature-missing": {
      description:
        "On a `gemini-3*` model, a step of the current turn whose first function call part has no `thoughtSignature` (whether or not the call has an id), or a call sent back without the signature this provider issued with it (Google's documented dummy signatures pass).",
      source:
        `${THOUGHT_GUIDE} (Gemini 3 validates the signatures of the current turn; the first function call part of each step is signed; the dummy signatures "context_engineering_is_the_way_to_go" and "skip_thought_signature_validator" skip the check); the real error reported in nanbingxyz/5ire#405 and csells/dartantic#86: "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, … position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details."`,
    },
    "tool-name-pattern": {
      description:
        "A function declaration `name` that does not start with a letter or `_`, has a character other than `a-zA-Z0-9_.:-`, or is longer than 64.",
      source:
        'Real error reported in router-for-me/Cli-Proxy-API-Management-Center#120 and kaitranntt/ccs#219: "tools[0].function_declarations[32].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64."',
    },
    "duplicate-tool-name": {
      description: "Two function declarations with the same `name` (in one tool or across tools).",
      source:
        'Real error reported in smarter-sh/smarter#537 (gemini-2.5-flash-lite): "Duplicate function declaration found: get_current_weather" (400, status INVALID_ARGUMENT)',
    },
    "tool-schema-type": {
      description:
        'A function declaration with both `parameters` and `parametersJsonSchema`, a `parameters` that is not an object, or a `parametersJsonSchema` that is not of `type: "object"` or has a `type` that is not a JSON Schema type.',
      source:
        `${REF} (FunctionDeclaration): parametersJsonSchema "must describe an object where the properties are the parameters to the function" and "This field is mutually exclusive with parameters"; parameters is a Schema object`,
    },
    "temperature-range": {
      description: "`generationConfig.temperature` that is not a number from 0 to 2.",
      source: `${REF} (GenerationConfig.temperature): "Values can range from [0.0, 2.0]."`,
    },
    "max-tokens-range": {
      description: "`generationConfig.maxOutputTokens` that is not an integer of at least 1.",
      source:
        'Real error reported in stackblitz-labs/bolt.diy#955: "Unable to submit request because it has a maxOutputTokens value of 655360 but the supported range is from 1 (inclusive) to 8193 (exclusive). Update the value and try again."',
    },
  },
  check(body, off, ctx) {
    const contents = body.contents;
    if (!off.has("contents-empty")) {
      if (contents === undefined || contents === null) {
        return v("contents-empty", "contents", req("contents", "contents is not specified"));
      }
      if (Array.isArray(contents) && contents.length === 0) {
        return v("contents-empty", "contents", req("contents", "contents is not specified"));
      }
    }
    const head = configProblem(body.generationConfig ?? body.generation_config, off);
    if (head) return head;
    if (Array.isArray(contents)) {
      const bad = contentsProblem(contents, off, ctx);
      if (bad) return bad;
    }
    return toolsProblem(body.tools, off);
  },
};
