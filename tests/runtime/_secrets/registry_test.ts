// The process's secret registry: what it takes, in which forms it masks it,
// and what it leaves alone. Each value is unique to its test: the registry
// is the process's, so a value registered here is masked for the rest of it.
import { assertEquals } from "@std/assert";
import {
  headerEntries,
  maskSecrets,
  MIN_SECRET_LENGTH,
  readKeyVariables,
  registerHeaders,
  registerPortSecrets,
  registerSecret,
} from "../../../runtime/_secrets/registry.ts";
import { registerMcpSecrets } from "../../../runtime/tools/_mcp_secrets.ts";

const M = "#";

Deno.test("registerSecret() masks a value verbatim, in a URL's and JSON's forms too", () => {
  registerSecret('reg1-a/b c"d');
  assertEquals(maskSecrets('x reg1-a/b c"d y', M), "x # y");
  assertEquals(maskSecrets("?k=reg1-a%2Fb%20c%22d&", M), "?k=#&");
  assertEquals(maskSecrets('{"k":"reg1-a/b c\\"d"}', M), '{"k":"#"}');
  // Regular-expression characters are matched as themselves.
  registerSecret("reg1.*+?^$()[]{}|");
  assertEquals(maskSecrets("reg1.*+?^$()[]{}| regX.*", M), "# regX.*");
});

Deno.test("registerSecret() ignores what is not a string or shorter than the minimum", () => {
  assertEquals(MIN_SECRET_LENGTH, 8);
  for (const v of [undefined, null, 12345678, { v: "reg2-object" }, "reg2-77"]) registerSecret(v);
  assertEquals(maskSecrets("reg2-77 12345678 reg2-object", M), "reg2-77 12345678 reg2-object");
  registerSecret("reg2-888");
  assertEquals(maskSecrets("reg2-888", M), "#");
});

Deno.test("registerSecret() masks the longer of two values that overlap whole", () => {
  registerSecret("reg3-abcd");
  registerSecret("reg3-abcdefgh");
  assertEquals(maskSecrets("reg3-abcdefgh reg3-abcd", M), "# #");
});

Deno.test("registerSecret() registers a Bearer or Basic credential alone, and Basic's parts", () => {
  registerSecret("Bearer reg4-token-x");
  assertEquals(maskSecrets("got reg4-token-x", M), "got #");
  registerSecret(`Basic ${btoa("reg4user:reg4password")}`);
  assertEquals(maskSecrets("reg4user / reg4password", M), "# / #");
  // A credential shorter than the minimum is not registered alone.
  registerSecret("Bearer reg4-sh");
  assertEquals(maskSecrets("reg4-sh", M), "reg4-sh");
  // Three words are not a scheme and a credential: only the whole.
  registerSecret("reg4 three words");
  assertEquals(maskSecrets("reg4 three words / three", M), "# / three");
  // A Basic credential that is not base64 is registered whole only.
  registerSecret("Basic reg4-%%notbase64");
  assertEquals(maskSecrets("reg4-%%notbase64", M), "#");
  // Base64 without a colon: the decoded text as one value.
  registerSecret(`Basic ${btoa("reg4-no-colon")}`);
  assertEquals(maskSecrets("reg4-no-colon", M), "#");
});

Deno.test("registerHeaders() takes a record, a Headers or pairs, skipping protocol headers", () => {
  registerHeaders({ "x-a": "reg5-record-v", "Content-Type": "reg5-content-type" });
  registerHeaders(new Headers({ "x-b": "reg5-headers-v", accept: "reg5-accept-val" }));
  registerHeaders([["x-c", "reg5-pairs-v1"], ["bad"], ["x-d", 5], "no"]);
  registerHeaders("reg5-a-string");
  registerHeaders(null);
  assertEquals(
    maskSecrets("reg5-record-v reg5-headers-v reg5-pairs-v1", M),
    "# # #",
  );
  assertEquals(
    maskSecrets("reg5-content-type reg5-accept-val reg5-a-string", M),
    "reg5-content-type reg5-accept-val reg5-a-string",
  );
});

Deno.test("headerEntries() reads a record's string values only, and nothing of a non-object", () => {
  assertEquals(headerEntries({ a: "1", b: 2 }), [["a", "1"]]);
  assertEquals(headerEntries(new Headers({ A: "1" })), [["a", "1"]]);
  assertEquals(headerEntries([["a", "1"], ["b"]]), [["a", "1"]]);
  assertEquals(headerEntries(undefined), []);
  assertEquals(headerEntries(5), []);
});

Deno.test("registerPortSecrets() registers the key, the headers and the key variables", () => {
  const before = Deno.env.get("GROQ_API_KEY");
  Deno.env.set("GROQ_API_KEY", "reg6-from-env");
  try {
    registerPortSecrets("reg6-api-key", { "x-gw": "reg6-header" });
    assertEquals(maskSecrets("reg6-api-key reg6-header reg6-from-env", M), "# # #");
  } finally {
    if (before === undefined) Deno.env.delete("GROQ_API_KEY");
    else Deno.env.set("GROQ_API_KEY", before);
  }
});

Deno.test("readKeyVariables() picks up a key set since the last read", () => {
  readKeyVariables();
  const before = Deno.env.get("HF_TOKEN");
  Deno.env.set("HF_TOKEN", "reg7-hf-token");
  try {
    assertEquals(maskSecrets("reg7-hf-token", M), "reg7-hf-token");
    readKeyVariables();
    assertEquals(maskSecrets("reg7-hf-token", M), "#");
  } finally {
    if (before === undefined) Deno.env.delete("HF_TOKEN");
    else Deno.env.set("HF_TOKEN", before);
  }
});

Deno.test("an MCP client's secrets and its SDK transport's headers are registered", () => {
  registerMcpSecrets({
    transport: { _requestInit: { headers: { "x-k": "reg8-transport" } } },
  }, [
    "reg8-secret",
  ]);
  registerMcpSecrets({
    transport: { requestInit: { headers: [["x-k", "reg8-public-ri"]] } },
  }, undefined);
  registerMcpSecrets({
    get transport(): never {
      throw new Error("not connected");
    },
  }, undefined);
  assertEquals(maskSecrets("reg8-transport reg8-secret reg8-public-ri", M), "# # #");
});
