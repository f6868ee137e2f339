// A blocking call answered without a promise when its answer is ready.
//
// What ./_pull.ts does for a stream's steps, this does for a blocking model
// call and a tool call. Under `agent.run` a scripted double has its answer at
// once, yet through `chat()` and `call()` every layer (the double, each
// middleware, the invoker's span, the cognition) adds a promise and a
// microtask turn. A port of the package may also offer the same call under a
// symbol: it returns the answer as is when it is ready and a promise when it
// is not, and throws a ready failure rather than rejecting. Callers go
// through `chatNow()` and `callNow()`, which fall back to the public method
// for any other port, so every port keeps its plain promise face.
import type { ChatRequest, ChatResponse } from "../ports/chat.ts";
import type { Ctx } from "../ports/context.ts";

/** The answer as is when it is ready, else a promise of it. */
export type Now<T> = T | Promise<T>;

/** The blocking model call of a port that may answer without a promise. */
export const CHAT_NOW: unique symbol = Symbol("agentkit.chatNow");

/** The call of a tool that may answer without a promise. */
export const CALL_NOW: unique symbol = Symbol("agentkit.callNow");

/** The invoker's tool call (`callTool`), answered without a promise when it is ready. */
export const TOOL_NOW: unique symbol = Symbol("agentkit.toolNow");

interface ChatPort {
  chat(request: ChatRequest, ctx?: Ctx): Promise<ChatResponse>;
  [CHAT_NOW]?(request: ChatRequest, ctx?: Ctx): Now<ChatResponse>;
}

interface CallPort {
  call(args: Record<string, unknown>, ctx: Ctx): Promise<unknown>;
  [CALL_NOW]?(args: Record<string, unknown>, ctx: Ctx, validated: true): Now<unknown>;
}

/** `port.chat(request, ctx)`, as is when the port has the answer ready. */
export function chatNow(port: ChatPort, request: ChatRequest, ctx: Ctx): Now<ChatResponse> {
  const own = port[CHAT_NOW];
  return own === undefined ? adopt(port.chat(request, ctx)) : own.call(port, request, ctx);
}

/**
 * `tool.call(args, ctx)`, as is when the tool has the answer ready. The
 * arguments are the invoker's, already validated against the tool's schema:
 * a tool that would check them again (a double) is told so, since checking a
 * schema's output against it fails where the schema transforms.
 */
export function callNow(tool: CallPort, args: Record<string, unknown>, ctx: Ctx): Now<unknown> {
  const own = tool[CALL_NOW];
  return own === undefined ? adopt(tool.call(args, ctx)) : own.call(tool, args, ctx, true);
}

interface ToolInvoker<I> {
  [TOOL_NOW](invocation: I, ctx: Ctx): Now<unknown>;
}

/** `invoker.callTool(invocation, ctx)`, as is when the tool's answer is ready. */
export function toolNow<I>(invoker: object, invocation: I, ctx: Ctx): Now<unknown> {
  return (invoker as ToolInvoker<I>)[TOOL_NOW](invocation, ctx);
}

/**
 * What a port or middleware of someone else's returned, as the ready path
 * takes it: a promise as it is, another thenable adopted (a promise of it),
 * and anything else, which the promise API would have wrapped, as is.
 */
export function adopt<T>(value: T | PromiseLike<T>): Now<T> {
  if (
    value instanceof Promise || value === null ||
    (typeof value !== "object" && typeof value !== "function")
  ) return value as Now<T>;
  return typeof (value as PromiseLike<T>).then === "function" ? Promise.resolve(value) : value as T;
}

/** The promise face of a call that may answer as is or throw. */
export function promised<T>(call: () => Now<T>): Promise<T> {
  try {
    const value = call();
    return value instanceof Promise ? value : Promise.resolve(value);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Gives the instances of a class, through its prototype `proto`, a `[key]`
 * method that is not enumerable and not in the class's declared type: how a
 * public class offers its ready path without it showing in its API. The
 * method is the class's own code, and takes the ready path only while the
 * instance's public method is the class's own: a test that replaced or spied
 * on it (an own property, a subclass) is called through it (see
 * `throughPublic`).
 */
export function offerNow(
  proto: object,
  key: typeof CHAT_NOW | typeof CALL_NOW | typeof TOOL_NOW,
  method: (this: never, a: never, b: never, c: never) => unknown,
): void {
  Object.defineProperty(proto, key, { value: method, writable: true, configurable: true });
}

/** A replaced public method's answer, as the ready path hands it on. */
export function throughPublic<A, B, R>(
  self: unknown,
  method: (this: unknown, a: A, b: B) => R | PromiseLike<R>,
  a: A,
  b: B,
): Now<R> {
  return adopt(method.call(self, a, b));
}
