/**
 * Session transcripts for tests, tracked so that one sweep closes them all.
 *
 * @module
 */
import { zod } from "../runtime/internal.ts";
import { JsonlSession } from "../runtime/sessions/jsonl_session.ts";
import { parseOrExplain } from "./_validate.ts";

/** Options for {@linkcode testSession}. */
export interface TestSessionOptions {
  /** The transcript file to create (it must not exist). Required. */
  readonly path: string;
  /**
   * The session's metadata.
   * @default {{}}
   */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** Options for {@linkcode reopenSession}. */
export interface ReopenSessionOptions {
  /** The transcript file to load. Required. */
  readonly path: string;
}

const register = new Set<JsonlSession>();

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const testSessionSchema = z.strictObject({
    path: z.string().min(1),
    meta: z.record(z.string(), z.unknown()).optional(),
  });
  const reopenSchema = z.strictObject({ path: z.string().min(1) });
  return { testSessionSchema, reopenSchema };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

/**
 * Creates a session transcript (`JsonlSession.create`) and remembers it, so
 * {@linkcode closeTestSessions} can close it whatever happens in the test.
 * The session is `AsyncDisposable`: `await using` closes it at scope exit.
 *
 * @param options The path and metadata.
 * @returns The open session.
 * @throws {InvalidScript} For an unknown option (with the nearest valid one).
 *
 * @example
 * ```ts
 * import { closeTestSessions, reopenSession, testSession } from "@agentkit/testing/testing";
 * import { mkdtemp, rm } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { assertEquals } from "@std/assert";
 *
 * const dir = await mkdtemp(join(tmpdir(), "sessions-"));
 * try {
 *   const session = await testSession({ path: join(dir, "a.jsonl"), meta: { user: "ana" } });
 *   await session.append({ role: "user", content: "hi" });
 *   await session.close(); // closing it yourself is fine: the sweep finds it shut
 *   const again = await reopenSession({ path: join(dir, "a.jsonl") });
 *   assertEquals(again.messages.length, 1);
 * } finally {
 *   assertEquals(await closeTestSessions(), 1); // only `again` was still open
 *   await rm(dir, { recursive: true });
 * }
 * ```
 */
export async function testSession(options: TestSessionOptions): Promise<JsonlSession> {
  const o = parseOrExplain(schemas().testSessionSchema, options, "testSession options");
  return track(await JsonlSession.create(o.path, options.meta ?? {}));
}

/**
 * Loads an existing transcript (`JsonlSession.load`) and remembers it for
 * {@linkcode closeTestSessions}.
 *
 * @param options The path.
 * @returns The open session.
 * @throws {InvalidScript} For an unknown option.
 *
 * @example
 * ```ts
 * import { closeTestSessions, reopenSession, testSession } from "@agentkit/testing/testing";
 * import { mkdtemp, rm } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { assertEquals } from "@std/assert";
 *
 * const dir = await mkdtemp(join(tmpdir(), "sessions-"));
 * const path = join(dir, "a.jsonl");
 * {
 *   await using first = await testSession({ path });
 *   await first.append({ role: "user", content: "hi" });
 * }
 * await using again = await reopenSession({ path });
 * assertEquals(again.messages, [{ role: "user", content: "hi" }]);
 * await closeTestSessions();
 * await rm(dir, { recursive: true });
 * ```
 */
export async function reopenSession(options: ReopenSessionOptions): Promise<JsonlSession> {
  const o = parseOrExplain(schemas().reopenSchema, options, "reopenSession options");
  return track(await JsonlSession.load(o.path));
}

/**
 * Closes every session {@linkcode testSession} and {@linkcode reopenSession}
 * handed out and clears the register. Call it before deleting the files
 * (an open handle blocks the delete on Windows). Returns how many sessions
 * it closed: ones already closed by the test are not counted, and a second
 * call returns 0. Never throws.
 *
 * @returns How many sessions were still open.
 *
 * @example
 * ```ts
 * import { closeTestSessions, testSession } from "@agentkit/testing/testing";
 * import { mkdtemp, rm } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { assertEquals } from "@std/assert";
 *
 * const dir = await mkdtemp(join(tmpdir(), "sessions-"));
 * const a = await testSession({ path: join(dir, "a.jsonl") });
 * await testSession({ path: join(dir, "b.jsonl") });
 * assertEquals(await closeTestSessions(), 2);
 * assertEquals([a.closed, await closeTestSessions()], [true, 0]);
 * await rm(dir, { recursive: true });
 * ```
 */
export async function closeTestSessions(): Promise<number> {
  const sessions = [...register];
  register.clear();
  const open = sessions.filter((s) => !s.closed);
  await Promise.all(open.map((s) => s.close()));
  return open.length;
}

function track(session: JsonlSession): JsonlSession {
  register.add(session);
  return session;
}
