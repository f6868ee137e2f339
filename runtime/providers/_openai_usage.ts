// The two OpenAI wires count usage alike under other names (openai-node
// CompletionUsage: prompt_tokens / completion_tokens, ResponseUsage:
// input_tokens / output_tokens, each with its `_details`): the input includes
// the cached prefix, ours does not; the output includes the reasoning tokens,
// and so does ours (`reasoningTokens` is a part of it). A count that is not a
// non-negative integer, or a cached count above the input's, is a malformed
// answer. The paths an error names are built once, per wire.
import type { Usage } from "../../ports/usage.ts";
import { MalformedAnswer, objectAt, tokensAt } from "./_wire_shape.ts";

const P = "OpenAI";

/**
 * A reader of one OpenAI wire's usage, by the names of its input and output
 * counts. `strictReasoning`: a reasoning count above the output is malformed
 * (Responses); else it is left out, as some compatible servers count
 * reasoning beside the completion, not in it (Chat Completions).
 */
export function openAIUsageReader(
  input: string,
  output: string,
  strictReasoning: boolean,
): (u: unknown) => Usage {
  const inDetails = `${input}_details`;
  const outDetails = `${output}_details`;
  const paths = {
    input: `usage.${input}`,
    output: `usage.${output}`,
    inDetails: `usage.${inDetails}`,
    outDetails: `usage.${outDetails}`,
    cached: `usage.${inDetails}.cached_tokens`,
    reasoning: `usage.${outDetails}.reasoning_tokens`,
  };
  const detail = (details: unknown, path: string, name: string, count: string) =>
    details === undefined || details === null
      ? undefined
      : tokensAt(P, count, objectAt(P, path, details)[name]);
  return (u) => {
    if (u === undefined || u === null) return { inputTokens: 0, outputTokens: 0 };
    const usage = objectAt(P, "usage", u);
    const inTokens = tokensAt(P, paths.input, usage[input]) ?? 0;
    const outTokens = tokensAt(P, paths.output, usage[output]) ?? 0;
    const cached = detail(usage[inDetails], paths.inDetails, "cached_tokens", paths.cached);
    const reasoning = detail(
      usage[outDetails],
      paths.outDetails,
      "reasoning_tokens",
      paths.reasoning,
    );
    if (cached !== undefined && cached > inTokens) {
      throw new MalformedAnswer(
        P,
        `${paths.cached} (${cached}) must not exceed ${paths.input} (${inTokens})`,
        usage,
      );
    }
    if (strictReasoning && reasoning !== undefined && reasoning > outTokens) {
      throw new MalformedAnswer(
        P,
        `${paths.reasoning} (${reasoning}) must not exceed ${paths.output} (${outTokens})`,
        usage,
      );
    }
    const out: {
      inputTokens: number;
      outputTokens: number;
      cachedInputTokens?: number;
      reasoningTokens?: number;
    } = { inputTokens: inTokens - (cached ?? 0), outputTokens: outTokens };
    if (cached !== undefined) out.cachedInputTokens = cached;
    if (reasoning && reasoning <= outTokens) out.reasoningTokens = reasoning;
    return out;
  };
}
