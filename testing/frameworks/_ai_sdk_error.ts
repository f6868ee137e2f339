// A port failure as the AI SDK sees a provider failure: an `APICallError`.
// The SDK recognises its errors by global symbols (`Symbol.for("vercel.ai.
// error.AI_APICallError")`), not by class, so this one passes its
// `APICallError.isInstance` check without importing `ai`, and its retry loop
// re-invokes the model when `isRetryable` is true and honours `retry-after-ms`.
import {
  ProviderError,
  ProviderTimeoutError,
  RateLimitError,
} from "../../ports/provider_errors.ts";
import { HarnessError } from "../../runtime/harness_error.ts";

const SDK_ERROR = Symbol.for("vercel.ai.error");
const API_CALL_ERROR = Symbol.for("vercel.ai.error.AI_APICallError");

/** The shape of the AI SDK's `APICallError`; `cause` is the port's error. */
class ApiCallError extends Error {
  readonly [SDK_ERROR] = true;
  readonly [API_CALL_ERROR] = true;
  readonly url: string;
  readonly requestBodyValues: unknown;
  readonly statusCode: number;
  readonly responseHeaders: Record<string, string> | undefined;
  readonly responseBody: string | undefined = undefined;
  readonly isRetryable: boolean;
  readonly data: unknown = undefined;

  constructor(error: ProviderError, url: string, body: unknown) {
    super(error.message, { cause: error });
    this.name = "AI_APICallError";
    this.url = url;
    this.requestBodyValues = body;
    this.statusCode = statusOf(error);
    // Only a failure before the first token may be re-sent: a retry after
    // streamed tokens would show the user the answer twice.
    this.isRetryable = error.retryable && error.phase === "pre_stream";
    const after = error instanceof RateLimitError ? error.retryAfterMs : undefined;
    this.responseHeaders = after === undefined ? undefined : { "retry-after-ms": String(after) };
  }
}

function statusOf(error: ProviderError): number {
  const status = (error as { status?: unknown }).status;
  if (typeof status === "number") return status;
  if (error instanceof RateLimitError) return 429;
  if (error instanceof ProviderTimeoutError) return 408;
  return error.retryable ? 503 : 400;
}

/**
 * What the SDK should see for a failure of the port: a provider error becomes
 * an `APICallError` (its `cause` the original); harness errors, cancellations
 * and anything else pass unchanged, so `ScriptExhausted` reaches the test.
 */
export function toSdkError(error: unknown, url: string, body: unknown): unknown {
  if (error instanceof HarnessError || !(error instanceof ProviderError)) return error;
  return new ApiCallError(error, url, body);
}
