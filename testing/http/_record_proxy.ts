// The FakeProvider's recording proxy: `new FakeProvider({ record: { upstream,
// path } })`. A client of any stack talks to the FakeProvider as to the real
// API; each request, parsed by the FakeProvider's wire into a ChatRequest,
// goes through a cassette in record mode to our port for that API, aimed at
// `upstream` with the client's own key; the answer goes back to the client on
// the same wire and is written as a cassette entry, which
// `new FakeProvider({ llm: cassette(path) })` replays to any client.
//
// The client's key travels with the request only: the FakeProvider binds the
// incoming request's path and headers to the ChatRequest it hands the
// cassette, which passes that same object on to the port (a WeakMap, not an
// AsyncLocalStorage scope: entering a store for each request cost a recording
// round trip a tenth of its time). The key is handed to the cassette as a
// by-value secret before anything is sent, so neither it nor a header reaches
// the file.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest, LLMPort } from "../../ports/llm.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { HarnessError } from "../../runtime/harness_error.ts";
import { checkOptions, is } from "../../runtime/internal.ts";
import { AnthropicLLM } from "../../runtime/providers/anthropic_llm.ts";
import { GeminiLLM } from "../../runtime/providers/gemini_llm.ts";
import { OpenAIChatLLM } from "../../runtime/providers/openai_chat_llm.ts";
import { OpenAIResponsesLLM } from "../../runtime/providers/openai_responses_llm.ts";
import { Cassette, type CassetteOptions } from "../cassette/cassette.ts";
import { addCassetteSecret } from "../cassette/_cassette_secrets.ts";
import { isGeminiPath } from "./_gemini_wire.ts";

/**
 * What `new FakeProvider({ record })` records: each request is forwarded to
 * `upstream` (the real API's origin: the request's path is kept) and the
 * exchange is written to the cassette at `path`.
 */
export interface FakeProviderRecord {
  /** The real API's origin, `"https://api.openai.com"`; a request to `/v1/chat/completions` goes to `${upstream}/v1/chat/completions`. */
  readonly upstream: string | URL;
  /** The cassette file to write. */
  readonly path: string | URL;
  /**
   * The fetch that reaches `upstream`.
   * @default {globalThis.fetch}
   */
  readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** More to mask in the file, as `CassetteOptions.redact`. @default {[]} */
  readonly redact?: CassetteOptions["redact"];
}

interface Scope {
  readonly path: string;
  readonly url: URL;
  readonly headers: Headers;
}

const RULES = {
  upstream: {
    accepts: 'an http(s) origin such as "https://api.openai.com"',
    test: (v: unknown) => {
      if (typeof v !== "string" && !(v instanceof URL)) return { kind: "type" as const };
      try {
        const u = new URL(String(v));
        return u.protocol === "http:" || u.protocol === "https:" ? undefined : {
          kind: "range" as const,
        };
      } catch {
        return { kind: "range" as const };
      }
    },
  },
  path: is.either(is.string, is.instance(URL), "a file path or a file: URL"),
  fetch: is.function,
  redact: is.arrayOf(is.either(is.string, is.instance(RegExp))),
};

/** The model port a recording FakeProvider serves: a cassette recording through the right port. */
export class RecordingProxy implements LLMPort {
  /** The cassette every exchange is written to. */
  readonly cassette: Cassette;
  readonly #upstream: string;
  readonly #fetch: FakeProviderRecord["fetch"];
  readonly #scopes = new WeakMap<object, Scope>();
  readonly #kinds = new WeakMap<object, string>();
  readonly #ports = new Map<string, LLMPort>();
  #last = "unknown";

  constructor(record: FakeProviderRecord) {
    checkOptions("new FakeProvider({ record })", record, RULES, {
      required: ["upstream", "path"],
    });
    this.#upstream = String(record.upstream).replace(/\/+$/, "");
    this.#fetch = record.fetch;
    const last = () => this.#last;
    const kinds = this.#kinds;
    const dispatch: LLMPort & {
      readonly provider: string;
      providerFor(request: object): string | undefined;
    } = {
      get provider() {
        return last();
      },
      // Provenance names the port this request went through, not the last
      // one chosen: requests to two APIs may be in flight at once.
      providerFor: (request) => kinds.get(request),
      chat: (request, ctx) => this.#port(request).chat(request, ctx),
      stream: (request, ctx) => this.#port(request).stream(request, ctx),
      complete: (request, ctx) => this.#port(request).complete(request, ctx),
    };
    this.cassette = new Cassette(record.path, {
      mode: "record",
      upstream: () => dispatch,
      redact: record.redact,
    });
  }

  /**
   * Binds the incoming request's path, URL and headers to the ChatRequest
   * made of it: the cassette hands that object to the port unchanged, which
   * is how the port knows the API and the key.
   */
  bind<T extends object>(chat: T, incoming: { path: string; url: URL; headers: Headers }): T {
    this.#scopes.set(chat, { path: incoming.path, url: incoming.url, headers: incoming.headers });
    return chat;
  }

  /** Forwards and records one blocking call. */
  chat(request: ChatRequest, ctx?: Ctx): Promise<ChatResponse> {
    return this.cassette.chat(request, ctx);
  }

  /** Forwards and records one streamed call. */
  stream(request: ChatRequest, ctx?: Ctx): AsyncIterable<StreamEvent> {
    return this.cassette.stream(request, ctx);
  }

  /** Forwards and records a prompt. */
  complete(request: CompleteRequest, ctx?: Ctx): Promise<ChatResponse> {
    return this.cassette.complete(request, ctx);
  }

  /** What the cassette's verify() throws. */
  verify(): void {
    this.cassette.verify();
  }

  // Our port for the API the current request spoke, aimed at upstream with its key.
  #port(request: object): LLMPort {
    const scope = this.#scopes.get(request);
    if (!scope) {
      throw new HarnessError(
        "A recording FakeProvider's model was called outside a request: call it through provider.fetch or a served URL",
      );
    }
    const { path, headers, url } = scope;
    const bearer = /^bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "")?.[1];
    let kind: string;
    let prefix: string;
    let key: string | undefined;
    if (isGeminiPath(path)) {
      kind = "GeminiLLM";
      prefix = path.slice(0, path.indexOf("/models/"));
      key = headers.get("x-goog-api-key") ?? url.searchParams.get("key") ?? bearer;
    } else if (path.endsWith("/chat/completions")) {
      kind = "OpenAIChatLLM";
      prefix = path.slice(0, -"/chat/completions".length);
      key = bearer;
    } else if (path.endsWith("/responses")) {
      kind = "OpenAIResponsesLLM";
      prefix = path.slice(0, -"/responses".length);
      key = bearer;
    } else if (path.endsWith("/messages")) {
      kind = "AnthropicLLM";
      prefix = path.slice(0, -"/v1/messages".length);
      key = headers.get("x-api-key") ?? bearer;
    } else {
      throw new HarnessError(
        `A recording FakeProvider cannot forward ${path} yet: it records OpenAI Chat Completions, OpenAI Responses, Anthropic Messages and the Gemini API through this package's ports`,
      );
    }
    // Before anything is sent: the key must not reach the file, whatever echoes it.
    if (key) addCassetteSecret(this.cassette, key);
    const baseURL = `${this.#upstream}${prefix}`;
    const id = `${kind} ${baseURL} ${key ?? ""}`;
    let port = this.#ports.get(id);
    if (!port) {
      const options = {
        apiKey: key ?? "",
        baseURL,
        ...(this.#fetch ? { fetch: this.#fetch } : {}),
      };
      port = kind === "GeminiLLM"
        ? new GeminiLLM(options)
        : kind === "OpenAIChatLLM"
        ? new OpenAIChatLLM(options)
        : kind === "OpenAIResponsesLLM"
        ? new OpenAIResponsesLLM(options)
        : new AnthropicLLM(options);
      this.#ports.set(id, port);
    }
    this.#last = kind;
    this.#kinds.set(request, kind);
    return port;
  }
}
