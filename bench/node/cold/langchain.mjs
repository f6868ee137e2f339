// Cold start on LangChain (bench/cold_start.ts): import @langchain/core's
// fake chat model, invoke it once.
import { FakeListChatModel } from "@langchain/core/utils/testing";

const result = await new FakeListChatModel({ responses: ["ok"] }).invoke("hi");
if (result.content !== "ok") throw new Error(`cold start: got ${result.content}`);
