// The credentials an MCP client holds, for the process's secret registry
// (../_secrets/registry.ts): the provider's `secrets` option, and the headers an SDK
// transport sends. The SDK keeps them in a field of its own
// (`StreamableHTTPClientTransport` and `SSEClientTransport` both store the
// constructor's `opts.requestInit` as `_requestInit`, read by their
// `_commonHeaders()`: @modelcontextprotocol/sdk 1.x,
// dist/esm/client/streamableHttp.js and sse.js); a client of another make,
// or a transport without it, contributes only what `secrets` lists.
import { registerHeaders, registerSecret } from "../_secrets/registry.ts";

/** Registers `secrets` and the headers of `client`'s transport, when it has one. */
export function registerMcpSecrets(client: object, secrets: readonly string[] | undefined): void {
  if (secrets) { for (const secret of secrets) registerSecret(secret); }
  let transport: unknown;
  try {
    transport = (client as { transport?: unknown }).transport;
  } catch {
    // A getter that throws (a client not connected yet) has no headers to give.
    return;
  }
  if (typeof transport !== "object" || transport === null) return;
  const t = transport as {
    _requestInit?: { headers?: unknown };
    requestInit?: { headers?: unknown };
  };
  registerHeaders(t._requestInit?.headers ?? t.requestInit?.headers);
}
