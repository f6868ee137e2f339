/**
 * Several tool providers as one: their tools merged, each call sent to the
 * provider that listed it.
 *
 * @module
 */
import type { Ctx } from "../../ports/context.ts";
import type { ToolCall } from "../../ports/message.ts";
import type { ToolProvider, ToolResult } from "../../ports/tool.ts";
import type { ToolSpec } from "../../ports/tool_spec.ts";
import { rethrowIfFatal } from "../harness_error.ts";
import { checkValue, is, nearest, ports, type Rule } from "../_options.ts";

const PROVIDERS: Rule = is.arrayOf(ports.provider, 1);

/**
 * Two providers of a `ToolRegistry` list a tool of the same name, so a call
 * of it could go to either. `listTools()` throws it (or rejects with it).
 *
 * @example
 * ```ts
 * import { ToolNameCollision } from "@agentkit/testing/runtime";
 * import { assertEquals, assertMatch } from "@std/assert";
 *
 * const e = new ToolNameCollision("search", "providers[0] (McpToolProvider \"web\")", "providers[1] (ScriptedProvider)");
 * assertEquals(e.tool, "search");
 * assertMatch(e.message, /providers\[0\].*providers\[1\].*prefix/);
 * ```
 */
export class ToolNameCollision extends Error {
  /** The name both providers list. */
  readonly tool: string;
  /** The two providers, as the message names them. */
  readonly providers: readonly [string, string];

  /**
   * The message names both providers and the two ways out (a prefix, a policy).
   *
   * @param tool The name.
   * @param first The provider that listed it first.
   * @param second The other.
   */
  constructor(tool: string, first: string, second: string) {
    super(
      `Cannot merge the tools of a ToolRegistry: ${first} and ${second} both list a tool named "${tool}"; give one of them a prefix (new McpToolProvider(client, { prefix: "name_" })) or hide one under a ToolPolicy ({ deny: ["${tool}"] })`,
    );
    this.name = "ToolNameCollision";
    this.tool = tool;
    this.providers = [first, second];
  }
}

/**
 * Merges tool providers (MCP servers, scripted providers, policies over
 * either) into one `ToolProvider`.
 *
 * `listTools()` lists every provider's tools, in the providers' order, and
 * checks the names then, on every listing (a server's tools can change
 * between runs): a name two providers list is a {@linkcode ToolNameCollision}
 * naming both, thrown, or the rejection when a provider had to be asked. It
 * answers at once when every provider does. The listing also routes calls:
 * `executeToolCalls()` sends each call to the provider that listed its name
 * (one batch per provider, the results in the caller's order); a call of a
 * name no provider listed is an `isError` result. Like every provider it
 * never throws (harness errors excepted): a provider that throws, or answers
 * without a result for a call, gives that call an `isError` result.
 *
 * `grants()` is there only when a provider has one: the union of theirs.
 *
 * @example Two providers, one tool list
 * ```ts
 * import { Agent, ReActCognition, ToolRegistry } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx, ScriptedProvider } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const files = new ScriptedProvider({ tools: [{ name: "fs_read" }], results: { fs_read: "hello" } });
 * const web = new ScriptedProvider({ tools: [{ name: "web_get" }], results: { web_get: "<html>" } });
 * const provider = new ToolRegistry([files, web]);
 * const llm = FakeLLM.script([
 *   { toolCalls: [toolCall("c1", "web_get", { url: "https://example.com" })] },
 *   { content: "done" },
 * ]);
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ provider }) });
 * await agent.run("go", makeTestCtx({ llm }));
 * assertEquals(llm.requests[0].tools.map((t) => t.name), ["fs_read", "web_get"]);
 * assertEquals(web.recordedCalls.map((c) => c.result?.content), ["<html>"]);
 * assertEquals(files.recordedCalls.length, 0);
 * ```
 *
 * @example A name two providers have is an error naming both
 * ```ts
 * import { ToolNameCollision, ToolRegistry } from "@agentkit/testing/runtime";
 * import { ScriptedProvider } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * const a = new ScriptedProvider({ tools: [{ name: "search" }], results: { search: "a" }, allowUnused: true });
 * const b = new ScriptedProvider({ tools: [{ name: "search" }], results: { search: "b" }, allowUnused: true });
 * assertThrows(() => new ToolRegistry([a, b]).listTools(), ToolNameCollision, "providers[0] (ScriptedProvider) and providers[1] (ScriptedProvider)");
 * ```
 */
export class ToolRegistry implements ToolProvider {
  readonly #providers: readonly ToolProvider[];
  // The last listing's routes: tool name -> the index of its provider.
  #routes: ReadonlyMap<string, number> | undefined;
  /** The union of the providers' grants; present only when one of them has `grants()`. */
  declare readonly grants?: () => Promise<readonly string[]>;

  /**
   * Takes the providers in the order their tools are listed.
   *
   * @param providers At least one `ToolProvider`.
   * @throws {TypeError} When `providers` is not an array of providers.
   * @throws {RangeError} When it is empty.
   */
  constructor(providers: readonly ToolProvider[]) {
    checkValue("new ToolRegistry()", "providers", providers, PROVIDERS);
    this.#providers = Object.freeze([...providers]);
    const granting = this.#providers.filter((p) => typeof p.grants === "function");
    if (granting.length > 0) {
      this.grants = async () => {
        const all = new Set<string>();
        for (const p of granting) for (const g of await p.grants!()) all.add(g);
        return [...all];
      };
    }
  }

  /**
   * Every provider's tools, merged, checked for collisions.
   *
   * @param ctx The run, passed on to each provider.
   * @returns The specs (a promise when a provider had to be asked).
   * @throws {ToolNameCollision} When two providers list one name.
   */
  listTools(ctx?: Ctx): readonly ToolSpec[] | Promise<readonly ToolSpec[]> {
    const lists = this.#providers.map((p) => p.listTools(ctx));
    if (lists.every(Array.isArray)) return this.#merge(lists as (readonly ToolSpec[])[]);
    return Promise.all(lists).then((ready) => this.#merge(ready));
  }

  /**
   * Sends each call to its provider, one batch per provider; never throws
   * except for harness errors.
   *
   * @param calls The calls.
   * @param ctx The run.
   * @returns One result per call, in the caller's order.
   */
  async executeToolCalls(calls: readonly ToolCall[], ctx: Ctx): Promise<readonly ToolResult[]> {
    let routes = this.#routes;
    if (routes === undefined) {
      try {
        await this.listTools(ctx);
      } catch (error) {
        rethrowIfFatal(error);
        const message = error instanceof Error ? error.message : String(error);
        return calls.map((c) => ({ callId: c.id, isError: true, content: message }));
      }
      routes = this.#routes!;
    }
    const results: (ToolResult | undefined)[] = calls.map(() => undefined);
    const batches = new Map<number, number[]>();
    for (let i = 0; i < calls.length; i++) {
      const owner = routes.get(calls[i].name);
      if (owner === undefined) {
        results[i] = unknownTool(calls[i], [...routes.keys()]);
        continue;
      }
      const batch = batches.get(owner);
      if (batch) batch.push(i);
      else batches.set(owner, [i]);
    }
    for (const [owner, indexes] of batches) {
      const batch = indexes.map((i) => calls[i]);
      let answered: readonly ToolResult[] = [];
      let failure: string | undefined;
      try {
        answered = await this.#providers[owner].executeToolCalls(batch, ctx);
      } catch (error) {
        rethrowIfFatal(error);
        failure = `${describeProvider(this.#providers[owner], owner)} failed: ${
          error instanceof Error ? error.message : String(error)
        }`;
      }
      for (const i of indexes) {
        const call = calls[i];
        const result = failure === undefined
          ? (Array.isArray(answered) ? answered : []).find((r) => r?.callId === call.id)
          : undefined;
        results[i] = result ?? {
          callId: call.id,
          isError: true,
          content: failure ??
            `${
              describeProvider(this.#providers[owner], owner)
            } gave no result for call "${call.id}" of tool "${call.name}"`,
        };
      }
    }
    return results as ToolResult[];
  }

  #merge(lists: readonly (readonly ToolSpec[])[]): readonly ToolSpec[] {
    const routes = new Map<string, number>();
    const specs: ToolSpec[] = [];
    for (let p = 0; p < lists.length; p++) {
      const list = lists[p];
      if (!Array.isArray(list)) {
        throw new TypeError(
          `${
            describeProvider(this.#providers[p], p)
          }'s listTools() did not give an array of tool specs`,
        );
      }
      for (const spec of list) {
        const other = routes.get(spec.name);
        if (other !== undefined) {
          throw new ToolNameCollision(
            spec.name,
            describeProvider(this.#providers[other], other),
            describeProvider(this.#providers[p], p),
          );
        }
        routes.set(spec.name, p);
        specs.push(spec);
      }
    }
    this.#routes = routes;
    return specs;
  }
}

// `providers[1] (McpToolProvider "github")`: its place, its class, its name if it has one.
function describeProvider(provider: ToolProvider, index: number): string {
  const kind = (provider as { constructor?: { name?: string } }).constructor?.name;
  const name = (provider as { name?: unknown }).name;
  const label = kind && kind !== "Object"
    ? ` (${kind}${typeof name === "string" && name ? ` "${name}"` : ""})`
    : "";
  return `providers[${index}]${label}`;
}

function unknownTool(call: ToolCall, known: readonly string[]): ToolResult {
  const near = nearest(call.name, known);
  return {
    callId: call.id,
    isError: true,
    content: `Unknown tool "${call.name}"${
      near ? `; did you mean "${near}"?` : ""
    }; the tools are ${known.join(", ") || "none"}`,
  };
}
