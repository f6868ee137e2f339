/**
 * Port contracts: suites of cases any adapter of a port must pass.
 *
 * @module
 */

/**
 * One case of a port contract: a name and a self-contained check that
 * builds its own adapter. Register each with your test runner:
 * `Deno.test(c.name, c.fn)`, `t.step(c.name, c.fn)`, or Node's `test(c.name, c.fn)`.
 *
 * @example Run a contract as steps of one test
 * ```ts
 * import { InMemoryStore } from "@agentkit/testing/runtime";
 * import { type ContractCase, kvStoreContract } from "@agentkit/testing/testing";
 * import { assert } from "@std/assert";
 *
 * const cases: ContractCase[] = kvStoreContract(() => new InMemoryStore());
 * assert(cases.length > 0);
 * for (const c of cases) await c.fn();
 * ```
 */
export interface ContractCase {
  /** What the case checks, as a sentence. */
  readonly name: string;
  /** Runs the check; rejects with a {@linkcode ContractViolation} when the adapter fails it. */
  readonly fn: () => Promise<void>;
}

/**
 * An adapter broke its port's contract. The message names the contract, the
 * case and what was expected.
 *
 * @example
 * ```ts
 * import { ContractViolation } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new ContractViolation("KVStore", "get() of a missing key resolves undefined", 'got "x"');
 * assertEquals(e.message, 'KVStore contract, case "get() of a missing key resolves undefined": got "x"');
 * ```
 */
export class ContractViolation extends Error {
  /** The port whose contract was broken (`"KVStore"`). */
  readonly contract: string;
  /** The case that failed. */
  readonly case: string;

  /**
   * The message names the port's contract and the case that failed.
   *
   * @param contract The port.
   * @param caseName The case.
   * @param detail What went wrong.
   */
  constructor(contract: string, caseName: string, detail: string) {
    super(`${contract} contract, case "${caseName}": ${detail}`);
    this.name = "ContractViolation";
    this.contract = contract;
    this.case = caseName;
  }
}
