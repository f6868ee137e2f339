/**
 * Composing the transcript a model sees.
 *
 * @module
 */
import type { Compactor } from "../ports/compactor.ts";
import type { GrounderPort } from "../ports/grounder.ts";
import type { Message } from "../ports/message.ts";
import type { Ctx } from "../ports/context.ts";
import type { Span } from "../ports/trace.ts";
import type { AgentInfo } from "./cognition/cognition.ts";
import { checkOptions, is } from "./_options.ts";

/** Options for {@linkcode RequestBuilder}. */
export interface RequestBuilderOptions {
  /** Supplies facts for the task, placed after the system prompt. */
  readonly grounder?: GrounderPort;
  /**
   * The prompt version stamped on the `compose` span.
   * @default {a hash of the system prompt}
   */
  readonly version?: string;
  /** Shrinks the composed transcript when it is too long (a `SummaryCompactor`). */
  readonly compactor?: Compactor;
}

// The transcript of a builder with nothing to await, or undefined.
let plainBuild: (
  builder: RequestBuilder,
  agent: AgentInfo,
  task: string,
  ctx: Ctx,
  context: readonly Message[],
) => Message[] | undefined;

/**
 * Composes a request: the agent's system prompt, grounding for the task, the
 * working context (earlier turns) and the task as the last user message. It
 * opens a `compose` span stamped with `agentkit.prompt.version`. A `compactor`,
 * when given, shrinks the composed transcript before it is returned. It needs no
 * invoker, so `makeTestCtx()` with no llm is enough to test it.
 *
 * @example
 * ```ts
 * import { RequestBuilder } from "@agentkit/testing/runtime";
 * import { makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const builder = new RequestBuilder({ grounder: { ground: () => Promise.resolve(["rotate every 90d"]) } });
 * const messages = await builder.build({ name: "a", model: "m", system: "Be brief." }, "why?", makeTestCtx());
 * assertEquals(messages.map((m) => m.role), ["system", "system", "user"]);
 * assertEquals(messages[1].content, "Grounding:\n- rotate every 90d");
 * ```
 */
export class RequestBuilder {
  readonly #grounder?: GrounderPort;
  readonly #version?: string;
  readonly #compactor?: Compactor;
  #lastSystem?: string;
  #lastHash = "";

  /**
   * Checks every option here; without a grounder or a compactor, a request is the messages as given.
   *
   * @param options Grounder and version.
   */
  constructor(options: RequestBuilderOptions = {}) {
    checkOptions("new RequestBuilder()", options, {
      grounder: is.port("a GrounderPort", ["ground"]),
      version: is.text,
      compactor: is.port("a Compactor", ["compact"]),
    });
    this.#grounder = options.grounder;
    this.#version = options.version;
    this.#compactor = options.compactor;
  }

  /**
   * The prompt version for a system prompt.
   * @param system The system prompt.
   * @returns The explicit version, or an 8-hex-digit hash.
   */
  versionOf(system: string): string {
    if (this.#version !== undefined) return this.#version;
    if (system !== this.#lastSystem) {
      this.#lastSystem = system;
      this.#lastHash = fnv1a(system);
    }
    return this.#lastHash;
  }

  // The transcript of a builder with nothing to await: the system prompt,
  // the earlier turns and the task.
  #plain(agent: AgentInfo, task: string, ctx: Ctx, context: readonly Message[]): Message[] {
    const messages: Message[] = [];
    const span = this.#compose(agent, ctx, messages);
    try {
      for (const m of context) messages.push(m);
      messages.push({ role: "user", content: task });
      return messages;
    } finally {
      span.end();
    }
  }

  // Opens the compose span, versioned by the system prompt, and starts the
  // transcript with that prompt; the caller ends the span.
  #compose(agent: AgentInfo, ctx: Ctx, messages: Message[]): Span {
    const span = ctx.trace.span("compose", "compose", { "agentkit.agent.name": agent.name });
    const system = agent.system ?? "";
    span.setAttribute("agentkit.prompt.version", this.versionOf(system));
    if (system) messages.push({ role: "system", content: system });
    return span;
  }

  static {
    plainBuild = (b, agent, task, ctx, context) =>
      b.#grounder || b.#compactor ? undefined : b.#plain(agent, task, ctx, context);
  }

  /**
   * Builds the transcript for one run.
   * @param agent The agent.
   * @param task The task.
   * @param ctx The run (for the span and the grounder).
   * @param context Earlier turns.
   * @returns The messages.
   */
  async build(
    agent: AgentInfo,
    task: string,
    ctx: Ctx,
    context: readonly Message[] = [],
  ): Promise<Message[]> {
    if (!this.#grounder && !this.#compactor) return this.#plain(agent, task, ctx, context);
    const messages: Message[] = [];
    const span = this.#compose(agent, ctx, messages);
    try {
      if (this.#grounder) {
        const facts = await this.#grounder.ground(ctx, task);
        const list = typeof facts === "string" ? (facts ? [facts] : []) : facts;
        if (list.length) {
          messages.push({
            role: "system",
            content: `Grounding:\n${list.map((f) => `- ${f}`).join("\n")}`,
          });
        }
        span.setAttribute("agentkit.grounding.count", list.length);
      }
      for (const m of context) messages.push(m);
      messages.push({ role: "user", content: task });
      return this.#compactor ? await this.#compactor.compact(messages, ctx) : messages;
    } finally {
      span.end();
    }
  }
}

const PLAIN_BUILD = RequestBuilder.prototype.build;

/**
 * What `builder.build()` resolves to, without a promise when the builder is
 * a plain `RequestBuilder` (no grounder, no compactor, `build` not
 * overridden): the agent composes every run's transcript through it.
 */
export function buildNow(
  builder: RequestBuilder,
  agent: AgentInfo,
  task: string,
  ctx: Ctx,
  context: readonly Message[],
): Message[] | Promise<Message[]> {
  if (builder.build === PLAIN_BUILD) {
    const messages = plainBuild(builder, agent, task, ctx, context);
    if (messages) return messages;
  }
  return builder.build(agent, task, ctx, context);
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}
