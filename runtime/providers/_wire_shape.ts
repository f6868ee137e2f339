// Reading a provider's JSON without trusting it. A 2xx answer from a proxy,
// a gateway or a half-compatible server can be any JSON at all; each reader
// here either returns the field as the API documents it or throws a
// non-retryable ProviderResponseError naming the field and what came, so a
// broken answer never turns into an empty one, and a token count that is not
// a count never reaches a meter.
import { ProviderResponseError } from "../../ports/provider_errors.ts";
import { preview } from "../_preview.ts";

/** Thrown by the readers; a stream fold turns it into its error event. */
export class MalformedAnswer extends ProviderResponseError {
  constructor(provider: string, what: string, got: unknown) {
    super(
      `${provider} sent an answer that is not its API's shape: ${what}, got ${
        preview(got)
      }; the server (or a proxy in front of it) does not speak this API as documented, so nothing of the answer was used`,
      { retryable: false, phase: "pre_stream" },
    );
    this.name = "ProviderResponseError";
  }
}

/** Whether `v` is a JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `v` as an object, or the error naming `path`. */
export function objectAt(provider: string, path: string, v: unknown): Record<string, unknown> {
  if (!isObject(v)) throw new MalformedAnswer(provider, `${path} must be an object`, v);
  return v;
}

/** An optional string field: `undefined`/`null` pass as `undefined`. */
export function stringAt(provider: string, path: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new MalformedAnswer(provider, `${path} must be a string`, v);
  return v;
}

/**
 * An optional token count: a non-negative safe integer, or absent. A count
 * sent as a string, a fraction or a negative is refused rather than
 * coerced: a meter must never add "7" + 0.
 */
export function tokensAt(provider: string, path: string, v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
    throw new MalformedAnswer(provider, `${path} must be a non-negative integer token count`, v);
  }
  return v;
}
