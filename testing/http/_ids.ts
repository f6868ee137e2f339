// The ids a wire sends, in each provider's real format, derived from the
// model's own response id (FakeLLM's `fake-chat-1`, a counter per fake): the
// same script gives the same ids on every run, and two answers of one
// script never share one. Formats, with where each is written down:
//
// | id                         | format                    | source                                                                                  |
// |----------------------------|---------------------------|-----------------------------------------------------------------------------------------|
// | Chat Completions `id`      | `chatcmpl-` + 29 base62   | openai-openapi openapi.yaml, chat examples (`chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT`)    |
// | `system_fingerprint`       | `fp_` + 10 hex            | openai-openapi openapi.yaml, chunk example (`fp_44709d6fcb`)                             |
// | Responses `id`             | `resp_` + 50 hex          | recorded traffic as issue 36 measured it (the 2025 examples in openapi.yaml carry 48)   |
// | Responses item ids         | `msg_` / `fc_` / `rs_` + 50 hex | as the response id (openapi.yaml: `msg_67ccd2bf…`, `fc_12345xyz`, `rs_…`)         |
// | Anthropic message `id`     | `msg_01` + 22 base62      | Anthropic API reference, Messages example (`msg_013Zva2CMHLNnXjNJJKqJ2EF`)               |
// | Gemini `responseId`        | 23 base62                 | recorded traffic (`mGvKaKfMAvOgz7IPqNG7sAM`); GenerateContentResponse.responseId        |
//
// Tool-call ids (`call_…`, `toolu_…`, Gemini's `functionCall.id`) are the
// script's: a test names its calls and the results answer them by name, so
// the wire sends them as scripted.

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const HEX = "0123456789abcdef";

// FNV-1a over the seed, then xorshift32: cheap, and the same on every run.
function stream(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let x = h >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

function chars(seed: string, n: number, alphabet: string): string {
  const next = stream(seed);
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[next() % alphabet.length];
  return out;
}

// The ids made, by seed, one table a format: a stream's every event asks for
// the same one, and a lookup costs less than making it again.
function memo(make: (seed: string) => string): (seed: string) => string {
  const made = new Map<string, string>();
  return (seed) => {
    let v = made.get(seed);
    if (v === undefined) {
      if (made.size > 4096) made.clear();
      made.set(seed, v = make(seed));
    }
    return v;
  };
}

/** Chat Completions' `chatcmpl-` + 29 base62 characters. */
export const chatCompletionId: (seed: string) => string = memo((seed) =>
  `chatcmpl-${chars(seed, 29, BASE62)}`
);

/** Chat Completions' `system_fingerprint`: `fp_` + 10 hex, one per model. */
export const systemFingerprint: (model: string) => string = memo((model) =>
  `fp_${chars(model, 10, HEX)}`
);

const RESPONSES = new Map<string, (seed: string) => string>();

/** A Responses id: `prefix` (`resp_`, `msg_`, `fc_`, `rs_`) + 50 hex. */
export function responsesId(prefix: string, seed: string): string {
  let make = RESPONSES.get(prefix);
  if (!make) RESPONSES.set(prefix, make = memo((s) => prefix + chars(prefix + s, 50, HEX)));
  return make(seed);
}

/** An Anthropic message id: `msg_01` + 22 base62 (24 after the prefix). */
export const anthropicMessageId: (seed: string) => string = memo((seed) =>
  `msg_01${chars(seed, 22, BASE62)}`
);

/** A Gemini `responseId`: 23 base62 characters. */
export const geminiResponseId: (seed: string) => string = memo((seed) => chars(seed, 23, BASE62));

// Obfuscation pads: random characters of varying length in the real API
// ("adds random characters to an `obfuscation` field on streaming delta
// events to normalize payload sizes", openai-openapi
// stream_options.include_obfuscation). Sixteen fixed ones, taken in turn:
// a stream's pads are the same on every run and cost nothing to make.
const PADS = Array.from({ length: 16 }, (_, i) => chars(`pad${i}`, 1 + (i * 7) % 15, BASE62));

/** The `obfuscation` pad of a stream's `n`th delta. */
export function obfuscation(_seed: string, n: number): string {
  return PADS[n & 15];
}
