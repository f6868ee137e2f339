/**
 * The grounder double.
 *
 * @module
 */
import type { Ctx } from "../../ports/context.ts";
import type { GrounderPort } from "../../ports/grounder.ts";
import { describe } from "../../runtime/internal.ts";

/**
 * What a {@linkcode FakeGrounder} supplies: facts, or a function of the task
 * (and context) that returns them.
 *
 * @example
 * ```ts
 * import type { Grounding } from "@agentkit/testing/testing";
 * const facts: Grounding = ["rotate certs every 90 days"];
 * const byTask: Grounding = (task) => task.includes("cert") ? ["rotate every 90d"] : [];
 * ```
 */
export type Grounding =
  | string
  | readonly string[]
  | ((task: string, ctx: Ctx) => string | readonly string[] | Promise<string | readonly string[]>);

/**
 * One grounding request, as recorded.
 *
 * @example
 * ```ts
 * import type { GrounderCall } from "@agentkit/testing/testing";
 * import { NullCtx } from "@agentkit/testing/runtime";
 * const call: GrounderCall = { ctx: new NullCtx(), task: "why?" };
 * ```
 */
export interface GrounderCall {
  /** The context it was asked in (its tenant, its spans). */
  readonly ctx: Ctx;
  /** The task. */
  readonly task: string;
}

/**
 * A grounder for `RequestBuilder` that supplies fixed facts (or computes them
 * from the task) and records each `(ctx, task)` it was asked for, so a test
 * can assert that grounding was requested, for which task and tenant.
 *
 * @example The facts reach the model
 * ```ts
 * import { Agent, RequestBuilder } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { FakeGrounder, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const grounder = new FakeGrounder(["certs rotate every 90 days"]);
 * const llm = new FakeLLM("Rotate it.");
 * const agent = new Agent("sre", { model: "fake-model", builder: new RequestBuilder({ grounder }) });
 * await agent.run("When do certs rotate?", makeTestCtx({ llm, scope: new Scope({ orgId: 7 }) }));
 * assertEquals(grounder.calls.map((c) => [c.task, c.ctx.scope.key()]), [["When do certs rotate?", "org7:dom0"]]);
 * assertEquals(llm.requests[0].messages[0].content, "Grounding:\n- certs rotate every 90 days");
 * ```
 */
export class FakeGrounder implements GrounderPort {
  /** Every `(ctx, task)` asked for, in order. */
  readonly calls: GrounderCall[] = [];
  readonly #grounding: Grounding;

  /**
   * A fact, an array of facts, or a function of the task; anything else throws.
   *
   * @param grounding The facts, or a function of the task that returns them.
   * @throws {TypeError} When `grounding` is not a string, a string array or a function.
   */
  constructor(grounding: Grounding = []) {
    const ok = typeof grounding === "string" || typeof grounding === "function" ||
      (Array.isArray(grounding) && grounding.every((f) => typeof f === "string"));
    if (!ok) {
      throw new TypeError(
        "Cannot build a FakeGrounder: pass a fact, an array of facts, or a function (task, ctx) => facts",
      );
    }
    this.#grounding = typeof grounding === "function" || typeof grounding === "string"
      ? grounding
      : [...grounding];
  }

  /**
   * Records the call and returns the facts.
   * @param ctx The run.
   * @param task The task.
   * @returns The facts: a string or an array of strings.
   * @throws {TypeError} When the grounding function returns anything else.
   */
  async ground(ctx: Ctx, task: string): Promise<string | readonly string[]> {
    this.calls.push({ ctx, task });
    const g = this.#grounding;
    if (typeof g !== "function") return g;
    const facts = await g(task, ctx);
    if (
      typeof facts === "string" ||
      (Array.isArray(facts) && facts.every((f) => typeof f === "string"))
    ) {
      return facts;
    }
    throw new TypeError(
      `FakeGrounder: the grounding function returned ${
        describe(facts)
      } for call ${this.calls.length}; return a fact (a string) or an array of facts`,
    );
  }
}
