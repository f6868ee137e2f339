// Assembles an AgentResult from the events of agent.stream, for afterRun
// hooks and the session transcript. Only built when one of them needs it.
import type { Message } from "../ports/message.ts";
import type { StreamEvent } from "../ports/stream_event.ts";
import { addUsage, type Usage, ZERO_USAGE } from "../ports/usage.ts";
import type { AgentResult } from "./agent.ts";
import { type StopReason, stopReasonOf } from "./cognition/cognition.ts";

export class StreamResult {
  #text = "";
  #usage: Usage = ZERO_USAGE;
  #stop: StopReason = "stop";

  add(event: StreamEvent): void {
    switch (event.type) {
      case "message_start":
        this.#text = "";
        break;
      case "text_delta":
        this.#text += event.content;
        break;
      case "message_end":
        this.#usage = addUsage(this.#usage, event.usage);
        this.#stop = stopReasonOf(event.finishReason);
        break;
      case "error":
        if (event.usage) this.#usage = addUsage(this.#usage, event.usage);
        this.#stop = "error";
        break;
    }
  }

  // The text of the last message is the answer; earlier messages of a tool
  // loop are steps on the way.
  result(messages: readonly Message[], halted: boolean): AgentResult {
    return {
      output: this.#text,
      usage: this.#usage,
      messages: [...messages, { role: "assistant", content: this.#text }],
      stopReason: halted ? "halted" : this.#stop,
    };
  }
}
