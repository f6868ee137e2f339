// The in-memory transport: the client's end of a connection, in the shape
// of the SDK's Transport interface (src/shared/transport.ts: start, send,
// close, onmessage, onclose, onerror), so `client.connect(server.transport())`
// works as with the SDK's InMemoryTransport, whose wording for a send after
// close ("Not connected") it keeps.
import type { RequestId } from "./_jsonrpc.ts";
import type { McpSession, Outbox } from "./_mcp_session.ts";

/**
 * The client's end of an in-memory connection to a `FakeMcpServer`: what
 * `new Client(info).connect(...)` of `@modelcontextprotocol/sdk` takes.
 */
export interface FakeMcpTransport {
  /** Opens the connection (a transport starts once). */
  start(): Promise<void>;
  /** Sends one JSON-RPC message (or its JSON text) to the server. */
  send(message: unknown, options?: unknown): Promise<void>;
  /** Closes the connection; `onclose` fires once. */
  close(): Promise<void>;
  /** Set by the client: each message from the server. */
  onmessage?: (<T>(message: T, extra?: unknown) => void) | undefined;
  /** Set by the client: the connection closed (either side, or a scripted disconnect). */
  onclose?: (() => void) | undefined;
  /** Set by the client: a transport-level error. */
  onerror?: ((error: Error) => void) | undefined;
  /** The session id (none in memory). */
  sessionId?: string | undefined;
  /** Told the negotiated protocol version by the SDK client. */
  setProtocolVersion?: (version: string) => void;
}

/** Builds the client's end of a new session. */
export function memoryTransport(open: (out: Outbox) => McpSession): FakeMcpTransport {
  let session: McpSession | undefined;
  let state: "new" | "open" | "closed" = "new";
  const transport: FakeMcpTransport = {
    start() {
      if (state !== "new") {
        return Promise.reject(
          new Error(
            "FakeMcpServer transport already started; take a new server.transport() per client",
          ),
        );
      }
      state = "open";
      session = open({
        send(message: unknown) {
          if (state === "open") transport.onmessage?.(message);
        },
        disconnect(_related: RequestId) {
          void transport.close();
        },
        end() {},
        close() {
          void transport.close();
        },
      });
      return Promise.resolve();
    },
    send(message: unknown) {
      if (state !== "open") return Promise.reject(new Error("Not connected"));
      session!.receive(message);
      return Promise.resolve();
    },
    close() {
      if (state === "closed") return Promise.resolve();
      const was = state;
      state = "closed";
      session?.close();
      if (was === "open") transport.onclose?.();
      return Promise.resolve();
    },
    setProtocolVersion() {},
  };
  return transport;
}
