/**
 * Session transcripts as JSON Lines files.
 *
 * @module
 */
import type { Message } from "../../ports/message.ts";
import { messageProblem } from "./_message_problem.ts";
import { type AppendFile, openAppend, readText } from "./_append_file.ts";
import { checkOptions, checkValue, is, type Rule } from "../_options.ts";

/** Options for {@linkcode JsonlSession.create} and {@linkcode JsonlSession.load}. */
export interface JsonlSessionOptions {
  /**
   * Ask the operating system to put every line on disk (`datasync`) before
   * `append` resolves, not only to have written it. Slower; for transcripts
   * that must survive a machine crash.
   * @default {false}
   */
  readonly sync?: boolean;
  /**
   * For `load` only: keep the good message lines and report the bad ones in
   * `skipped` instead of refusing the whole file (a transcript cut short by a
   * crash, one hand-edited line). The header must still be good: without it
   * the file is not a transcript. A last line cut off mid-write is ended with
   * a newline before the first append, so the next message is not glued to it.
   * @default {false}
   */
  readonly lenient?: boolean;
}

const OPTIONS: Readonly<Record<string, Rule>> = { sync: is.boolean, lenient: is.boolean };

/**
 * A transcript file is not what `JsonlSession.load` expects. The message
 * names the file and the 1-based line.
 *
 * @example
 * ```ts
 * import { MalformedTranscript } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new MalformedTranscript("/tmp/s.jsonl", 3, "not valid JSON");
 * assertEquals([e.name, e.line], ["MalformedTranscript", 3]);
 * ```
 */
export class MalformedTranscript extends Error {
  /** The file. */
  readonly path: string;
  /** The 1-based line that is wrong. */
  readonly line: number;

  /**
   * The message names the file and the line.
   *
   * @param path The file.
   * @param line The 1-based line.
   * @param problem What is wrong with it.
   */
  constructor(path: string, line: number, problem: string) {
    super(
      `Cannot load session transcript ${path}: line ${line} ${problem}; fix or remove that line (each line must be one JSON object, the first the session header)`,
    );
    this.name = "MalformedTranscript";
    this.path = path;
    this.line = line;
  }
}

/**
 * `append` was called on a closed session.
 *
 * @example
 * ```ts
 * import { TranscriptClosed } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new TranscriptClosed("/tmp/s.jsonl").name, "TranscriptClosed");
 * ```
 */
export class TranscriptClosed extends Error {
  /** The file. */
  readonly path: string;

  /**
   * The message names the file and how to reopen it.
   *
   * @param path The file.
   */
  constructor(path: string) {
    super(
      `Cannot append to session transcript ${path}: it is closed; reopen it with JsonlSession.load(path)`,
    );
    this.name = "TranscriptClosed";
    this.path = path;
  }
}

const FORMAT = "agentkit.session";

/**
 * A session transcript in a JSON Lines file: a header line with the
 * session's `meta`, then one line per message. The session holds one append
 * handle for its whole life and writes each message as it is appended (the
 * write has completed when `append` resolves; with `{ sync: true }` it is
 * also on disk). `close()` is the only thing that lets go of the handle; it
 * is idempotent and never throws. `await using` closes it at scope exit.
 *
 * The same code runs on Deno and Node: on Deno the handle is a `Deno.FsFile`
 * (so the test sanitizer reports a session left open), on Node a
 * `node:fs/promises` handle. Deno needs `--allow-read --allow-write`.
 *
 * @example Write, close, load again
 * ```ts
 * import { JsonlSession } from "@agentkit/testing/runtime";
 * import { mkdtemp, rm } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { assertEquals } from "@std/assert";
 *
 * const dir = await mkdtemp(join(tmpdir(), "session-"));
 * const path = join(dir, "s.jsonl");
 * {
 *   await using session = await JsonlSession.create(path, { user: "ana" });
 *   await session.append({ role: "user", content: "hi" });
 *   await session.append({ role: "assistant", content: "hello" });
 * }
 * await using again = await JsonlSession.load(path);
 * assertEquals(again.meta, { user: "ana" });
 * assertEquals(again.messages.map((m) => m.content), ["hi", "hello"]);
 * await again.close();
 * await rm(dir, { recursive: true });
 * ```
 */
export class JsonlSession implements AsyncDisposable {
  /** The transcript file. */
  readonly path: string;
  /** What the session was created with. */
  readonly meta: Readonly<Record<string, unknown>>;
  /**
   * The lines a lenient `load` left out, each naming its line and what is
   * wrong with it; empty otherwise.
   */
  readonly skipped: readonly MalformedTranscript[];
  readonly #messages: Message[];
  readonly #handle: AppendFile;
  readonly #sync: boolean;
  #queue: Promise<unknown> = Promise.resolve();
  #closing: Promise<void> | undefined;

  private constructor(
    path: string,
    meta: Readonly<Record<string, unknown>>,
    messages: Message[],
    handle: AppendFile,
    sync: boolean,
    skipped: readonly MalformedTranscript[] = [],
  ) {
    this.path = path;
    this.meta = meta;
    this.skipped = skipped;
    this.#messages = messages;
    this.#handle = handle;
    this.#sync = sync;
  }

  /**
   * Creates a new transcript at `path` (which must not exist yet) and
   * writes its header.
   *
   * @param path The file to create.
   * @param meta Anything JSON about the session (who, what for).
   * @param options Durability.
   * @returns The open session.
   * @throws {Error} When the file exists (load it instead) or cannot be written.
   */
  static async create(
    path: string,
    meta: Readonly<Record<string, unknown>> = {},
    options: JsonlSessionOptions = {},
  ): Promise<JsonlSession> {
    checkValue("JsonlSession.create()", "the path", path, is.text);
    checkOptions("JsonlSession.create()", options, { sync: is.boolean });
    if (meta === null || typeof meta !== "object" || Array.isArray(meta)) {
      throw new TypeError(
        `Cannot create session transcript ${path}: meta must be a plain object, got ${
          meta === null ? "null" : Array.isArray(meta) ? "an array" : typeof meta
        }`,
      );
    }
    const header = JSON.stringify({ type: FORMAT, version: 1, meta }) + "\n";
    let handle: AppendFile;
    try {
      handle = await openAppend(path, "create");
    } catch (error) {
      if ((error as { code?: string }).code === "EEXIST") {
        throw new Error(
          `Cannot create session transcript ${path}: the file exists; continue it with JsonlSession.load(path) or pick a new path`,
          { cause: error },
        );
      }
      throw error;
    }
    const session = new JsonlSession(path, structuredClone(meta), [], handle, !!options.sync);
    try {
      await session.#write(header);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /**
   * Opens an existing transcript: reads its header and messages, then holds
   * an append handle on it.
   *
   * @param path The file.
   * @param options Durability.
   * @returns The open session.
   * @throws {MalformedTranscript} Naming the first bad line (the header's only, when lenient).
   *
   * @example Lenient: keep the good lines, report the bad ones
   * ```ts
   * import { JsonlSession } from "@agentkit/testing/runtime";
   * import { mkdtemp, rm, writeFile } from "node:fs/promises";
   * import { tmpdir } from "node:os";
   * import { join } from "node:path";
   * import { assertEquals } from "@std/assert";
   *
   * const dir = await mkdtemp(join(tmpdir(), "session-"));
   * const path = join(dir, "s.jsonl");
   * await writeFile(path, [
   *   '{"type":"agentkit.session","version":1,"meta":{}}',
   *   '{"type":"message","message":{"role":"user","content":"hi"}}',
   *   '{"type":"message","message":{"role":"assis',
   * ].join("\n"));
   * const session = await JsonlSession.load(path, { lenient: true });
   * assertEquals(session.messages.map((m) => m.content), ["hi"]);
   * assertEquals(session.skipped.map((e) => e.line), [3]);
   * await session.close();
   * await rm(dir, { recursive: true });
   * ```
   */
  static async load(path: string, options: JsonlSessionOptions = {}): Promise<JsonlSession> {
    checkValue("JsonlSession.load()", "the path", path, is.text);
    checkOptions("JsonlSession.load()", options, OPTIONS);
    const text = await readText(path);
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    if (lines.length === 0) {
      throw new MalformedTranscript(path, 1, "is missing: the file is empty");
    }
    const header = parseLine(path, lines[0], 1);
    if (header.type !== FORMAT || typeof header.meta !== "object" || header.meta === null) {
      throw new MalformedTranscript(
        path,
        1,
        `is not a session header (expected {"type":"${FORMAT}","meta":{...}})`,
      );
    }
    const messages: Message[] = [];
    const skipped: MalformedTranscript[] = [];
    for (let i = 1; i < lines.length; i++) {
      try {
        messages.push(parseMessage(path, lines[i], i + 1));
      } catch (error) {
        if (!options.lenient || !(error instanceof MalformedTranscript)) throw error;
        skipped.push(error);
      }
    }
    const handle = await openAppend(path, "append");
    const session = new JsonlSession(
      path,
      header.meta as Record<string, unknown>,
      messages,
      handle,
      !!options.sync,
      skipped,
    );
    if (!text.endsWith("\n")) {
      // A last line without its newline (cut off mid-write, or written by
      // hand): end it so the next message starts on a line of its own.
      try {
        await session.#write("\n");
      } catch (error) {
        await session.close();
        throw error;
      }
    }
    return session;
  }

  /** The messages so far (loaded and appended), in order. */
  get messages(): readonly Message[] {
    return this.#messages;
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /**
   * Appends one message: written to the file before this resolves, then
   * added to `messages`. Appends made without awaiting are written in call
   * order.
   *
   * @param message The message.
   * @throws {TranscriptClosed} After `close()`.
   * @throws {TypeError} For something that is not a message.
   */
  append(message: Message): Promise<void> {
    if (this.#closing) return Promise.reject(new TranscriptClosed(this.path));
    const problem = messageProblem(message);
    if (problem) {
      return Promise.reject(
        new TypeError(`Cannot append to session transcript ${this.path}: the message ${problem}`),
      );
    }
    const copy = structuredClone(message);
    const line = JSON.stringify({ type: "message", message: copy }) + "\n";
    const done = this.#queue.then(() => this.#write(line)).then(() => {
      this.#messages.push(copy);
    });
    this.#queue = done.catch(() => {});
    return done;
  }

  /**
   * Waits for pending appends, then releases the file handle. Idempotent
   * and never throws: a second call returns the first one's promise.
   *
   * @returns When the handle is released.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#queue;
      try {
        await this.#handle.close();
      } catch {
        // Closing is best effort by contract: the handle is gone either way.
      }
    })();
    return this.#closing;
  }

  /** `await using session = ...` closes it at scope exit. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #write(line: string): Promise<void> {
    await this.#handle.write(line);
    if (this.#sync) await this.#handle.datasync();
  }
}

function parseLine(path: string, line: string, n: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new MalformedTranscript(path, n, `is not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new MalformedTranscript(path, n, "is not a JSON object");
  }
  return value as Record<string, unknown>;
}

function parseMessage(path: string, line: string, n: number): Message {
  const record = parseLine(path, line, n);
  if (record.type !== "message") {
    throw new MalformedTranscript(
      path,
      n,
      `has type ${JSON.stringify(record.type)}, expected "message"`,
    );
  }
  const problem = messageProblem(record.message);
  if (problem) throw new MalformedTranscript(path, n, problem);
  return record.message as Message;
}
