import { autoToolCall, scriptedToolCall } from "./_cases.ts";
import { bench } from "./_bench.ts";

// What FakeLLM.auto's generation and its validator cost, next to a script
// that plays the same tool call.
bench(scriptedToolCall(), "auto");
bench(autoToolCall(), "auto");
