/**
 * The strict wire: the requests each provider API rejects, as a catalogue
 * (`WIRE_RULES`) that `FakeProvider` checks every request against.
 *
 * @module
 */
import { CATALOGUE } from "./_strict.ts";
import type { ProviderApi } from "./_wire.ts";

/**
 * One rule of the strict wire. An id used by several APIs (`tool-name-pattern`)
 * is one entry: `api` lists them, and the description and source say, API by
 * API, what each rejects and where that is written down.
 *
 * @example
 * ```ts
 * import { WIRE_RULES, type WireRule } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const rule: WireRule = WIRE_RULES["tool-message-without-call"];
 * assertEquals(rule.api, ["chat.completions"]);
 * ```
 */
export interface WireRule {
  /** The APIs the rule holds for. */
  readonly api: readonly ProviderApi[];
  /** What the rule rejects. */
  readonly description: string;
  /**
   * Where it comes from: the provider's documentation, its official SDK or
   * API spec, or its real error as publicly reported (quoted, with where).
   */
  readonly source: string;
}

/**
 * A request the strict wire refused, as `provider.rejections` records it.
 *
 * @example
 * ```ts
 * import type { FakeProviderRejection } from "@agentkit/testing/testing";
 * const r: FakeProviderRejection = {
 *   rule: "messages-empty", api: "chat.completions", path: "messages", message: "…",
 * };
 * ```
 */
export interface FakeProviderRejection {
  /** The rule's id (a key of `WIRE_RULES`). */
  readonly rule: string;
  /** The API the request spoke. */
  readonly api: ProviderApi;
  /** The offending field: `messages[3].tool_call_id`. */
  readonly path: string;
  /** The message the error body carried. */
  readonly message: string;
}

/**
 * The catalogue of the strict wire: rule id → `{ api, description, source }`,
 * sorted by id. Every rule is on in a `new FakeProvider({ llm })`; turn some
 * off with `strict: { except: [id] }`, or all with `strict: false`.
 *
 * @example Every rule names where it comes from
 * ```ts
 * import { WIRE_RULES } from "@agentkit/testing/testing";
 * import { assert, assertEquals } from "@std/assert";
 *
 * assertEquals(WIRE_RULES["tool-name-pattern"].api, [
 *   "chat.completions",
 *   "responses",
 *   "messages",
 *   "generateContent",
 * ]);
 * for (const rule of Object.values(WIRE_RULES)) assert(rule.source.length > 0);
 * ```
 */
export const WIRE_RULES: Readonly<Record<string, WireRule>> = CATALOGUE;

/**
 * How `new FakeProvider({ strict })` is given: on (`true`, the default), off
 * (`false`), or on but for the rules named in `except` (ids of `WIRE_RULES`).
 *
 * @example
 * ```ts
 * import { FakeLLM, FakeProvider, type FakeProviderStrict } from "@agentkit/testing/testing";
 *
 * const strict: FakeProviderStrict = { except: ["tool-name-pattern"] };
 * const provider = new FakeProvider({ llm: new FakeLLM("ok"), strict });
 * ```
 */
export type FakeProviderStrict = boolean | { readonly except: readonly string[] };
