/**
 * The error a replaying cassette throws when the code under test asks
 * something the recording does not hold.
 *
 * @module
 */
import { HarnessError } from "../../runtime/harness_error.ts";
import { recordCommand } from "./_record_command.ts";

/**
 * More about a {@linkcode CassetteMismatch}: which recorded entry was nearest, and whether it was stale.
 *
 * @example
 * ```ts
 * import { CassetteMismatch } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new CassetteMismatch("a.jsonl", 1, "model", "a", "b", undefined, { nearest: 2 });
 * assertEquals([e.nearest, e.stale], [2, false]);
 * ```
 */
export interface CassetteMismatchInfo {
  /** The file line of the nearest (or the stale matched) entry. */
  readonly nearest?: number;
  /** The matched entry is older than `staleAfterDays`. */
  readonly stale?: boolean;
  /** The file does not exist (a replay that never records). */
  readonly missing?: boolean;
}

/**
 * A replayed request differs from the recorded one (or there is no recorded
 * one): the code under test changed since the cassette was recorded. A
 * harness error, so no catch in the runtime absorbs it. The message shows the
 * first differing field and how to re-record, with the command of the
 * runtime the test runs on (`deno test -A` on Deno, `node --test` on Node).
 *
 * @example
 * ```ts
 * import { CassetteMismatch } from "@agentkit/testing/testing";
 * import { HarnessError } from "@agentkit/testing/runtime";
 * import { assert, assertEquals } from "@std/assert";
 *
 * const e = new CassetteMismatch("fixtures/a.jsonl", 2, "messages[1].content", "hi", "hello");
 * assert(e instanceof HarnessError);
 * assertEquals(e.field, "messages[1].content");
 * assert(e.message.includes("AGENTKIT_CASSETTE=record"));
 * ```
 */
export class CassetteMismatch extends HarnessError {
  /** The cassette file. */
  readonly path: string;
  /** The 1-based request that did not match. */
  readonly request: number;
  /** The first differing field (`"messages[1].content"`), or `""` when there is no recording. */
  readonly field: string;
  /** The recorded value of that field. */
  readonly recorded: unknown;
  /** The value the code under test sent. */
  readonly actual: unknown;
  /**
   * The file line of the recorded entry nearest the request (content
   * matching), or of the stale entry it matched; `undefined` otherwise.
   */
  readonly nearest: number | undefined;
  /** Whether the request matched an entry that `staleAfterDays` rejects. */
  readonly stale: boolean;

  /**
   * The message shows the first difference and how to re-record.
   *
   * @param path The cassette file.
   * @param request The 1-based request number.
   * @param field The first differing field; `""` when the request has no recording.
   * @param recorded The recorded value.
   * @param actual The value sent now.
   * @param detail A sentence replacing the default description of the difference.
   * @param info The nearest entry's line, whether the matched entry is stale,
   * and whether the file is missing (then the message says how to record it,
   * never to delete it).
   */
  constructor(
    path: string,
    request: number,
    field: string,
    recorded: unknown,
    actual: unknown,
    detail?: string,
    info: CassetteMismatchInfo = {},
  ) {
    const what = detail ??
      `request ${request} differs from the recording at ${field || "the request"}: recorded ${
        show(recorded)
      }, got ${show(actual)}`;
    super(
      info.missing
        ? `Cassette ${path}: ${what}: ${recordCommand()} (or pass { mode: "once" }, which records a missing file on the first run)`
        : `Cassette ${path}: ${what}. If the change is intended, re-record: ${recordCommand()} (or delete ${path} and run the test once)`,
    );
    this.path = path;
    this.request = request;
    this.field = field;
    this.recorded = recorded;
    this.actual = actual;
    this.nearest = info.nearest;
    this.stale = info.stale ?? false;
  }
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
