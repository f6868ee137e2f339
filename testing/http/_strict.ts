// The strict wire's machinery: every wire's rule set, the catalogue merged
// from them, the `strict` option's rule, and the check FakeProvider runs.
import type { Rule } from "../../runtime/internal.ts";
import { anthropicRules } from "./_anthropic_rules.ts";
import { geminiRules } from "./_gemini_rules.ts";
import {
  CHAT_MEDIA_RULE,
  chatMediaProblem,
  GEMINI_MEDIA_RULE,
  geminiMediaProblem,
  RESPONSES_MEDIA_RULE,
  responsesMediaProblem,
} from "./_media_rules.ts";
import { openAIChatRules } from "./_openai_chat_rules.ts";
import { openAIResponsesRules } from "./_openai_responses_rules.ts";
import type { RuleContext, RuleInfo, RuleSet, RulesOff, Violation } from "./_rules.ts";
import {
  CHAT_FIELD_RULES,
  chatFieldProblem,
  GEMINI_FIELD_RULES,
  geminiFieldProblem,
  MESSAGES_FIELD_RULES,
  messagesFieldProblem,
  RESPONSES_FIELD_RULES,
  RESPONSES_STRICT_RULE,
  responsesFieldProblem,
} from "./_request_rules.ts";
import type { ProviderApi } from "./_wire.ts";
import type { FakeProviderStrict, WireRule } from "./wire_rules.ts";

// A wire's rules with the request-field rules (_request_rules.ts) in front:
// the fields are checked first, as the APIs validate a body's shape before
// its conversation.
function withFields(
  set: RuleSet,
  rules: Readonly<Record<string, RuleInfo>>,
  fields: (body: Readonly<Record<string, unknown>>, off: RulesOff) => Violation | undefined,
): RuleSet {
  return {
    api: set.api,
    rules: { ...set.rules, ...rules },
    check: (body, off, ctx) => fields(body, off) ?? set.check(body, off, ctx),
  };
}

// Every wire's rules. A wire brings its own: a `_<wire>_rules.ts` file and a
// line here.
// The field rules first, then the media types, then the wire's own rules.
const RULE_SETS: readonly RuleSet[] = [
  withFields(
    withFields(openAIChatRules, CHAT_MEDIA_RULE, chatMediaProblem),
    CHAT_FIELD_RULES,
    chatFieldProblem,
  ),
  withFields(
    withFields(openAIResponsesRules, RESPONSES_MEDIA_RULE, responsesMediaProblem),
    { ...RESPONSES_FIELD_RULES, ...RESPONSES_STRICT_RULE },
    responsesFieldProblem,
  ),
  withFields(anthropicRules, MESSAGES_FIELD_RULES, messagesFieldProblem),
  withFields(
    withFields(geminiRules, GEMINI_MEDIA_RULE, geminiMediaProblem),
    GEMINI_FIELD_RULES,
    geminiFieldProblem,
  ),
];

function merge(sets: readonly RuleSet[]): Record<string, WireRule> {
  const by: Record<string, Array<[ProviderApi, string, string]>> = {};
  for (const set of sets) {
    for (const [id, info] of Object.entries(set.rules)) {
      (by[id] ??= []).push([set.api, info.description, info.source]);
    }
  }
  const out: Record<string, WireRule> = {};
  for (const id of Object.keys(by).sort()) {
    const entries = by[id];
    const one = entries.length === 1;
    const text = (i: 1 | 2) =>
      one ? entries[0][i] : entries.map((e) => `${e[0]}: ${e[i]}`).join("\n");
    out[id] = Object.freeze({
      api: Object.freeze(entries.map((e) => e[0])),
      description: text(1),
      source: text(2),
    });
  }
  return Object.freeze(out);
}

/** The catalogue, merged from every wire's rules (published as `WIRE_RULES`). */
export const CATALOGUE: Readonly<Record<string, WireRule>> = merge(RULE_SETS);

const NONE_OFF: RulesOff = new Set();

function ids(): string {
  return Object.keys(CATALOGUE).join(", ");
}

/** The options rule for `strict`. */
export const strictRule: Rule = {
  accepts: "true, false or { except: [rule ids] }",
  test(value) {
    if (typeof value === "boolean") return undefined;
    const o = value as { except?: unknown } | null;
    if (
      o === null || typeof o !== "object" || Array.isArray(o) ||
      Object.keys(o).some((k) => k !== "except") || !Array.isArray(o.except)
    ) return { kind: "type" };
    for (const id of o.except) {
      if (typeof id !== "string" || !Object.hasOwn(CATALOGUE, id)) {
        return {
          kind: "range",
          message: `option "strict" names an unknown rule ${
            JSON.stringify(id)
          } in except; the rules are ${ids()} (see WIRE_RULES)`,
        };
      }
    }
    return undefined;
  },
};

/** The rules `strict` turns off, or undefined when every rule is off. */
export function rulesOff(strict: FakeProviderStrict | undefined): RulesOff | undefined {
  if (strict === false) return undefined;
  if (strict === undefined || strict === true) return NONE_OFF;
  return new Set(strict.except);
}

const BY_API = new Map<ProviderApi, RuleSet>(RULE_SETS.map((s) => [s.api, s]));

/**
 * The first rule a request body breaks on `api`, or undefined; `ctx` is for
 * the rules that read the URL or what the provider issued before.
 */
export function violation(
  api: ProviderApi,
  body: unknown,
  off: RulesOff,
  ctx?: RuleContext,
): Violation | undefined {
  const set = BY_API.get(api);
  if (!set || body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  return set.check(body as Record<string, unknown>, off, ctx);
}

/** The error message a rejected request gets: the provider's text, the rule, the path, the way out. */
export function rejectionMessage(v: Violation): string {
  return `${v.text} [FakeProvider strict rule ${v.rule} at ${v.path}: the real API rejects this request; new FakeProvider({ strict: { except: ['${v.rule}'] } }) lets it through]`;
}
