// The process's secret registry: what it takes, in which forms it masks it,
// and what it leaves alone. The registry is the process's, and what it holds
// is never forgotten, so every value here carries a nonce fresh for each run
// of the file: a second run in the same process (a mutation runner's warm
// one) starts from values nobody registered yet.
import { assertEquals } from "@std/assert";
import {
  headerEntries,
  KEY_VARIABLES,
  maskSecrets,
  MIN_SECRET_LENGTH,
  readKeyVariables,
  registerHeaders,
  registerPortSecrets,
  registerSecret,
} from "../../../runtime/_secrets/registry.ts";
import { registerMcpSecrets } from "../../../runtime/tools/_mcp_secrets.ts";

const M = "#";
const nonce = (): string => crypto.randomUUID().replaceAll("-", "").slice(0, 10);

Deno.test("registerSecret() masks a value verbatim, in a URL's and JSON's forms too", () => {
  const n = nonce();
  registerSecret(`a${n}/b c"d`);
  assertEquals(maskSecrets(`x a${n}/b c"d y`, M), "x # y");
  assertEquals(maskSecrets(`?k=a${n}%2Fb%20c%22d&`, M), "?k=#&");
  assertEquals(maskSecrets(`{"k":"a${n}/b c\\"d"}`, M), '{"k":"#"}');
  // Regular-expression characters are matched as themselves.
  registerSecret(`r${n}.*+?^$()[]{}|`);
  assertEquals(maskSecrets(`r${n}.*+?^$()[]{}| r${n}x`, M), `# r${n}x`);
});

Deno.test("registerSecret() ignores what is not a string or shorter than the minimum", () => {
  const n = nonce();
  assertEquals(MIN_SECRET_LENGTH, 8);
  const seven = n.slice(0, 7);
  for (const v of [undefined, null, 12345678, { v: `o${n}` }, seven]) registerSecret(v);
  assertEquals(maskSecrets(`${seven} 12345678 o${n}`, M), `${seven} 12345678 o${n}`);
  const eight = n.slice(0, 8);
  registerSecret(eight);
  assertEquals(maskSecrets(`${eight}`, M), "#");
  // A text shorter than any secret is given back as it is.
  assertEquals(maskSecrets("short", M), "short");
});

Deno.test("registerSecret() masks the longer of two values that overlap whole", () => {
  const n = nonce();
  registerSecret(`l${n}`);
  registerSecret(`l${n}efgh`);
  assertEquals(maskSecrets(`l${n}efgh l${n}`, M), "# #");
});

Deno.test("registerSecret() registers a Bearer or Basic credential alone, and Basic's parts", () => {
  const n = nonce();
  registerSecret(`Bearer t${n}`);
  assertEquals(maskSecrets(`got t${n}`, M), "got #");
  registerSecret(`basic ${btoa(`u${n}:p${n}`)}`);
  assertEquals(maskSecrets(`u${n} / p${n} / u${n}:p${n}`, M), "# / # / #");
  // A part shorter than the minimum is not registered alone.
  registerSecret(`Basic ${btoa(`abc:q${n}`)}`);
  assertEquals(maskSecrets(`abc q${n}`, M), "abc #");
  // A credential shorter than the minimum is not registered alone.
  const short = n.slice(0, 7);
  registerSecret(`Bearer ${short}`);
  assertEquals(maskSecrets(short, M), short);
  // Three words are not a scheme and a credential: only the whole.
  registerSecret(`w${n} three words`);
  assertEquals(maskSecrets(`w${n} three words / words`, M), "# / words");
  // A token after another scheme: the credential, but no decoding.
  registerSecret(`Token ${btoa(`v${n}:s${n}`)}`);
  assertEquals(maskSecrets(`v${n}`, M), `v${n}`);
  // Base64 without a colon: the decoded text as one value.
  registerSecret(`Basic ${btoa(`c${n}`)}`);
  assertEquals(maskSecrets(`c${n}`, M), "#");
  // A Basic credential that is not base64 is registered whole only.
  registerSecret(`Basic %%${n}`);
  assertEquals(maskSecrets(`%%${n}`, M), "#");
});

Deno.test("registerSecret() reads the credential of a padded or widely spaced value, at the minimum length", () => {
  const n = nonce();
  const eight = (c: string) => `${c}${n.slice(0, 7)}`;
  registerSecret(`  Bearer   ${eight("a")}  `);
  registerSecret(`Basic ${btoa(`${eight("b")}:${eight("c")}`)}`);
  registerSecret(`Basic ${btoa(`:${eight("d")}`)}`);
  assertEquals(maskSecrets(`${eight("a")} ${eight("b")} ${eight("c")}`, M), "# # #");
  assertEquals(maskSecrets(`${eight("d")}`, M), "#");
});

Deno.test("registerHeaders() takes a record, a Headers or pairs, skipping protocol headers", () => {
  const n = nonce();
  registerHeaders({ "x-a": `h1${n}`, "Content-Type": `h2${n}` });
  registerHeaders(new Headers({ "x-b": `h3${n}` }));
  registerHeaders([["x-c", `h4${n}`], ["bad"], ["x-d", 5], "no", [5, `h5${n}`]]);
  registerHeaders(`h6${n}`);
  registerHeaders(null);
  assertEquals(maskSecrets(`h1${n} h3${n} h4${n}`, M), "# # #");
  assertEquals(maskSecrets(`h2${n} h5${n} h6${n}`, M), `h2${n} h5${n} h6${n}`);
  const publicOnes = [
    "content-type",
    "accept",
    "user-agent",
    "anthropic-version",
    "anthropic-beta",
    "openai-beta",
    "mcp-protocol-version",
  ];
  registerHeaders(Object.fromEntries(publicOnes.map((h, i) => [h, `p${i}${n}`])));
  const values = publicOnes.map((_, i) => `p${i}${n}`).join(" ");
  assertEquals(maskSecrets(values, M), values);
});

Deno.test("headerEntries() reads a record's string values only, and nothing of a non-object", () => {
  assertEquals(headerEntries({ a: "1", b: 2 }), [["a", "1"]]);
  assertEquals(headerEntries(new Headers({ A: "1" })), [["a", "1"]]);
  assertEquals(headerEntries([["a", "1"], ["b"], "c", ["d", 2], [3, "e"]]), [["a", "1"]]);
  assertEquals(headerEntries(undefined), []);
  assertEquals(headerEntries(5), []);
  assertEquals(headerEntries("a: 1"), []);
});

Deno.test("registerPortSecrets() registers the key, the headers and the key variables", () => {
  const n = nonce();
  const before = Deno.env.get("GROQ_API_KEY");
  Deno.env.set("GROQ_API_KEY", `e${n}`);
  try {
    registerPortSecrets(`k${n}`, { "x-gw": `g${n}` });
    assertEquals(maskSecrets(`k${n} g${n} e${n}`, M), "# # #");
  } finally {
    if (before === undefined) Deno.env.delete("GROQ_API_KEY");
    else Deno.env.set("GROQ_API_KEY", before);
  }
});

Deno.test("readKeyVariables() reads every provider key variable, a key set since the last read too", () => {
  const names = [
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
  assertEquals(KEY_VARIABLES, names);
  readKeyVariables();
  const n = nonce();
  const before = names.map((name) => Deno.env.get(name));
  try {
    names.forEach((name, i) => Deno.env.set(name, `v${i}x${n}`));
    const values = names.map((_, i) => `v${i}x${n}`).join(" ");
    // Read once already: a key set since is masked after the next read.
    assertEquals(maskSecrets(values, M), values);
    readKeyVariables();
    assertEquals(maskSecrets(values, M), names.map(() => "#").join(" "));
  } finally {
    names.forEach((name, i) =>
      before[i] === undefined ? Deno.env.delete(name) : Deno.env.set(name, before[i]!)
    );
  }
});

Deno.test("an MCP client's secrets and its SDK transport's headers are registered", () => {
  const n = nonce();
  registerMcpSecrets({ transport: { _requestInit: { headers: { "x-k": `t${n}` } } } }, [`s${n}`]);
  registerMcpSecrets({ transport: { requestInit: { headers: [["x-k", `r${n}`]] } } }, undefined);
  registerMcpSecrets({
    get transport(): never {
      throw new Error("not connected");
    },
  }, undefined);
  registerMcpSecrets({}, undefined);
  assertEquals(maskSecrets(`t${n} s${n} r${n}`, M), "# # #");
});
