/**
 * The guard that keeps tests from reaching a real model by accident.
 *
 * @module
 */
import { HarnessError } from "../harness_error.ts";

/**
 * A real provider port (`OpenAIChatLLM`, `AnthropicLLM`) was called under a
 * test context, which refuses real model requests: a test that reaches a
 * provider by accident costs money, needs the network and is not
 * deterministic. A harness error, so no catch in the runtime absorbs it.
 *
 * @example
 * ```ts
 * import { ModelRequestsDisallowed } from "@agentkit/testing/runtime";
 * import { assertMatch } from "@std/assert";
 *
 * const e = new ModelRequestsDisallowed("OpenAIChatLLM");
 * assertMatch(e.message, /makeTestCtx\({ allowModelRequests: true }\)/);
 * assertMatch(e.message, /AGENTKIT_ALLOW_MODEL_REQUESTS=1/);
 * ```
 */
export class ModelRequestsDisallowed extends HarnessError {
  /** The port that was refused (`"OpenAIChatLLM"`). */
  readonly port: string;

  /**
   * The message names the port and both ways to opt in; with `customFetch`,
   * it says why a fetch that wraps a FakeProvider's is not let through.
   *
   * @param port The port that was refused.
   * @param customFetch Whether the port was given a fetch of its own.
   */
  constructor(port: string, customFetch = false) {
    const fetchNote = customFetch
      ? ` Its fetch option is not a FakeProvider's own fetch: a function that wraps provider.fetch (to log, to count) cannot be told apart from one that reaches the network, so pass provider.fetch itself and read what was sent from provider.requests, which records every request.`
      : "";
    super(
      `Cannot send a real model request from a test: ${port} was called under a test context (makeTestCtx), which refuses real provider requests so that no test spends money or reaches the network by accident.${fetchNote} Script the model with FakeLLM, or serve a script with FakeProvider and pass its fetch to ${port}; to call the provider on purpose, opt in with makeTestCtx({ allowModelRequests: true }) or AGENTKIT_ALLOW_MODEL_REQUESTS=1`,
    );
    this.port = port;
  }
}
