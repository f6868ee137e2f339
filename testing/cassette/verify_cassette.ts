/**
 * Drift: whether a cassette's recordings still say what the real API says.
 *
 * @module
 */
import type * as Fs from "node:fs";
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { LLMPort } from "../../ports/llm.ts";
import type { JsonSchema } from "../../ports/tool_spec.ts";
import { PriceTable } from "../../runtime/money/price_table.ts";
import { isHarnessError } from "../../runtime/harness_error.ts";
import {
  builtin,
  checkOptions,
  formatUnits,
  is,
  toUnits,
  underPolicy,
  zod,
} from "../../runtime/internal.ts";
import { type CassetteLine, faultOf, parseCassette } from "./_cassette_line.ts";
import { staleReason } from "./_provenance.ts";
import { cassetteKey } from "./cassette_key.ts";

/** Options for {@linkcode verifyCassette}. */
export interface VerifyCassetteOptions {
  /**
   * Makes the real port to re-send each recorded request to. Giving it is
   * the opt-in to real (billed) requests; without it only staleness is
   * checked, offline.
   */
  readonly upstream?: () => LLMPort;
  /**
   * The spending cap, in USD, required with `upstream`: once what the
   * re-sent requests cost reaches it, the rest are skipped (so a run spends
   * at most the cap plus one request).
   */
  readonly budgetUsd?: number | string;
  /**
   * Model prices, to cost each answer's usage (an answer that reports its own
   * `costUsd` is charged that).
   * @default {PriceTable.default()}
   */
  readonly prices?: PriceTable;
  /**
   * An entry recorded more than this many days ago (or undated) is stale.
   * @default {30}
   */
  readonly staleAfterDays?: number;
}

/** A field whose shape changed between the recording and the live answer. */
export interface ShapeDrift {
  /** `"added"` (live only), `"removed"` (recorded only) or `"retyped"`. */
  readonly kind: "added" | "removed" | "retyped";
  /** Where in the answer (`"toolCalls[0].args.city"`, `"usage.cachedInputTokens"`). */
  readonly path: string;
  /** The recorded type (`"string"`, `"object"`, ...), when there was one. */
  readonly recorded?: string;
  /** The live type, when there is one. */
  readonly live?: string;
}

/** A change in what the answer means. */
export interface SemanticDrift {
  /**
   * `"toolNames"` (other tools called), `"arguments"` (a live call's
   * arguments fail its tool's schema, or name no declared tool),
   * `"finishReason"`, or `"outcome"` (an answer where a failure was
   * recorded, or the other way).
   */
  readonly kind: "toolNames" | "arguments" | "finishReason" | "outcome";
  /** What the recording says. */
  readonly recorded: unknown;
  /** What the real API said now. */
  readonly live: unknown;
  /** One sentence. */
  readonly message: string;
}

/** One entry's verdict. */
export interface CassetteEntryDrift {
  /** Its file line. */
  readonly line: number;
  /** Its content key. */
  readonly key: string;
  /** Why it is stale, or `undefined`. */
  readonly stale: string | undefined;
  /** Whether its request was re-sent. */
  readonly checked: boolean;
  /** Why it was not re-sent (`"no upstream"`, `"budget"`). */
  readonly skipped?: string;
  /** Shape drift (empty when not checked). */
  readonly shape: readonly ShapeDrift[];
  /** Semantic drift (empty when not checked). */
  readonly semantic: readonly SemanticDrift[];
  /** What re-sending it cost, as a 6-decimal USD string. */
  readonly costUsd?: string;
}

/** What {@linkcode verifyCassette} found. */
export interface CassetteVerification {
  /** The cassette file. */
  readonly path: string;
  /** One verdict per entry, in file order. */
  readonly entries: readonly CassetteEntryDrift[];
  /** What the re-sent requests cost, as a 6-decimal USD string. */
  readonly spentUsd: string;
  /** Whether no entry is stale or drifted (skipped entries count as unknown, not drifted). */
  readonly ok: boolean;
}

const RULES = {
  upstream: is.function,
  budgetUsd: is.money,
  prices: is.instance(PriceTable),
  staleAfterDays: is.number({ min: 0 }),
};
const ALLOWING = { allowModelRequests: true } as const;

/**
 * Checks a cassette for drift. Offline (no `upstream`), it reports each
 * entry's staleness (older than `staleAfterDays`, or undated). With
 * `upstream` and `budgetUsd` (both required: the opt-in to real requests
 * and its cap), it re-sends each recorded request to the real port and
 * reports, per entry, shape drift (answer fields added, removed or
 * retyped) and semantic drift (other tool names, live tool arguments that
 * fail the request's tool schema, another finish reason, an answer where a
 * failure was recorded); it stops re-sending once the cap is spent. It
 * never writes the cassette: refresh a drifted entry with
 * `AGENTKIT_CASSETTE=newEpisodes` and `staleAfterDays`, or re-record.
 *
 * @param path The cassette file.
 * @param options `upstream`, `budgetUsd`, `prices`, `staleAfterDays`.
 * @returns The verdicts.
 * @throws {TypeError} On a bad option, or `upstream` without `budgetUsd`.
 * @throws {InvalidScript} When the cassette has a malformed line.
 *
 * @example Offline: which entries are stale
 * ```ts
 * import { verifyCassette } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, JSON.stringify({
 *   request: { model: "m", messages: [{ role: "user", content: "hi" }] },
 *   turn: "hello",
 * }) + "\n");
 * const report = await verifyCassette(path);
 * assertEquals(report.ok, false);
 * assertEquals(report.entries[0].checked, false);
 * assertEquals(report.entries[0].stale?.includes("no recorded date"), true);
 * await Deno.remove(path);
 * ```
 *
 * @example Against the real API (here a FakeLLM standing in), with a cap
 * ```ts
 * import { PriceTable } from "@agentkit/testing/runtime";
 * import { cassette, FakeLLM, verifyCassette } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const path = `${await Deno.makeTempDir()}/c.jsonl`;
 * {
 *   await using rec = cassette(path, { upstream: () => new FakeLLM("It rains.") });
 *   await rec.chat({ model: "m", messages: [{ role: "user", content: "Weather?" }] });
 * }
 * const report = await verifyCassette(path, {
 *   upstream: () => new FakeLLM("It is sunny."),
 *   budgetUsd: "0.50",
 *   prices: new PriceTable({ m: { inputPerMTok: 1, outputPerMTok: 2 } }),
 * });
 * assertEquals(report.ok, true); // other words, the same shape and meaning
 * assertEquals(report.entries[0].checked, true);
 * ```
 */
export async function verifyCassette(
  path: string | URL,
  options: VerifyCassetteOptions = {},
): Promise<CassetteVerification> {
  checkOptions("verifyCassette()", options, RULES);
  if (options.upstream && options.budgetUsd === undefined) {
    throw new TypeError(
      "verifyCassette() re-sends recorded requests to a real, billed API only with a spending cap: pass budgetUsd with upstream (verifyCassette(path, { upstream, budgetUsd: 0.5 }))",
    );
  }
  const file = path instanceof URL ? path : String(path);
  const text = builtin<typeof Fs>("node:fs", "verifyCassette()").readFileSync(file, "utf8");
  const { lines } = parseCassette(text, String(path));
  const days = options.staleAfterDays ?? 30;
  const prices = options.prices ?? PriceTable.default();
  const cap = options.budgetUsd === undefined ? undefined : toUnits(options.budgetUsd, "budgetUsd");
  let port: LLMPort | undefined;
  let spent = 0n;
  const entries: CassetteEntryDrift[] = [];
  const now = Date.now();
  for (const line of lines) {
    const base = {
      line: line.lineNumber,
      key: cassetteKey(line.request),
      stale: staleReason(line.provenance, days, now),
    };
    if (!options.upstream) {
      entries.push({ ...base, checked: false, skipped: "no upstream", shape: [], semantic: [] });
      continue;
    }
    if (cap !== undefined && spent >= cap) {
      entries.push({ ...base, checked: false, skipped: "budget", shape: [], semantic: [] });
      continue;
    }
    port ??= options.upstream();
    const live = await resend(port, line);
    const cost = live.response ? costOf(prices, line.request.model, live.response) : 0n;
    spent += cost;
    entries.push({
      ...base,
      checked: true,
      ...compare(line, live),
      costUsd: formatUnits(cost),
    });
  }
  return {
    path: String(path),
    entries,
    spentUsd: formatUnits(spent),
    ok: entries.every((e) =>
      e.stale === undefined && e.shape.length === 0 && e.semantic.length === 0
    ),
  };
}

interface Live {
  readonly response?: ChatResponse;
  readonly error?: unknown;
}

async function resend(port: LLMPort, line: CassetteLine): Promise<Live> {
  const request = { ...line.request } as unknown as ChatRequest;
  try {
    // The caller opted in by giving upstream (and a cap): the guard allows it.
    return { response: await underPolicy(ALLOWING, () => port.chat(request)) };
  } catch (error) {
    if (isHarnessError(error)) throw error;
    return { error };
  }
}

function costOf(prices: PriceTable, model: string, response: ChatResponse): bigint {
  const usage = response.usage;
  if (usage.costUsd !== undefined) return toUnits(usage.costUsd, "costUsd");
  const units = prices.costUnits(response.model ?? model, usage) ??
    prices.costUnits(model, usage);
  if (units === undefined) {
    throw new TypeError(
      `verifyCassette() cannot keep the budget: model "${
        response.model ?? model
      }" is not in the price table and the answer reported no costUsd; pass prices: PriceTable.default().with("${model}", { inputPerMTok, outputPerMTok })`,
    );
  }
  return units;
}

// The recorded answer and the live one as the same view: what a caller reads.
function recordedView(line: CassetteLine): Record<string, unknown> {
  const t = line.turn;
  const content = t.content ?? t.chunks?.join("") ?? "";
  const view: Record<string, unknown> = {};
  if (content) view.content = content;
  if (t.refusal !== undefined) view.refusal = t.refusal;
  if (t.reasoning !== undefined) view.reasoning = t.reasoning;
  if (t.toolCalls?.length) {
    view.toolCalls = t.toolCalls.map((c) => ({ name: c.name, args: c.args }));
  }
  if (t.usage) view.usage = t.usage;
  view.finishReason = t.finishReason ??
    (t.refusal !== undefined ? "content_filter" : t.toolCalls?.length ? "tool_calls" : "stop");
  return view;
}

function liveView(r: ChatResponse): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  if (r.refusal) view.refusal = r.content;
  else if (r.content) view.content = r.content;
  if (r.reasoning !== undefined) view.reasoning = r.reasoning;
  if (r.toolCalls.length) view.toolCalls = r.toolCalls.map((c) => ({ name: c.name, args: c.args }));
  view.usage = r.usage;
  view.finishReason = r.finishReason;
  return view;
}

function compare(
  line: CassetteLine,
  live: Live,
): { shape: ShapeDrift[]; semantic: SemanticDrift[] } {
  const shape: ShapeDrift[] = [];
  const semantic: SemanticDrift[] = [];
  const recordedFault = line.fault?.class ?? (line.turn.error !== undefined ? "error" : undefined);
  if (!live.response) {
    const liveFault = faultOf(live.error, "pre_stream")?.class ??
      (live.error as Error)?.name ?? "error";
    if (recordedFault === undefined || recordedFault !== liveFault) {
      semantic.push({
        kind: "outcome",
        recorded: recordedFault ?? "answer",
        live: liveFault,
        message: `the recording ${
          recordedFault ? `failed with ${recordedFault}` : "answered"
        }; the API now fails with ${liveFault}: ${(live.error as Error)?.message ?? live.error}`,
      });
    }
    return { shape, semantic };
  }
  if (recordedFault !== undefined) {
    semantic.push({
      kind: "outcome",
      recorded: recordedFault,
      live: "answer",
      message: `the recording failed with ${recordedFault}; the API now answers`,
    });
    return { shape, semantic };
  }
  const recorded = recordedView(line);
  const now = liveView(live.response);
  shapeDiff(recorded, now, "", shape);
  const names = (v: Record<string, unknown>) =>
    ((v.toolCalls ?? []) as { name: string }[]).map((c) => c.name);
  if (JSON.stringify(names(recorded)) !== JSON.stringify(names(now))) {
    semantic.push({
      kind: "toolNames",
      recorded: names(recorded),
      live: names(now),
      message: `the recording called ${show(names(recorded))}; the API now calls ${
        show(names(now))
      }`,
    });
  }
  for (const call of live.response.toolCalls) {
    const problem = argumentProblem(line, call.name, call.args);
    if (problem) {
      semantic.push({ kind: "arguments", recorded: undefined, live: call, message: problem });
    }
  }
  if (recorded.finishReason !== now.finishReason) {
    semantic.push({
      kind: "finishReason",
      recorded: recorded.finishReason,
      live: now.finishReason,
      message:
        `the recording finished with "${recorded.finishReason}"; the API now finishes with "${now.finishReason}"`,
    });
  }
  return { shape, semantic };
}

function argumentProblem(line: CassetteLine, name: string, args: unknown): string | undefined {
  const tool = (line.request.tools ?? []).find((t) => (t as { name?: unknown }).name === name) as
    | { parameters?: JsonSchema }
    | undefined;
  if (!tool) {
    return `the API now calls "${name}", which the request does not declare`;
  }
  if (!tool.parameters) return undefined;
  let schema;
  try {
    schema = zod().fromJSONSchema(tool.parameters as never);
  } catch {
    return undefined;
  }
  const result = schema.safeParse(args);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return `the API now calls "${name}" with arguments its schema refuses: ${
    issue.path.length ? `${issue.path.join(".")}: ` : ""
  }${issue.message}`;
}

function typeOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

// Field by field, types only: values may change freely, shapes may not.
function shapeDiff(recorded: unknown, live: unknown, path: string, out: ShapeDrift[]): void {
  const r = typeOf(recorded);
  const l = typeOf(live);
  if (r !== l) {
    out.push({ kind: "retyped", path, recorded: r, live: l });
    return;
  }
  if (r === "array") {
    const ra = recorded as unknown[];
    const la = live as unknown[];
    for (let i = 0; i < Math.min(ra.length, la.length); i++) {
      shapeDiff(ra[i], la[i], `${path}[${i}]`, out);
    }
    return;
  }
  if (r !== "object") return;
  const ro = recorded as Record<string, unknown>;
  const lo = live as Record<string, unknown>;
  for (const k of Object.keys(ro)) {
    const p = path ? `${path}.${k}` : k;
    if (lo[k] === undefined) {
      if (ro[k] !== undefined) out.push({ kind: "removed", path: p, recorded: typeOf(ro[k]) });
    } else if (ro[k] !== undefined) shapeDiff(ro[k], lo[k], p, out);
  }
  for (const k of Object.keys(lo)) {
    if (lo[k] !== undefined && ro[k] === undefined) {
      out.push({ kind: "added", path: path ? `${path}.${k}` : k, live: typeOf(lo[k]) });
    }
  }
}

function show(names: readonly string[]): string {
  return names.length ? names.map((n) => `"${n}"`).join(", ") : "no tool";
}
