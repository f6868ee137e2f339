// What a port is, besides the shell it shares with the others (./wire_port.ts):
// the facts of its wire (which key, from which variable, under which URL, with
// which headers) and three converters (encode a request, decode a blocking
// body, decode a stream). The shell does everything else the same way for
// every wire: options checking, the key and header values registered as
// secrets, the guard, fetch, failure classification, chat/stream/complete.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Rule } from "../_options.ts";
import type { WireStream } from "./_stream.ts";

/** One port's wire, fixed when the port is made (its options read once). */
export interface Wire {
  /** The endpoint; for a wire whose URL names the model, its base URL (credentials masked from it). */
  readonly url: string;
  /** The endpoint of one call, for a wire whose URL names the model (Gemini). */
  readonly endpoint?: (model: string, stream: boolean) => string;
  /** Our request in the wire's JSON. */
  readonly encode: (request: ChatRequest, stream: boolean) => unknown;
  /** The wire's blocking answer (parsed JSON, not yet checked) in ours. */
  readonly decode: (body: unknown, model: string) => ChatResponse;
  /** A fresh fold of one streamed answer's SSE messages into our events. */
  readonly decodeStream: () => WireStream;
}

/** A port's codec: the facts of its wire and how to build the wire from the options. */
export interface PortCodec<O> {
  /** The port's class name: in option errors and the guard's refusal. */
  readonly port: string;
  /** The provider's name, in error messages. */
  readonly provider: string;
  /** Where the key is read from when no `apiKey` is given: the first variable set wins. */
  readonly keyEnv: readonly [string, ...string[]];
  /** The base URL when no `baseURL` is given. */
  readonly baseURL: string;
  /** The rules of the port's own options, beside the shared ones. */
  readonly options?: Readonly<Record<string, Rule>>;
  /** The wire's own headers for this key (version, authentication): sent after the JSON ones. */
  readonly headers: (key: string | undefined) => Readonly<Record<string, string>>;
  /** The wire for these (checked) options and base URL. */
  readonly wire: (options: O, baseURL: string) => Wire;
}
