/**
 * Errors the runtime throws. Harness errors (misuse of the kit) extend
 * {@linkcode HarnessError}; the rest are conditions a caller may handle.
 *
 * @module
 */
import { HarnessError } from "./harness_error.ts";
import { editDistance } from "./_edit_distance.ts";

/**
 * A budget limit was reached; the provider was not called.
 *
 * @example
 * ```ts
 * import { BudgetExceeded } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new BudgetExceeded("maxCalls", "3", "3");
 * assertEquals(e.name, "BudgetExceeded");
 * ```
 */
export class BudgetExceeded extends Error {
  /** Which limit: `"maxCostUsd"`, `"maxCalls"` or `"maxTokens"`. */
  readonly limit: string;
  /** The limit's value. */
  readonly max: string;
  /** What was used when the call was refused. */
  readonly used: string;

  /**
   * The message says which limit stopped the call and that the provider was not called.
   *
   * @param limit Which limit.
   * @param max The limit's value.
   * @param used What was used.
   * @param subject Whose budget (for the message).
   */
  constructor(limit: string, max: string, used: string, subject = "Budget") {
    super(
      `${subject} exceeded: ${limit} is ${max} and ${used} is already used, so the provider was not called; raise ${limit} or end the run earlier`,
    );
    this.name = "BudgetExceeded";
    this.limit = limit;
    this.max = max;
    this.used = used;
  }
}

/**
 * A run has a budget or meters but no `meter()` middleware would charge them.
 *
 * @example
 * ```ts
 * import { UnmeteredBudget } from "@agentkit/testing/runtime";
 * import { assertMatch } from "@std/assert";
 *
 * assertMatch(new UnmeteredBudget().message, /meter\(\)/);
 * ```
 */
export class UnmeteredBudget extends HarnessError {
  constructor() {
    super(
      "Cannot charge the budget: the context has a budget or meters but no meter() in chatMiddleware, so nothing would ever be charged; add meter() to chatMiddleware (makeTestCtx({ chatMiddleware: [meter()] }))",
    );
  }
}

/**
 * An agent ran on a context without an invoker.
 *
 * @example
 * ```ts
 * import { NoInvoker } from "@agentkit/testing/runtime";
 * import { assertMatch } from "@std/assert";
 *
 * assertMatch(new NoInvoker("analyst").message, /pass llm/);
 * ```
 */
export class NoInvoker extends HarnessError {
  /**
   * The message names the agent and the two ways to give it a model.
   *
   * @param agent The agent that tried to call a model.
   */
  constructor(agent: string) {
    super(
      `Cannot run agent "${agent}": the context has no invoker (no model to call); pass llm to makeTestCtx({ llm }) or an Invoker to new Services({ invoker })`,
    );
  }
}

/**
 * A middleware lacks what it needs (a store, a vector index) to do its job.
 *
 * @example
 * ```ts
 * import { MisconfiguredMiddleware } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new MisconfiguredMiddleware("memoize", "x").middleware, "memoize");
 * ```
 */
export class MisconfiguredMiddleware extends HarnessError {
  /** The middleware's name. */
  readonly middleware: string;
  /**
   * The message is the middleware's own account of what is missing.
   *
   * @param middleware The middleware's name.
   * @param message What is missing and how to pass it.
   */
  constructor(middleware: string, message: string) {
    super(message);
    this.middleware = middleware;
  }
}

/**
 * Tool arguments failed the tool's schema.
 *
 * @example
 * ```ts
 * import { ToolArgsInvalid } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new ToolArgsInvalid("lookup", "host: expected string").tool, "lookup");
 * ```
 */
export class ToolArgsInvalid extends Error {
  /** The tool's name. */
  readonly tool: string;
  /**
   * The message names the tool and what failed validation.
   *
   * @param tool The tool's name.
   * @param detail What failed validation.
   */
  constructor(tool: string, detail: string) {
    super(`Invalid arguments for tool "${tool}": ${detail}`);
    this.name = "ToolArgsInvalid";
    this.tool = tool;
  }
}

/**
 * The model called a tool nobody offered.
 *
 * @example
 * ```ts
 * import { UnknownTool } from "@agentkit/testing/runtime";
 * import { assertMatch } from "@std/assert";
 *
 * assertMatch(new UnknownTool("lookpu", ["lookup"]).message, /did you mean "lookup"/);
 * ```
 */
export class UnknownTool extends Error {
  /** The name the model asked for. */
  readonly tool: string;
  /**
   * The message lists the tools on offer and suggests the nearest name.
   *
   * @param tool The name the model asked for.
   * @param known The tools on offer.
   */
  constructor(tool: string, known: readonly string[]) {
    // A nameless call is near every short name: it gets no suggestion.
    const near = tool === ""
      ? undefined
      : known.find((k) => k.toLowerCase() === tool.toLowerCase()) ??
        known.find((k) => editDistance(k, tool) <= 2);
    const asked = tool === ""
      ? "The tool call names no tool (a malformed call)"
      : `Unknown tool "${tool}"`;
    super(
      `${asked}; the tools on offer are ${
        known.length ? known.map((k) => `"${k}"`).join(", ") : "none"
      }${near ? `; did you mean "${near}"?` : ""}`,
    );
    this.name = "UnknownTool";
    this.tool = tool;
  }
}

/**
 * A tool needed approval (`requiresApproval` under `autonomy: "manual"`, or
 * a `ToolPolicy`'s `approve` list) and the context has no asker.
 *
 * @example
 * ```ts
 * import { NoAsker } from "@agentkit/testing/runtime";
 * import { assertMatch } from "@std/assert";
 *
 * assertMatch(new NoAsker("deploy").message, /autonomy is "manual" but the context has no asker/);
 * assertMatch(new NoAsker("deploy", "a ToolPolicy lists it in approve").message, /ToolPolicy/);
 * ```
 */
export class NoAsker extends HarnessError {
  /**
   * The message names the tool, why it needed approval, and how to give the
   * context an asker.
   *
   * @param tool The tool that needed approval.
   * @param why Why it needed approval.
   */
  constructor(tool: string, why = 'autonomy is "manual"') {
    super(
      `Cannot ask for approval of tool "${tool}": ${why} but the context has no asker; pass makeTestCtx({ asker: new FakeAsker(["yes"]) }) or new Services({ asker })`,
    );
  }
}

/**
 * A tool call ran past its deadline.
 *
 * @example
 * ```ts
 * import { ToolTimeout } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new ToolTimeout("slow", 150).timeoutMs, 150);
 * ```
 */
export class ToolTimeout extends Error {
  /** The tool. */
  readonly tool: string;
  /** The deadline it missed. */
  readonly timeoutMs: number;
  /**
   * The message names the tool and the deadline it missed.
   *
   * @param tool The tool.
   * @param timeoutMs The deadline.
   */
  constructor(tool: string, timeoutMs: number) {
    super(`Tool "${tool}" did not finish within ${timeoutMs} ms and was cancelled`);
    this.name = "ToolTimeout";
    this.tool = tool;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A model has no price, and a meter needs the cost.
 *
 * @example
 * ```ts
 * import { UnpricedModel } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new UnpricedModel("gpt-x").model, "gpt-x");
 * ```
 */
export class UnpricedModel extends Error {
  /** The model without a price. */
  readonly model: string;
  /**
   * The message names the model and shows how to price it.
   *
   * @param model The model without a price.
   */
  constructor(model: string) {
    super(
      `Cannot charge a cost for model "${model}": it is not in the price table and the provider reported no costUsd; add it with new Services({ prices: PriceTable.default().with("${model}", { inputPerMTok, outputPerMTok }) }) or meter({ prices })`,
    );
    this.name = "UnpricedModel";
    this.model = model;
  }
}
