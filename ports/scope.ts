/**
 * The tenant a run belongs to. Every durable key is partitioned by it.
 *
 * @module
 */

/** Options for {@linkcode Scope}. */
export interface ScopeOptions {
  /**
   * The organisation.
   * @default {0}
   */
  readonly orgId?: number;
  /**
   * The domain inside the organisation.
   * @default {0}
   */
  readonly domainId?: number;
}

/**
 * A tenant. `new Scope()` is tenant zero.
 *
 * @example
 * ```ts
 * import { Scope } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new Scope({ orgId: 7, domainId: 2 }).key(), "org7:dom2");
 * assertEquals(new Scope().key(), "org0:dom0");
 * ```
 */
export class Scope {
  /** The organisation. */
  readonly orgId: number;
  /** The domain. */
  readonly domainId: number;
  #key?: string;

  /**
   * Ids default to 0; an id that is not a non-negative integer throws.
   *
   * @param options The tenant's ids.
   */
  constructor(options: ScopeOptions = {}) {
    const { orgId = 0, domainId = 0 } = options;
    checkId("orgId", orgId);
    checkId("domainId", domainId);
    this.orgId = orgId;
    this.domainId = domainId;
  }

  /**
   * The partition key, `"org7:dom2"`.
   * @returns The key.
   */
  key(): string {
    // Made on first use: most contexts never ask for it.
    return this.#key ??= `org${this.orgId}:dom${this.domainId}`;
  }
}

function checkId(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) {
    throw new RangeError(
      `Cannot build a Scope: ${name} must be a non-negative integer, got ${JSON.stringify(v)}`,
    );
  }
}
