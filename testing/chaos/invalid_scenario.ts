/**
 * A chaos scenario that cannot be tested as written.
 *
 * @module
 */
import { HarnessError } from "../../runtime/harness_error.ts";

/**
 * The scenario handed to `chaos()` does not let it test anything: it never
 * calls the world's model, or it returns before the agent's run is over
 * (it does not return or await the run). Raised on the first run that
 * shows it, without shrinking.
 *
 * @example
 * ```ts
 * import { chaos, InvalidScenario } from "@agentkit/testing/testing";
 * import { assertRejects } from "@std/assert";
 *
 * await assertRejects(
 *   () => chaos(() => "no agent here", { script: ["hi"] }),
 *   InvalidScenario,
 *   "never called the model",
 * );
 * ```
 */
export class InvalidScenario extends HarnessError {}
