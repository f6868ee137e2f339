/**
 * The runtime's handshakes with `testing/`: what the doubles need to know
 * about the production path that is not public API. This is the one module
 * outside the public entries that `testing/` may import (an architecture
 * test pins it), so every such coupling is listed here, in one place. Not
 * exported from `runtime/mod.ts`; it may change in any release.
 *
 * - `appendOnly` / `release` / `isAppendOnly`: a runtime loop marks the
 *   transcript it only appends to, so a recording double keeps one copy of
 *   it instead of comparing every message on every call.
 * - `untilAborted`: the one race of work against cancellation, shared by the
 *   tool loop and the model double.
 * - `PULL` / `pull` / `PullGenerator`: a stream step taken without a promise
 *   when it is ready, which FakeLLM's stream offers to the invoker's driver;
 *   both are generators on top of that step.
 * - `markCut` / `isCut`: a mid-stream failure that is a broken connection,
 *   which a fake provider serves as a cut stream.
 * - `markScripted` / `scriptedBy`: an error a double threw on purpose (a
 *   FakeLLM's `failTimes`, a scripted turn's `error`), which `retry()` names
 *   as the fake's scripted failure when it gives up.
 * - `markInProcess`: marks a fetch that answers in-process, which the
 *   test-context guard lets through (by identity: no marker anyone could set);
 *   `underPolicy`: runs code under a request policy the guard reads when a
 *   port is called without a context (aiSdkModel, cassettes, FakeProvider).
 * - `parseArgs`: tool-call arguments from their JSON text (kept raw when
 *   malformed), read alike by the provider ports and the fake provider.
 * - `editDistance`: the one edit distance, behind every did-you-mean hint
 *   and the Levenshtein evaluator.
 * - `checkOptions`, `checkValue`, `describe`, `is`, `ports`, `nearest`, `Rule`,
 *   `CheckSettings`: the one options checker, so a double's options bag
 *   fails like a runtime one; `withChecked`: a factory that checked the
 *   options it passes on builds without them being checked again;
 *   `deferServices`: the context such a factory builds next makes its
 *   services when first read (a test context that is never run never pays
 *   for its invoker and clock).
 * - `Redactor`, `redactText`, `isSecretName`, `isSecretHeader`, `REDACTED`:
 *   the one redaction engine, so a cassette, a transcript and a fake
 *   provider's request log mask what a port's errors mask;
 *   `readKeyVariables`: the process's secret registry behind it (values
 *   masked verbatim whatever their shape; `registerSecret` is public).
 * - `builtin`: a `node:` module loaded on first use, so a double that
 *   touches files (a cassette) does not start Deno's Node layer at import.
 * - `zod`, `importZod`, `syncImport`: a dependency loaded on first use (zod
 *   for every schema the doubles build, fake-timers for the FakeClock's
 *   engine), so no test file pays for them at import.
 *
 * @module
 */
export { appendOnly, isAppendOnly, release } from "./_append_only.ts";
export { untilAborted } from "./_until_aborted.ts";
export { isCut, markCut } from "./stream/_stream_cut.ts";
export { markScripted, scriptedBy } from "./middleware/_scripted.ts";
export { PULL, pull, PullGenerator } from "./stream/_pull.ts";
export { adopt, CALL_NOW, CHAT_NOW, type Now, offerNow, promised } from "./_now.ts";
export { throughPublic } from "./_now.ts";
export { markInProcess } from "./providers/_http.ts";
export { underPolicy } from "./_ambient.ts";
export { parseArgs } from "./providers/_tool_args.ts";
export { editDistance } from "./_edit_distance.ts";
export { checkOptions, checkValue, describe, is, nearest, ports, type Rule } from "./_options.ts";
export { type CheckSettings, deferServices, withChecked } from "./_options.ts";
export { isSecretHeader, isSecretName, REDACTED, Redactor, redactText } from "./_redact.ts";
export { readKeyVariables } from "./_secrets/registry.ts";
// What a transcript message must be: a session's, agent.run()'s context's and transcript()'s rule.
export { checkMessages } from "./sessions/_message_problem.ts";
// Which runs failed: what a scripted double's dispose asks (testing/_dispose_verify.ts).
export { failedAfter, failedRuns, noteRunFailed } from "./stream/_run_failed.ts";
export { builtin } from "./spawn/_builtin.ts";
export { importZod, zod } from "./_lazy/zod.ts";
export { syncImport } from "./_lazy/sync_import.ts";
// Issue 41: verifyCassette() keeps its spending cap in the ledger's units.
export { formatUnits, toUnits } from "./money/_decimal.ts";
