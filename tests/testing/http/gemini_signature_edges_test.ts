// Gemini 3's signature rule at its edges (testing/http/_gemini_rules.ts): a
// call this provider signed must come back with its own signature or one of
// Google's documented dummies, plain or base64; a hand-built call's first
// part needs a signature that is not empty; each refusal names the part.
import { assertEquals } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import { json } from "./_wire_fetch.ts";

const PATH = "/v1beta/models/gemini-3-pro-preview:generateContent";
const user = { role: "user", parts: [{ text: "hi" }] };
const DUMMIES = [
  "context_engineering_is_the_way_to_go",
  "skip_thought_signature_validator",
  btoa("context_engineering_is_the_way_to_go"),
  btoa("skip_thought_signature_validator"),
];

function answer(id: string, name: string) {
  return { role: "user", parts: [{ functionResponse: { id, name, response: { output: 1 } } }] };
}

Deno.test("Gemini 3: a signed call comes back with its own signature or a dummy; any other is refused", async () => {
  const turns = [{ toolCalls: [toolCall("call_1", "f", {})] }, ...Array(8).fill("ok")];
  const p = new FakeProvider({ llm: FakeLLM.script(turns, { strictTools: false }) });
  const first = await json(p, PATH, { contents: [user] });
  const parts =
    (first.body.candidates as Array<{ content: { parts: Array<Record<string, unknown>> } }>)[0]
      .content.parts;
  const call = parts.find((x) => x.functionCall)!;
  const signed = call.thoughtSignature as string;
  const back = (signature: string | undefined) => ({
    contents: [
      user,
      { role: "model", parts: [{ ...call, thoughtSignature: signature }] },
      answer("call_1", "f"),
    ],
  });
  for (const sig of [signed, ...DUMMIES]) {
    assertEquals((await json(p, PATH, back(sig))).status, 200, sig);
  }
  for (const sig of ["not-the-one", "", undefined]) {
    const refused = await json(p, PATH, back(sig));
    assertEquals(refused.status, 400, String(sig));
  }
  assertEquals(
    p.rejections.map((r) => [r.rule, r.path]),
    Array(3).fill(["thought-signature-missing", "contents[1].parts[0].thoughtSignature"]),
  );
});

Deno.test("Gemini 3: a hand-built call's first part needs a signature that is not empty; the second part needs none", async () => {
  const p = new FakeProvider({ llm: FakeLLM.script(Array(8).fill("ok")) });
  const history = (sig: unknown, id?: string) => ({
    contents: [
      user,
      {
        role: "model",
        parts: [
          { text: "checking" },
          {
            functionCall: { ...(id ? { id } : {}), name: "f", args: {} },
            ...(sig === undefined ? {} : { thoughtSignature: sig }),
          },
          { functionCall: { name: "g", args: {} } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "f", response: {} } },
          { functionResponse: { name: "g", response: {} } },
        ],
      },
    ],
  });
  for (const sig of [...DUMMIES, "any-signature"]) {
    assertEquals((await json(p, PATH, history(sig))).status, 200, sig);
  }
  // An id this provider never issued is a hand-built call too.
  assertEquals((await json(p, PATH, history("x", "call_never_issued"))).status, 200);
  for (const sig of ["", undefined, 5]) {
    assertEquals((await json(p, PATH, history(sig))).status, 400, String(sig));
  }
  assertEquals(
    p.rejections.map((r) => r.path),
    Array(3).fill("contents[1].parts[1].thoughtSignature"),
  );
});

Deno.test("Gemini 3: the model is read from the decoded path, so an escaped name meets the same rule", async () => {
  const p = new FakeProvider({ llm: FakeLLM.script(Array(4).fill("ok")) });
  const unsigned = {
    contents: [
      user,
      { role: "model", parts: [{ functionCall: { name: "f", args: {} } }] },
      { role: "user", parts: [{ functionResponse: { name: "f", response: {} } }] },
    ],
  };
  // "gemini%2D3" is "gemini-3" with its hyphen escaped, as a client may send it.
  const escaped = "/v1beta/models/gemini%2D3-pro-preview:generateContent";
  assertEquals((await json(p, escaped, unsigned)).status, 400);
  assertEquals(p.rejections.map((r) => r.rule), ["thought-signature-missing"]);
  // An escape that is not one ("%zz") is read as written: not a Gemini 3 model, no rule.
  const broken = "/v1beta/models/gemini%zz3-pro:generateContent";
  await json(p, broken, unsigned);
  assertEquals(p.rejections.length, 1);
});
