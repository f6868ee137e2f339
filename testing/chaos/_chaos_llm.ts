// The world's model: a FakeLLM whose responder picks each call's turn (a
// fault's, or the script's), wrapped to see what a call is charged against
// and what it billed.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest, LLMPort } from "../../ports/llm.ts";
import { ProviderError } from "../../ports/provider_errors.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { Usage } from "../../ports/usage.ts";
import { Budget } from "../../runtime/money/budget.ts";
import type { FakeLLM } from "../llm/fake_llm.ts";

/** What the model tells the run about. */
export interface LLMHooks {
  /** A call starts, with its signal and the context's budget (if a `Budget`). */
  enter(signal: AbortSignal | undefined, budget: Budget | undefined): void;
  /** A call settled (answered, failed, or its stream ended). */
  leave(): void;
  /** A call was billed `usage` (an answer, or a failure that reported usage). */
  bill(usage: Usage): void;
}

/** An `LLMPort` over `inner`, reporting to `hooks`. */
export class ChaosLLM implements LLMPort {
  readonly #inner: FakeLLM;
  readonly #hooks: LLMHooks;

  constructor(inner: FakeLLM, hooks: LLMHooks) {
    this.#inner = inner;
    this.#hooks = hooks;
  }

  chat(request: ChatRequest, ctx?: Ctx): Promise<ChatResponse> {
    this.#enter(request?.signal, ctx);
    return this.#billed(this.#inner.chat(request, ctx));
  }

  complete(request: CompleteRequest, ctx?: Ctx): Promise<ChatResponse> {
    this.#enter(request?.signal ?? undefined, ctx);
    return this.#billed(this.#inner.complete(request, ctx));
  }

  async *stream(request: ChatRequest, ctx?: Ctx): AsyncGenerator<StreamEvent, void, undefined> {
    this.#enter(request?.signal, ctx);
    let billed = false;
    try {
      for await (const event of this.#inner.stream(request, ctx)) {
        if (!billed && (event.type === "message_end" || (event.type === "error" && event.usage))) {
          billed = true;
          this.#hooks.bill(event.usage!);
        }
        yield event;
      }
    } catch (error) {
      if (!billed) this.#failed(error);
      throw error;
    } finally {
      this.#hooks.leave();
    }
  }

  #enter(signal: AbortSignal | undefined, ctx: Ctx | undefined): void {
    const budget = (ctx as { budget?: unknown } | undefined)?.budget;
    this.#hooks.enter(signal ?? ctx?.signal, budget instanceof Budget ? budget : undefined);
  }

  #billed(answer: Promise<ChatResponse>): Promise<ChatResponse> {
    return answer.then((response) => {
      this.#hooks.leave();
      this.#hooks.bill(response.usage);
      return response;
    }, (error) => {
      this.#hooks.leave();
      this.#failed(error);
      throw error;
    });
  }

  #failed(error: unknown): void {
    if (error instanceof ProviderError && error.usage) this.#hooks.bill(error.usage);
  }
}
