/**
 * Assertions about agent runs for Deno's test runner (or any runner without
 * `expect.extend`), throwing this package's {@linkcode AssertionError}.
 *
 * @module
 */
import { Run } from "../../runtime/run.ts";
import type { StopReason } from "../../runtime/cognition/cognition.ts";
import {
  calledTool,
  type Check,
  checkSettled,
  equal,
  render,
  spent,
  stopReason,
  transcriptContaining,
  usedAllTurns,
} from "./_agent_checks.ts";
import { AssertionError } from "./assertion_error.ts";
import { type Transcribable, transcript } from "./transcript.ts";

/**
 * What an assertion returns for subject `S`: a promise for a `Run` (await
 * it), nothing for the rest.
 */
export type SettledOf<S> = S extends Run ? Promise<void> : void;

function enforce(check: Check): void {
  if (!check.pass) throw new AssertionError(check.message(false));
}

// A check now, or (of a Run) once it settles.
function enforced<S>(check: Check | Promise<Check>): SettledOf<S> {
  return (check instanceof Promise ? check.then(enforce) : enforce(check)) as SettledOf<S>;
}

/**
 * Asserts that a tool was called by name, and with `args` when given (deep
 * equality; an asymmetric matcher such as `expect.objectContaining` from
 * `@std/expect` works too). Works on an `AgentResult`, messages, a run's
 * events, a `FakeLLM` (what its requests carried), a `FakeTool` or a
 * `ScriptedProvider`; a `Run` is awaited (the function then returns a promise).
 *
 * @param subject Where to look.
 * @param name The tool's name.
 * @param args The exact arguments, when they matter.
 * @throws {AssertionError} When no such call was made; the message lists the
 * calls made and shows the transcript.
 *
 * @example
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { assertCalledTool, AssertionError, FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * const tool = new FakeTool({ name: "lookup_cert", responder: "expired" });
 * const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "lookup_cert", { host: "a.com" })] }, "Expired."]);
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) });
 * const result = await agent.run("why?", makeTestCtx({ llm }));
 *
 * assertCalledTool(result, "lookup_cert");
 * assertCalledTool(result, "lookup_cert", { host: "a.com" });
 * assertCalledTool(tool, "lookup_cert", { host: "a.com" });
 * assertThrows(() => assertCalledTool(result, "lookup_cert", { host: "b.com" }), AssertionError, "called with other arguments");
 * ```
 */
export function assertCalledTool<S extends Transcribable | Run>(
  subject: S,
  name: string,
  args?: unknown,
): SettledOf<S> {
  const withArgs = arguments.length > 2;
  return enforced(
    checkSettled(subject, (x) => calledTool(x, name, args, withArgs, equal, "assertCalledTool")),
  );
}

/**
 * Asserts why a run ended; a `Run` is awaited (a failed run fails the
 * assertion, showing what it streamed and its error).
 *
 * @param subject The result or run.
 * @param reason The expected stop reason.
 * @throws {AssertionError} When it ended otherwise; the message shows the transcript.
 * @throws {TypeError} When `reason` is not a stop reason.
 *
 * @example
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { AssertionError, assertStopReason, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertRejects } from "@std/assert";
 *
 * const llm = FakeLLM.script([{ content: "I will start by", finishReason: "length" }]);
 * const run = new Agent("a", { model: "fake-model" }).start("go", makeTestCtx({ llm }));
 * await assertStopReason(run, "length");
 * await assertRejects(() => assertStopReason(run, "stop"), AssertionError, 'stopped for "length"');
 * ```
 */
export function assertStopReason<S extends Transcribable | Run>(
  subject: S,
  reason: StopReason,
): SettledOf<S> {
  return enforced(checkSettled(subject, (x) => stopReason(x, reason, "assertStopReason")));
}

/**
 * Asserts what a `Budget` (anything with `spent()`) has spent, exactly, in
 * USD: `"0.000100"`, `"0.0001"` and `0.0001` are the same amount.
 *
 * @param budget The budget.
 * @param amount The expected amount.
 * @throws {AssertionError} When it spent something else; the message says
 * what, over how many calls and tokens.
 * @throws {TypeError} When `budget` has no `spent()` or `amount` is not a decimal.
 *
 * @example
 * ```ts
 * import { Agent, Budget, meter } from "@agentkit/testing/runtime";
 * import { AssertionError, assertSpent, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * const budget = new Budget({ maxCostUsd: "1.00" });
 * const ctx = makeTestCtx({ llm: new FakeLLM("ok"), budget, chatMiddleware: [meter()] });
 * await new Agent("a", { model: "fake-model" }).run("hi", ctx);
 * assertSpent(budget, "0.000100");
 * assertSpent(budget, 0.0001);
 * assertThrows(() => assertSpent(budget, "0.0002"), AssertionError, "spent $0.000100 over 1 call(s)");
 * ```
 */
export function assertSpent(budget: unknown, amount: string | number): void {
  enforce(spent(budget, amount, "assertSpent"));
}

/**
 * Asserts that a scripted double (`FakeLLM.script`, `FakeClaudeCli`,
 * `FakeCodexCli`, `FakeAsker`) used every turn it was given: the run went as
 * far as the script says.
 *
 * @param double The double.
 * @throws {AssertionError} When turns are left; the message shows what the double saw.
 *
 * @example
 * ```ts
 * import { AssertionError, assertUsedAllTurns, FakeLLM } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * const llm = FakeLLM.script(["one", "two"], { allowUnused: true });
 * await llm.chat({ model: "m", messages: [{ role: "user", content: "hi" }] });
 * assertThrows(() => assertUsedAllTurns(llm), AssertionError, "1 were never used");
 * await llm.chat({ model: "m", messages: [] });
 * assertUsedAllTurns(llm);
 * ```
 */
export function assertUsedAllTurns(double: unknown): void {
  enforce(usedAllTurns(double, "assertUsedAllTurns"));
}

/**
 * Asserts that the {@linkcode transcript} of a result, run or double's
 * record contains `text`; a `Run` is awaited.
 *
 * @param subject What to render.
 * @param text The text to find.
 * @throws {AssertionError} When it is missing; the message shows the transcript.
 *
 * @example
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { AssertionError, assertTranscriptContains, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * const result = await new Agent("a", { model: "fake-model" }).run("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
 * assertTranscriptContains(result, "assistant: hello");
 * assertThrows(() => assertTranscriptContains(result, "goodbye"), AssertionError, "Transcript:\n  user: hi");
 * ```
 */
export function assertTranscriptContains<S extends Transcribable | Run>(
  subject: S,
  text: string,
): SettledOf<S> {
  if (subject instanceof Run) {
    render([], text, "assertTranscriptContains");
    return transcript(subject).then((t) => enforce(transcriptContaining(text, t))) as SettledOf<S>;
  }
  return enforce(
    transcriptContaining(text, render(subject, text, "assertTranscriptContains")),
  ) as SettledOf<S>;
}
