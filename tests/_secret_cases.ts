// The secret shapes every sink must mask (cassette files, transcript(),
// FakeProvider.requests, a port's errors), the prose none may touch, and a
// generator of secrets hidden in random text, shared by each sink's tests.
import fc from "fast-check";

/** One secret in its context: `text` holds it, `secret` must never be written. */
export interface SecretCase {
  readonly name: string;
  readonly text: string;
  readonly secret: string;
}

const PEM_BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun";

/** What the outside audit found leaking, and the rest of the engine's shapes. */
export const SECRET_CASES: readonly SecretCase[] = [
  {
    name: "OpenAI project key",
    text: "key sk-proj-Ab3dEf6hIj9kLm2nOp5q here",
    secret: "Ab3dEf6hIj9kLm2nOp5q",
  },
  {
    name: "Anthropic key",
    text: "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm",
    secret: "Zx9Yw8Vu7Ts6Rq5Po4Nm",
  },
  { name: "LiteLLM master key", text: "the gateway refused sk-1234.", secret: "sk-1234" },
  {
    name: "Stripe live key",
    text: "charge with sk_live_51HxYzAbCdEf123456",
    secret: "51HxYzAbCdEf123456",
  },
  { name: "Stripe restricted key", text: "rk_live_9aBcDeFgHiJkLmNo", secret: "9aBcDeFgHiJkLmNo" },
  {
    name: "Google API key",
    text: "AIzaSyD4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ12",
    secret: "SyD4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ12",
  },
  {
    name: "GitHub classic token",
    text: "push ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    secret: "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
  },
  {
    name: "GitHub fine-grained token",
    text: "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
    secret: "11ABCDEFG0123456789_abcdefghijklmnop",
  },
  {
    name: "AWS access key id",
    text: "id AKIAQ3EGRTY7Z5X2WB4N end",
    secret: "AKIAQ3EGRTY7Z5X2WB4N",
  },
  {
    name: "AWS secretAccessKey",
    text: "secretAccessKey=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
    secret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
  },
  {
    name: "Slack bot token",
    text: "xoxb-1234567890-abcdefghijKL",
    secret: "1234567890-abcdefghijKL",
  },
  {
    name: "Hugging Face token",
    text: "HF hf_AbCdEfGhIjKlMnOpQrStUvWxYz123456",
    secret: "AbCdEfGhIjKlMnOpQrStUvWxYz123456",
  },
  {
    name: "JWT",
    text: "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2hlcmU",
    secret: "c2lnbmF0dXJlX2hlcmU",
  },
  {
    name: "PEM private key",
    text: `key:\n-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----\n`,
    secret: PEM_BODY,
  },
  {
    name: "PEM private key cut short",
    text: `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}`,
    secret: PEM_BODY,
  },
  {
    name: "Bearer token (vLLM)",
    text: "Authorization: Bearer vllm-tok-98765",
    secret: "vllm-tok-98765",
  },
  {
    name: "Bearer token in prose",
    text: "sent Bearer abcdefghijklmnop to it",
    secret: "abcdefghijklmnop",
  },
  {
    name: "Basic credentials",
    text: "header Basic dXNlcjpodW50ZXIy sent",
    secret: "dXNlcjpodW50ZXIy",
  },
  { name: "api_token=", text: "api_token=lite9llm8tok", secret: "lite9llm8tok" },
  { name: "apiToken:", text: 'apiToken: "camelTokenValue"', secret: "camelTokenValue" },
  {
    name: "OPENAI_API_KEY=",
    text: "OPENAI_API_KEY=plainkeyvalue42 npm test",
    secret: "plainkeyvalue42",
  },
  { name: "password:", text: "password: swordfish", secret: "swordfish" },
  {
    name: "client_secret=",
    text: "client_secret=cs-oauth-0001&grant_type=x",
    secret: "cs-oauth-0001",
  },
  {
    name: "URL query api_key",
    text: "GET https://gw.example.com/v1?api-version=2024-06-01&api_key=q9w8e7r6t5",
    secret: "q9w8e7r6t5",
  },
  {
    name: "URL query key (Google)",
    text: "https://x.googleapis.com/v1?key=gkey0123456",
    secret: "gkey0123456",
  },
  {
    name: "URL userinfo",
    text: "via https://alice:s3cr3tpw@proxy.example.com/v1",
    secret: "s3cr3tpw",
  },
  {
    name: "database URL userinfo",
    text: "postgres://admin:hunter2x@db.local/app",
    secret: "hunter2x",
  },
  {
    name: "JSON apiKey in text",
    text: 'the body was {"apiKey": "json-key-4242", "ok": true}',
    secret: "json-key-4242",
  },
  {
    name: "escaped JSON api_key",
    text: '{"message":"{\\"api_key\\": \\"esc-key-555\\"}"}',
    secret: "esc-key-555",
  },
  {
    name: "JSON access_token",
    text: '{"access_token":"ya29.a0AfH6SMBx"}',
    secret: "ya29.a0AfH6SMBx",
  },
  {
    name: "Azure api-key header echo",
    text: "api-key: 0123456789abcdef0123456789abcdef",
    secret: "0123456789abcdef0123456789abcdef",
  },
  { name: "x-goog-api-key echo", text: "x-goog-api-key: goog-value-77", secret: "goog-value-77" },
  {
    name: "cookie header",
    text: "Cookie: session=sess-abc-987; theme=dark",
    secret: "sess-abc-987",
  },
  { name: "set-cookie header", text: "set-cookie: sid=sid-xyz-321; Path=/", secret: "sid-xyz-321" },
];

/** Ordinary text no redaction may change. */
export const PROSE: readonly string[] = [
  "the token count was 12",
  "keyboard shortcuts",
  "call lookup_key with the user id",
  "max_tokens=100 and input_tokens: 12, tokens: 5",
  "token_count: 12, key_id=7",
  "the Bearer of bad news, Bearer authentication",
  "Basic information about basic operations",
  "sk-learn is a library; so is sk-learn-models",
  "the task-1234abcd ran; the disk-0123456789 filled",
  "AKIA1234 and AKIAiosfodnn7example",
  "see http://localhost:8080/v1 for docs",
  "Note: the key is in the drawer",
  "ratio=3/4, time: 10:30",
  "email me at ann@example.com",
  "monkey: banana, hockey=ice",
  "authentication: required",
  "primary key constraint; a token bucket; passwordless login",
  '{"role":"user","content":"hi","api_key":null}',
  "https://api.openai.com/v1/chat/completions?api-version=2024-06-01",
];

const keyChar = fc.constantFrom(
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".split(""),
);

/** Random key material: 20 to 40 base62 characters. */
export const keyMaterial: fc.Arbitrary<string> = fc.string({
  unit: keyChar,
  minLength: 20,
  maxLength: 40,
});

// How a secret sits in text, as providers, gateways and users write it.
const SHAPES: ReadonlyArray<(k: string) => string> = [
  (k) => `sk-proj-${k}`,
  (k) => `sk-ant-api03-${k}`,
  (k) => `sk_live_${k}`,
  (k) => `ghp_${k}`,
  (k) => `hf_${k}`,
  (k) => `xoxb-${k}`,
  (k) => `api_key=${k}`,
  (k) => `apiToken: ${k}`,
  (k) => `OPENAI_API_KEY=${k}`,
  (k) => `"secretAccessKey": "${k}"`,
  (k) => `{"password":"${k}"}`,
  (k) => `https://gw.example.com/v1?x=1&access_token=${k}`,
  (k) => `https://user:${k}@proxy.example.com`,
  (k) => `Authorization: Bearer ${k}`,
  (k) => `x-api-key: ${k}`,
  (k) => `cookie: sid=${k}; theme=dark`,
  (k) => `-----BEGIN PRIVATE KEY-----\n${k}\n-----END PRIVATE KEY-----`,
  (k) => `eyJhbGciOiJIUzI1NiJ9.eyJ${k}.${k}`,
];

const prose = fc.array(fc.constantFrom(...PROSE, "lorem", "ipsum, dolor", "(sit)", "amet."), {
  maxLength: 4,
}).map((words) => words.join(" "));
const sep = fc.constantFrom(" ", "\n", ", ", " (", ": ", " - ");

/** A secret hidden in prose, in a JSON document, or in a URL; `secret` must not survive. */
export const hiddenSecret: fc.Arbitrary<{ text: string; secret: string }> = fc
  .record({
    k: keyMaterial,
    shape: fc.integer({ min: 0, max: SHAPES.length - 1 }),
    before: prose,
    after: prose,
    s1: sep,
    s2: sep,
    wrap: fc.constantFrom("prose", "json", "json-twice"),
  })
  .map(({ k, shape, before, after, s1, s2, wrap }) => {
    const plain = `${before}${s1}${SHAPES[shape](k)}${s2}${after}`;
    const text = wrap === "prose"
      ? plain
      : wrap === "json"
      ? JSON.stringify({ note: plain, n: 1 })
      : JSON.stringify({ error: { message: JSON.stringify({ detail: plain }) } });
    return { text, secret: k };
  });
