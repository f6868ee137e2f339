// The provider's faults: what goes wrong between the agent and a model that
// would have answered. None of them takes the script's turn: the script's
// next turn answers the next call (the retry).
import {
  ProviderError,
  ProviderTimeoutError,
  RateLimitError,
} from "../../ports/provider_errors.ts";
import { type Fc, type ModelFault, NO_PARAMS, rejected } from "./_fault_kit.ts";

const RETRY_AFTER_MS = [1500, 500, 5000, 30_000] as const;
const STATUSES = [503, 500, 502] as const;
const TIMEOUT_AFTER_MS = [30_000, 10_000, 60_000] as const;
const CUT_CHUNKS = ["I will look ", "that up ", "now"] as const;

const choice = (n: number) => (fc: Fc) => fc.record({ v: fc.nat({ max: n - 1 }) });

/** The provider faults by kind. */
export const PROVIDER_FAULTS: Readonly<Record<string, ModelFault>> = {
  // A 429 before any token, with the provider's retry-after hint.
  rateLimit: {
    params: choice(RETRY_AFTER_MS.length),
    serve: (p) => {
      const ms = RETRY_AFTER_MS[p.v as number];
      const message = "Rate limit reached for requests (chaos rateLimit)";
      return {
        turn: { gate: rejected(new RateLimitError(message, { retryAfterMs: ms })) },
        args: `retryAfterMs=${ms}`,
        source: `{ error: new RateLimitError(${
          JSON.stringify(message)
        }, { retryAfterMs: ${ms} }) }`,
      };
    },
  },
  // A retryable 5xx before any token.
  serverError: {
    params: choice(STATUSES.length),
    serve: (p) => {
      const status = STATUSES[p.v as number];
      const message =
        `The server had an error while processing your request (chaos serverError ${status})`;
      return {
        turn: { gate: rejected(new ProviderError(message, { retryable: true, status })) },
        args: `status=${status}`,
        source: `{ error: new ProviderError(${
          JSON.stringify(message)
        }, { retryable: true, status: ${status} }) }`,
      };
    },
  },
  // The provider holds the call, then times out before any token.
  timeout: {
    params: choice(TIMEOUT_AFTER_MS.length),
    serve: (p, call) => {
      const ms = TIMEOUT_AFTER_MS[p.v as number];
      const message = `Request timed out after ${ms} ms (chaos timeout)`;
      const gate = call.sleep(ms).then(() => {
        throw new ProviderTimeoutError(message);
      });
      gate.catch(() => {});
      return {
        turn: { gate },
        args: `afterMs=${ms}`,
        source: `{ error: new ProviderTimeoutError(${
          JSON.stringify(message)
        }), firstChunkDelayMs: ${ms} }`,
      };
    },
  },
  // Tokens were sent, then the connection broke: not retryable.
  midStreamCut: {
    params: choice(CUT_CHUNKS.length),
    serve: (p) => {
      const n = p.v as number;
      return {
        turn: { chunks: [...CUT_CHUNKS], failAfterChunks: n },
        args: `afterChunks=${n}`,
      };
    },
  },
  // The call is held open and sends nothing until it is cancelled.
  stall: {
    params: NO_PARAMS,
    serve: (_, call) => ({
      turn: { gate: call.stopped },
      args: "",
      source: "{ gate: new Promise(() => {}) }",
    }),
  },
};
