// LangChain (`@langchain/core`) doing the work of each case: its own
// FakeListChatModel for text, and for tool calls a scripted chat model (its
// fakes cannot script a tool call followed by an answer) driven by the
// hand-written loop that @langchain/core leaves to the caller.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { z } from "zod";
import { check } from "./_check.mjs";

const LOOKUP = tool(
  () => Promise.resolve(JSON.stringify({ notAfter: "2026-08-01" })),
  {
    name: "lookup_cert",
    description: "Looks up a host's certificate",
    schema: z.object({ host: z.string() }),
  },
);

const CALL = {
  id: "c1",
  name: "lookup_cert",
  args: { host: "example.com" },
  type: "tool_call",
};

// Answers with the next scripted turn; the last one repeats.
class ScriptedChatModel extends BaseChatModel {
  constructor(turns) {
    super({});
    this.turns = turns;
    this.i = 0;
  }
  _llmType() {
    return "scripted";
  }
  _generate() {
    const turn = this.turns[Math.min(this.i++, this.turns.length - 1)];
    const message = turn === "call"
      ? new AIMessage({ content: "", tool_calls: [CALL] })
      : new AIMessage(turn);
    return Promise.resolve({ generations: [{ text: message.text, message }] });
  }
}

// The tool loop: call the model, run its tool calls, repeat until it answers
// without tools or has been called `max` times.
async function loop(model, max) {
  const messages = [new HumanMessage("why?")];
  let steps = 0;
  while (steps < max) {
    const reply = await model.invoke(messages);
    steps++;
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    for (const call of reply.tool_calls) {
      messages.push(await LOOKUP.invoke(call));
    }
  }
  return { messages, steps };
}

function steps(n) {
  return {
    id: `react_${n}_steps`,
    uses: 1,
    steps: n,
    prepare() {
      const model = new ScriptedChatModel(["call"]);
      return async () => {
        const r = await loop(model, n);
        check(
          r.steps === n && r.messages.length === 2 * n + 1,
          `react_${n}_steps transcript`,
        );
        return r;
      };
    },
  };
}

export function allCases() {
  return [
    {
      id: "single_turn",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        const model = new FakeListChatModel({ responses: ["ok"] });
        return async () => {
          const r = await model.invoke("go");
          check(r.content === "ok", "single_turn content");
          return r;
        };
      },
    },
    {
      // FakeListChatModel streams its answer one character per chunk.
      id: "stream_3_chunks",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        const model = new FakeListChatModel({ responses: ["ok!"] });
        return async () => {
          let chunks = 0;
          for await (const _ of await model.stream("go")) chunks++;
          check(chunks === 3, "stream_3_chunks chunks");
          return chunks;
        };
      },
    },
    {
      id: "react_2_steps",
      uses: 1,
      steps: 2,
      prepare() {
        const model = new ScriptedChatModel(["call", "expired"]);
        return async () => {
          const r = await loop(model, 5);
          check(
            r.steps === 2 && r.messages.at(-1).content === "expired",
            "react_2_steps answer",
          );
          return r;
        };
      },
    },
    steps(10),
    steps(100),
    steps(1000),
    {
      id: "construct",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        return () => Promise.resolve(new FakeListChatModel({ responses: ["a", "b"] }));
      },
    },
  ];
}
