// The credentials an MCP client holds reach the process's secret registry:
// the provider's `secrets`, and an SDK transport's request headers.
import { assertEquals } from "@std/assert";
import { registerMcpSecrets } from "../../../runtime/tools/_mcp_secrets.ts";
import { maskSecrets } from "../../../runtime/_secrets/registry.ts";

// The registry never forgets: every run needs values it has not seen.
const fresh = () => `mcp-secret-${crypto.randomUUID()}`;
const masked = (value: string) => maskSecrets(`says ${value}`, "[REDACTED]") === "says [REDACTED]";

Deno.test("registerMcpSecrets(): the secrets option, each value", () => {
  const [a, b] = [fresh(), fresh()];
  registerMcpSecrets({}, [a, b]);
  assertEquals([masked(a), masked(b)], [true, true]);
});

Deno.test("registerMcpSecrets(): an SDK transport's headers, as the SDK keeps them or as given", () => {
  const [kept, given, other] = [fresh(), fresh(), fresh()];
  registerMcpSecrets(
    { transport: { _requestInit: { headers: { "x-api-key": kept } } } },
    undefined,
  );
  registerMcpSecrets({
    transport: { requestInit: { headers: { authorization: `Bearer ${given}` } } },
  }, []);
  assertEquals([masked(kept), masked(given), masked(other)], [true, true, false]);
});

Deno.test("registerMcpSecrets(): a client without a transport, or one whose transport throws, gives only its secrets", () => {
  const [a, b] = [fresh(), fresh()];
  registerMcpSecrets({ transport: undefined }, [a]);
  registerMcpSecrets({ transport: {} }, undefined);
  registerMcpSecrets({ transport: { _requestInit: {} } }, undefined);
  registerMcpSecrets({ transport: { requestInit: {} } }, undefined);
  registerMcpSecrets({ transport: "not a transport" }, undefined);
  registerMcpSecrets({ transport: null }, undefined);
  const throwing = {
    get transport(): never {
      throw new Error("not connected");
    },
  };
  registerMcpSecrets(throwing, [b]);
  assertEquals([masked(a), masked(b)], [true, true]);
});
