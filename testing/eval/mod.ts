/**
 * The evaluation harness: `AgentTest` starts an agent module, talks to it in
 * a session and compares its answers with the expected ones, offline
 * (`quasiExact`, Levenshtein) or with an `LLMJudge`; `serveAgent` and
 * `ApiTestClient` do the same over HTTP on loopback.
 *
 * @example Compare an answer offline
 * ```ts
 * import { AgentTest } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const result = await AgentTest.compare("Paris.", ["paris"], { returnMetrics: true });
 * assertEquals(result.passed, true);
 * ```
 *
 * @module
 */
export * from "./evaluation_result.ts";
export * from "./evaluator.ts";
export * from "./llm_judge.ts";
export * from "./quasi_exact_evaluator.ts";
export * from "./levenshtein_evaluator.ts";
export * from "./test_config.ts";
export * from "./agent_test_harness.ts";
export * from "./serve_agent.ts";
export * from "./api_test_client.ts";
export * from "./trial_report.ts";
export * from "./trials.ts";
export {
  type BaselineComparison,
  type BaselineLabel,
  type CaseComparison,
  readBaseline,
  writeBaseline,
} from "./baseline.ts";
export * from "./evaluate.ts";
