// The one registry of credentials the package was handed: a port's key and
// header values, an MCP transport's headers and `secrets`, the values of the
// provider key variables. Each is registered once, where it is given, and
// masked verbatim (as `[REDACTED]`) by the one redaction engine (_redact.ts)
// in everything the package writes or shows, whatever its shape: a bare
// bearer token has none of the vendor prefixes the shape rules know.
//
// Scope: the process (a worker, under `deno test --parallel`). A value is
// secret wherever it appears, not only in the run that gave it: a cassette
// built by a factory, a ChaosFailure, a transcript() have no context to ask.
// Registration only ever adds masking, so tests running side by side cannot
// unmask each other's secrets; the one way they meet is that a test's output
// containing another test's registered value (8 characters or more) shows it
// masked. Values shorter than MIN_SECRET_LENGTH are not registered: "k",
// "dev" or "1234" would blank ordinary words and numbers in every output. A
// port still masks its own shorter key in its own errors (_scrub_error.ts).
import { readEnv } from "../providers/_http.ts";

/**
 * The shortest value {@linkcode registerSecret} takes: shorter ones would
 * mask common words and numbers everywhere.
 *
 * @example
 * ```ts
 * import { MIN_SECRET_LENGTH } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(MIN_SECRET_LENGTH, 8);
 * ```
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * The provider key variables: their values are registered on first use of
 * the registry and looked at again whenever a port reads its key, so a key
 * set later (a test's `Deno.env.set`) is masked too.
 */
export const KEY_VARIABLES: readonly string[] = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "AZURE_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GROQ_API_KEY",
  "MISTRAL_API_KEY",
  "OPENROUTER_API_KEY",
  "XAI_API_KEY",
  "DEEPSEEK_API_KEY",
  "TOGETHER_API_KEY",
  "FIREWORKS_API_KEY",
  "COHERE_API_KEY",
  "LITELLM_API_KEY",
  "LITELLM_MASTER_KEY",
  "VLLM_API_KEY",
  "HF_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
];

/**
 * Protocol headers whose values are public: masking "application/json" or
 * "2023-06-01" would only garble messages (the registry and a port's error
 * scrubber both skip them).
 */
export const PUBLIC_HEADERS: ReadonlySet<string> = new Set([
  "content-type",
  "accept",
  "user-agent",
  "anthropic-version",
  "anthropic-beta",
  "openai-beta",
  "mcp-protocol-version",
]);

const registered = new Set<string>();
let pattern: RegExp | undefined;
let envRead = false;

/**
 * Registers `value` as a secret: from now on, in this process, it is masked
 * as `[REDACTED]` wherever the package writes or shows text (errors,
 * `transcript()`, tool results on their way to the model, cassettes,
 * `ChaosFailure`, evaluation reports). The package registers what it is
 * handed (a port's key and headers, an MCP provider's `secrets`, the
 * provider key variables); call it for a credential of your own that a
 * tool or a model might repeat. A value that is not a string, or shorter
 * than 8 characters ({@linkcode MIN_SECRET_LENGTH}), is ignored: it would
 * blank ordinary words. `Bearer <token>` registers the token alone too.
 *
 * @param value The secret.
 *
 * @example A database password a tool might echo
 * ```ts
 * import { registerSecret } from "@agentkit/testing/runtime";
 * import { transcript } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * registerSecret("db-pass-7731");
 * assertEquals(transcript([{ role: "tool", toolCallId: "c1", content: "login db-pass-7731" }]), "tool [call_1]: login [REDACTED]");
 * ```
 */
export function registerSecret(value: unknown): void {
  if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH) return;
  add(value);
  // `Bearer <token>`, `Basic <base64>`: the server may echo the credential alone.
  const [scheme, credential, ...more] = value.trim().split(/\s+/);
  if (credential !== undefined && more.length === 0) {
    if (credential.length >= MIN_SECRET_LENGTH) add(credential);
    if (scheme.toLowerCase() === "basic") {
      for (const part of decodeBasic(credential)) {
        if (part.length >= MIN_SECRET_LENGTH) add(part);
      }
    }
  }
}

/**
 * Registers every value of `headers` but the protocol ones (content type,
 * API version): a record, a `Headers`, or a list of pairs; anything else is
 * ignored (the caller refuses it where it was given).
 */
export function registerHeaders(headers: unknown): void {
  for (const [name, value] of headerEntries(headers)) {
    if (!PUBLIC_HEADERS.has(name.toLowerCase())) registerSecret(value);
  }
}

/**
 * What a provider port calls once in its constructor: its key (given or
 * read from the environment) and the values of its `headers` option.
 */
export function registerPortSecrets(apiKey: unknown, headers: unknown): void {
  registerSecret(apiKey);
  registerHeaders(headers);
  readKeyVariables();
}

/**
 * The values of the provider key variables, registered now (a key set
 * since the last read is caught). Without permission to read them: none.
 */
export function readKeyVariables(): void {
  envRead = true;
  for (const name of KEY_VARIABLES) registerSecret(readEnv(name));
}

/** Every registered value in `s` replaced by `mask`. */
export function maskSecrets(s: string, mask: string): string {
  if (!envRead) readKeyVariables();
  if (registered.size === 0 || s.length < MIN_SECRET_LENGTH) return s;
  pattern ??= new RegExp(
    // Longest first: a value that contains another is masked whole.
    [...registered].sort((a, b) => b.length - a.length).map(escape).join("|"),
    "g",
  );
  return s.replace(pattern, mask);
}

/** The entries of a header record, a `Headers` or a list of pairs; none for anything else. */
export function headerEntries(headers: unknown): Array<[string, string]> {
  if (headers === null || typeof headers !== "object") return [];
  const out: Array<[string, string]> = [];
  if (typeof Headers === "function" && headers instanceof Headers) {
    headers.forEach((value, name) => out.push([name, value]));
  } else if (Array.isArray(headers)) {
    for (const pair of headers) {
      if (Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string") {
        out.push([pair[0], pair[1]]);
      }
    }
  } else {
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value === "string") out.push([name, value]);
    }
  }
  return out;
}

function add(value: string): void {
  // A URL quotes it percent-encoded, JSON text with its escapes.
  const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
  for (const form of forms) {
    if (registered.has(form)) continue;
    registered.add(form);
    pattern = undefined;
  }
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

function decodeBasic(credential: string): string[] {
  try {
    const text = atob(credential);
    const colon = text.indexOf(":");
    return colon < 0 ? [text] : [text.slice(0, colon), text.slice(colon + 1), text];
  } catch {
    return [];
  }
}
