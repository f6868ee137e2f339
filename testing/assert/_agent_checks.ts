// The checks behind agentMatchers (Vitest/Jest) and the assert* functions
// (Deno): each returns whether it passed and a message for either reading
// (`expect(x).toHave...` and `expect(x).not.toHave...`), so the two faces
// say the same thing.
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { AgentResult } from "../../runtime/cognition/cognition.ts";
import { Run } from "../../runtime/run.ts";
import { FakeLLM } from "../llm/fake_llm.ts";
import { FakeTool } from "../tools/fake_tool.ts";
import { ScriptedProvider } from "../tools/scripted_provider.ts";
import { type Transcribable, transcript } from "./transcript.ts";
import { Normalizer } from "./_transcript_text.ts";

/** One check's outcome; `message(negated)` explains a failure either way round. */
export interface Check {
  readonly pass: boolean;
  readonly message: (negated: boolean) => string;
}

/** Deep equality that honours asymmetric matchers such as `expect.objectContaining`. */
export type Equals = (actual: unknown, expected: unknown) => boolean;

const STOP_REASONS = ["stop", "max_iterations", "length", "halted", "error"];

// Appended to every failure: what happened, as the reader would snapshot it.
function shown(subject: unknown): string {
  try {
    return `\n\nTranscript:\n${indent(transcript(subject as Transcribable))}`;
  } catch {
    return "";
  }
}

function indent(text: string): string {
  return text.split("\n").map((l) => `  ${l}`).join("\n");
}

/** A settled subject: a run becomes its result, or the text of its failure. */
async function settle(subject: Run): Promise<{ result: AgentResult } | { failure: string }> {
  try {
    return { result: await subject.result };
  } catch {
    return { failure: await transcript(subject) };
  }
}

/**
 * `check` of the subject; of a `Run`, once it settles, on its result (a run
 * that failed fails the check, showing what it streamed and its error).
 */
export function checkSettled(
  subject: unknown,
  check: (settled: unknown) => Check,
): Check | Promise<Check> {
  if (!(subject instanceof Run)) return check(subject);
  return settle(subject).then((s) => "result" in s ? check(s.result) : failedRun(s.failure));
}

/** Where a subject keeps the tool calls it made or saw, in the order made. */
export function toolCallsOf(subject: unknown, fn: string): { name: string; args: unknown }[] {
  if (subject instanceof FakeTool) {
    return subject.calls.map((args) => ({ name: subject.name, args }));
  }
  if (subject instanceof ScriptedProvider) {
    return subject.recordedCalls.map((c) => ({ name: c.name, args: c.args ?? c.rawArgs }));
  }
  if (subject instanceof FakeLLM) {
    const seen = new Map<string, ToolCall>();
    for (const r of subject.requests) {
      for (const call of callsIn(r.messages)) seen.set(call.id, call);
    }
    return [...seen.values()];
  }
  if (Array.isArray(subject)) {
    const first = subject[0];
    if (first && typeof first === "object" && "event" in first) {
      return eventCalls(subject.map((c: { event: StreamEvent }) => c.event));
    }
    if (first && typeof first === "object" && "type" in first) return eventCalls(subject);
    if (first && typeof first === "object" && "batch" in first) {
      return subject.map((c) => ({ name: c.name, args: c.args ?? c.rawArgs }));
    }
    return callsIn(subject as Message[]);
  }
  if (subject && typeof subject === "object" && Array.isArray((subject as AgentResult).messages)) {
    return callsIn((subject as AgentResult).messages);
  }
  throw new TypeError(
    `${fn} needs an AgentResult, a Run, messages, a run's events, a FakeLLM, a FakeTool or a ScriptedProvider; got ${
      kind(subject)
    }`,
  );
}

function callsIn(messages: readonly Message[]): ToolCall[] {
  return messages.flatMap((m) => m.toolCalls ?? []);
}

function eventCalls(events: readonly StreamEvent[]): { name: string; args: unknown }[] {
  return events.flatMap((e) => e.type === "tool_call" ? [e.call] : []);
}

/** `name` was called (with `args`, when given, compared by `equals`). */
export function calledTool(
  subject: unknown,
  name: string,
  args: unknown,
  withArgs: boolean,
  equals: Equals,
  fn: string,
): Check {
  if (typeof name !== "string" || !name) {
    throw new TypeError(`${fn} needs a tool name, got ${JSON.stringify(name)}`);
  }
  const calls = toolCallsOf(subject, fn);
  const named = calls.filter((c) => c.name === name);
  const pass = withArgs ? named.some((c) => equals(c.args, args)) : named.length > 0;
  const n = new Normalizer();
  const wanted = withArgs ? `${name} with ${n.json(args)}` : name;
  return {
    pass,
    message: (negated) => {
      const made = calls.length
        ? calls.map((c) => `  ${c.name} ${n.json(c.args)}`).join("\n")
        : "  (none)";
      return negated
        ? `Expected no call to ${wanted}, but it was called.\nCalls made:\n${made}${shown(subject)}`
        : `Expected a call to ${wanted}, but ${
          named.length ? `${name} was called with other arguments` : `${name} was never called`
        }.\nCalls made:\n${made}${shown(subject)}`;
    },
  };
}

/** The result ended for `reason`. */
export function stopReason(subject: unknown, reason: string, fn: string): Check {
  if (!STOP_REASONS.includes(reason)) {
    throw new TypeError(
      `${fn} needs one of ${STOP_REASONS.map((r) => `"${r}"`).join(", ")}; got ${
        JSON.stringify(reason)
      }`,
    );
  }
  if (!subject || typeof subject !== "object" || !("stopReason" in subject)) {
    throw new TypeError(`${fn} needs an AgentResult or a Run; got ${kind(subject)}`);
  }
  const actual = (subject as AgentResult).stopReason;
  return {
    pass: actual === reason,
    message: (negated) =>
      negated
        ? `Expected the run not to stop for "${reason}", but it did.${shown(subject)}`
        : `Expected the run to stop for "${reason}", but it stopped for "${actual}".${
          shown(subject)
        }`,
  };
}

/** A budget (anything with `spent()`) has spent exactly `amount` USD. */
export function spent(subject: unknown, amount: string | number, fn: string): Check {
  const spentFn = (subject as { spent?: unknown } | null)?.spent;
  if (typeof spentFn !== "function") {
    throw new TypeError(`${fn} needs a Budget (anything with spent()); got ${kind(subject)}`);
  }
  const want = usd(amount, fn);
  const actual = String(spentFn.call(subject));
  const calls = (subject as { calls?: unknown }).calls;
  const tokens = (subject as { tokens?: unknown }).tokens;
  const detail = [
    typeof calls === "number" ? `${calls} call(s)` : "",
    typeof tokens === "number" ? `${tokens} token(s)` : "",
  ].filter(Boolean).join(", ");
  return {
    pass: usd(actual, fn) === want,
    message: (negated) =>
      negated
        ? `Expected the budget not to have spent $${want}, but it has.`
        : `Expected the budget to have spent $${want}, but it spent $${actual}${
          detail ? ` over ${detail}` : ""
        }.`,
  };
}

// An amount as a fixed 6-decimal string, exactly: "0.0001" and 0.0001 are "0.000100".
function usd(amount: string | number, fn: string): string {
  let text: string;
  if (typeof amount === "number") {
    if (!Number.isFinite(amount) || amount < 0) {
      throw new RangeError(`${fn} needs a non-negative amount, got ${amount}`);
    }
    text = amount.toFixed(6);
  } else if (typeof amount === "string") text = amount.trim().replace(/^\$/, "");
  else throw new TypeError(`${fn} needs an amount as a string or number, got ${kind(amount)}`);
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) {
    throw new TypeError(
      `${fn} needs a decimal amount such as "0.000100", got ${JSON.stringify(amount)}`,
    );
  }
  const decimals = (m[2] ?? "").replace(/0+$/, "");
  if (decimals.length > 6) return `${BigInt(m[1])}.${decimals}`; // never equal to a budget
  return `${BigInt(m[1])}.${decimals.padEnd(6, "0")}`;
}

/** A scripted double used every turn it was given. */
export function usedAllTurns(subject: unknown, fn: string): Check {
  const s = subject as { unusedTurns?: unknown; unusedAnswers?: unknown } | null;
  const unused = typeof s?.unusedTurns === "number"
    ? s.unusedTurns
    : typeof s?.unusedAnswers === "number"
    ? s.unusedAnswers
    : undefined;
  if (unused === undefined) {
    throw new TypeError(
      `${fn} needs a scripted double (FakeLLM.script, FakeClaudeCli, FakeCodexCli, FakeAsker); got ${
        kind(subject)
      }`,
    );
  }
  const name = subject?.constructor?.name ?? "the double";
  return {
    pass: unused === 0,
    message: (negated) =>
      negated
        ? `Expected ${name} to have turns left, but every scripted turn was used.${shown(subject)}`
        : `Expected ${name} to have used every scripted turn, but ${unused} were never used: the run ended earlier than the script.${
          shown(subject)
        }`,
  };
}

/** The transcript contains `text`. */
export function transcriptContaining(text: string, rendered: string): Check {
  return {
    pass: rendered.includes(text),
    message: (negated) =>
      `Expected the transcript ${negated ? "not " : ""}to contain ${JSON.stringify(text)}.\n\n` +
      `Transcript:\n${indent(rendered)}`,
  };
}

/** Renders a subject for `transcriptContaining`, naming the caller on misuse. */
export function render(subject: unknown, text: unknown, fn: string): string {
  if (typeof text !== "string") {
    throw new TypeError(`${fn} needs the text to look for, got ${kind(text)}`);
  }
  try {
    return transcript(subject as Transcribable);
  } catch (error) {
    if (error instanceof TypeError) throw new TypeError(`${fn}: ${error.message}`);
    throw error;
  }
}

/** The failure of a run a check wanted a result from. */
function failedRun(failure: string): Check {
  return {
    pass: false,
    message: () => `Expected a finished run, but it failed.\n\nTranscript:\n${indent(failure)}`,
  };
}

/** Deep equality for the Deno assertions, with asymmetric matchers honoured. */
export function equal(actual: unknown, expected: unknown): boolean {
  if (
    expected !== null && typeof expected === "object" &&
    typeof (expected as { asymmetricMatch?: unknown }).asymmetricMatch === "function"
  ) {
    return (expected as { asymmetricMatch(v: unknown): boolean }).asymmetricMatch(actual);
  }
  if (Object.is(actual, expected)) return true;
  if (
    actual === null || expected === null || typeof actual !== "object" ||
    typeof expected !== "object"
  ) return false;
  if (Array.isArray(actual) !== Array.isArray(expected)) return false;
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const keys = Object.keys(e).filter((k) => e[k] !== undefined);
  if (Object.keys(a).filter((k) => a[k] !== undefined).length !== keys.length) return false;
  return keys.every((k) => equal(a[k], e[k]));
}

function kind(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  if (typeof x === "object") return `an object (${x.constructor?.name ?? "no prototype"})`;
  return typeof x;
}
