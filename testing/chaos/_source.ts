// A turn as `FakeLLM.script` source text, so a failing run can be pasted
// into a test and replayed without chaos().
import type { Turn } from "../llm/turn.ts";

const ERROR_OPTIONS = ["retryAfterMs", "retryable", "status", "phase"] as const;

/** `turn` as an object literal (a content-only turn as its string). */
export function turnSource(turn: Turn): string {
  const keys = Object.keys(turn).filter((k) => (turn as Record<string, unknown>)[k] !== undefined);
  if (keys.length === 1 && keys[0] === "content") return JSON.stringify(turn.content);
  const parts: string[] = [];
  for (const key of keys) {
    const value = (turn as Record<string, unknown>)[key];
    if (key === "error") parts.push(`error: ${errorSource(value)}`);
    else if (key === "gate") parts.push("gate: new Promise(() => {})");
    else if (key === "toolCalls") {
      parts.push(`toolCalls: [${(value as Turn["toolCalls"])!.map(callSource).join(", ")}]`);
    } else parts.push(`${key}: ${JSON.stringify(value)}`);
  }
  return `{ ${parts.join(", ")} }`;
}

function callSource(call: NonNullable<Turn["toolCalls"]>[number]): string {
  const raw = call.rawArgs === undefined ? "" : `, rawArgs: ${JSON.stringify(call.rawArgs)}`;
  return `{ id: ${JSON.stringify(call.id)}, name: ${JSON.stringify(call.name)}, args: ${
    JSON.stringify(call.args)
  }${raw} }`;
}

// A scripted error as the expression that makes it: the provider error
// classes with their options, anything else as an Error with its message.
function errorSource(error: unknown): string {
  if (typeof error === "string") return JSON.stringify(error);
  const e = error as Error & Record<string, unknown>;
  const known = [
    "RateLimitError",
    "ProviderTimeoutError",
    "ProviderResponseError",
    "ProviderError",
  ];
  const name = known.includes(e.name) ? e.name : "Error";
  if (name === "Error") return `new Error(${JSON.stringify(e.message)})`;
  const options = ERROR_OPTIONS.filter((k) =>
    e[k] !== undefined && !(k === "phase" && e[k] === "pre_stream")
  )
    .filter((k) =>
      !(k === "retryable" && (name === "RateLimitError" || name === "ProviderTimeoutError"))
    )
    .map((k) => `${k}: ${JSON.stringify(e[k])}`);
  return `new ${name}(${JSON.stringify(e.message)}${
    options.length ? `, { ${options.join(", ")} }` : ""
  })`;
}

/** What a reproduction is made from: the calls as played, and the faults. */
export interface Played {
  readonly served: readonly ({
    readonly turn: Turn;
    readonly source?: string;
    readonly fault?: { readonly label: string };
  } | undefined)[];
  readonly injected: readonly { readonly target: "model" | "tool"; readonly label: string }[];
}

/**
 * The `FakeLLM.script([...])` that replays the model's side of a run, one
 * turn per call as played, each fault's turn marked; a tool fault is a
 * comment above it (it hit the tool, which the script does not play).
 */
export function reproduction(run: Played): string {
  const lines: string[] = [];
  for (const f of run.injected) {
    if (f.target === "tool") {
      lines.push(
        `// ${f.label}: this fault hit the tool; make your tool fail that call to replay it`,
      );
    }
  }
  lines.push("FakeLLM.script([");
  for (const s of run.served) {
    if (s === undefined) continue;
    lines.push(`  ${s.source ?? turnSource(s.turn)},${s.fault ? ` // ${s.fault.label}` : ""}`);
  }
  lines.push("])");
  return lines.join("\n");
}
