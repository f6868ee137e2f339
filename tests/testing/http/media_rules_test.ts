// The media-type rules of the OpenAI and Gemini wires (testing/http/_media_rules.ts),
// both ways: an inline image the real API refuses for its type is refused in
// the API's words at its path, and turned off by `except`; every type the API
// reads, sent by the official client, is served.
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { assertEquals } from "@std/assert";
import { FakeLLM, FakeProvider, WIRE_RULES } from "@agentkit/testing/testing";
import {
  chatMediaProblem,
  geminiMediaProblem,
  responsesMediaProblem,
} from "../../../testing/http/_media_rules.ts";
import { refuses, serves } from "./_strict_cases.ts";

const OPENAI_TEXT =
  "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";
const data = (type: string) => `data:${type};base64,AAAA`;

function provider(turns: number): FakeProvider {
  return new FakeProvider({ llm: FakeLLM.script(Array(turns).fill("ok")) });
}

Deno.test("media-type on Chat Completions: an image_url data URL of a type OpenAI does not read is refused", async () => {
  for (const type of ["image/bmp", "image/tiff", "application/pdf", "IMAGE/SVG+XML"]) {
    const e = await refuses(
      "chat.completions",
      {
        model: "gpt-4o",
        messages: [
          { role: "system", content: "s" },
          {
            role: "user",
            content: [{ type: "text", text: "see" }, {
              type: "image_url",
              image_url: { url: data(type) },
            }],
          },
        ],
      },
      "media-type",
      "messages[1].content[1].image_url.url",
    );
    assertEquals([e.message, e.code], [OPENAI_TEXT, "invalid_image_format"], type);
  }
});

Deno.test("media-type on Chat Completions: every type OpenAI reads, and an https image, served from the official client", async () => {
  const types = ["image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp", "Image/PNG"];
  const p = provider(1);
  await new OpenAI({ apiKey: "sk-test", fetch: p.fetch, maxRetries: 0 }).chat.completions.create({
    model: "gpt-4o",
    messages: [{
      role: "user",
      content: [
        ...types.map((t) => ({ type: "image_url" as const, image_url: { url: data(t) } })),
        { type: "image_url", image_url: { url: "https://example.com/a.bmp", detail: "low" } },
        { type: "text", text: "see" },
      ],
    }],
  });
  assertEquals(p.rejections, []);
});

Deno.test("media-type on Responses: an input_image data URL of a type OpenAI does not read is refused", async () => {
  const e = await refuses(
    "responses",
    {
      model: "gpt-4.1",
      input: [
        { role: "user", content: "first" },
        {
          role: "user",
          content: [
            { type: "input_text", text: "see" },
            { type: "input_image", image_url: data("image/bmp"), detail: "auto" },
          ],
        },
      ],
    },
    "media-type",
    "input[1].content[1].image_url",
  );
  assertEquals([e.message, e.code], [OPENAI_TEXT, "invalid_image_format"]);
});

Deno.test("media-type on Responses: every type OpenAI reads served from the official client; a file id or URL is not checked", async () => {
  const p = provider(1);
  await new OpenAI({ apiKey: "sk-test", fetch: p.fetch, maxRetries: 0 }).responses.create({
    model: "gpt-4.1",
    input: [{
      role: "user",
      content: [
        ...["image/png", "image/jpeg", "image/gif", "image/webp"].map((t) => ({
          type: "input_image" as const,
          image_url: data(t),
          detail: "auto" as const,
        })),
        { type: "input_image", image_url: "https://example.com/x.tiff", detail: "low" },
        { type: "input_image", file_id: "file-abc", detail: "high" },
      ],
    }],
  });
  assertEquals(p.rejections, []);
});

Deno.test("media-type on Gemini: an inline image type Gemini does not take, or no MIME type at all, is refused", async () => {
  for (
    const [type, key] of [["image/gif", "inlineData"], ["image/jpg", "inline_data"], [
      "png",
      "inlineData",
    ]]
  ) {
    const inline = key === "inlineData"
      ? { mimeType: type, data: "AAAA" }
      : { mime_type: type, data: "AAAA" };
    const e = await refuses(
      "generateContent",
      {
        contents: [
          { role: "user", parts: [{ text: "first" }] },
          { role: "model", parts: [{ text: "ok" }] },
          { role: "user", parts: [{ text: "see" }, { [key]: inline }] },
        ],
      },
      "media-type",
      "contents[2].parts[1].inlineData.mimeType",
    );
    assertEquals(e.message, `Unsupported MIME type: ${type}`);
  }
});

Deno.test("media-type on Gemini: every image type it takes, and other media, served from the official client", async () => {
  const types = [
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/heic",
    "image/heif",
    "application/pdf",
    "audio/wav",
    "video/mp4",
    "text/plain",
  ];
  const p = provider(1);
  const ai = new GoogleGenAI({
    apiKey: "AIza-test",
    httpOptions: { baseUrl: "https://g.example", fetch: p.fetch } as never,
  });
  await ai.models.generateContent({
    model: "gemini-2.5-flash",
    contents: [{
      role: "user",
      parts: [
        { text: "see" },
        ...types.map((mimeType) => ({ inlineData: { mimeType, data: "AAAA" } })),
      ],
    }],
  });
  assertEquals(p.rejections, []);
  await serves("generateContent", {
    contents: [{
      role: "user",
      parts: [{ inline_data: { mime_type: "image/png", data: "AAAA" } }],
    }],
  });
});

Deno.test("media-type checks walk any body: odd shapes are left to the other rules, data URLs read to their first ; or ,", () => {
  const none: ReadonlySet<string> = new Set();
  const off: ReadonlySet<string> = new Set(["media-type"]);
  const bmp = { type: "image_url", image_url: { url: "data:image/bmp;base64,Qk0=" } };
  for (
    const messages of [undefined, null, "hi", [null, 3, { content: "text" }, { content: null }]]
  ) {
    assertEquals(chatMediaProblem({ messages }, none), undefined);
  }
  assertEquals(
    chatMediaProblem({
      messages: [{
        role: "user",
        content: [
          null,
          "x",
          { type: "text", text: "data:image/bmp," },
          {
            type: "image_url",
          },
          { type: "image_url", image_url: null },
          { type: "input_image", image_url: "data:image/bmp," },
          bmp,
        ],
      }],
    }, none)?.path,
    "messages[0].content[6].image_url.url",
  );
  assertEquals(chatMediaProblem({ messages: [{ content: [bmp] }] }, off), undefined);
  // The declared type ends at the first ; or , (or runs to the end), any case.
  const chat = (url: string) =>
    chatMediaProblem(
      { messages: [{ content: [{ type: "image_url", image_url: { url } }] }] },
      none,
    );
  for (
    const ok of [
      "data:image/png,AAAA",
      "data:image/GIF;base64,R0lG",
      "https://x/a.bmp",
      "data:image/webp",
    ]
  ) {
    assertEquals(chat(ok), undefined, ok);
  }
  for (
    const bad of [
      "data:image/bmp,AAAA",
      "data:image/pngx;base64,AAAA",
      "data:image/bmp",
      "data:,AAAA",
    ]
  ) {
    assertEquals(chat(bad)?.rule, "media-type", bad);
  }
  assertEquals(responsesMediaProblem({ input: "data:image/bmp," }, none), undefined);
  assertEquals(
    responsesMediaProblem({
      input: [{ content: "x" }, {
        content: [{ type: "image_url", image_url: { url: "data:image/bmp," } }, {
          type: "input_image",
          image_url: "data:image/png,",
        }, { type: "input_image", image_url: "data:image/bmp," }],
      }],
    }, none)?.path,
    "input[1].content[2].image_url",
  );
  assertEquals(
    responsesMediaProblem({
      input: [{ content: [{ type: "input_image", image_url: "data:image/bmp," }] }],
    }, off),
    undefined,
  );
  const gif = { inlineData: { mimeType: "image/gif", data: "R0lG" } };
  for (
    const contents of [undefined, "hi", [null, { parts: "x" }, { parts: [null, { text: "a" }] }]]
  ) {
    assertEquals(geminiMediaProblem({ contents }, none), undefined);
  }
  assertEquals(
    geminiMediaProblem({
      contents: [{ parts: [{ text: "a" }] }, {
        parts: [{ inlineData: { data: "x" } }, { inlineData: { mimeType: 3 } }, {
          inline_data: { mime_type: "image/png" },
        }, gif],
      }],
    }, none)?.path,
    "contents[1].parts[3].inlineData.mimeType",
  );
  assertEquals(geminiMediaProblem({ contents: [{ parts: [gif] }] }, off), undefined);
});

Deno.test("media-type is in WIRE_RULES for all four APIs, each with what it refuses and its source", () => {
  const rule = WIRE_RULES["media-type"];
  assertEquals([...rule.api].sort(), [
    "chat.completions",
    "generateContent",
    "messages",
    "responses",
  ]);
  const lines = (text: string) =>
    Object.fromEntries(text.split("\n").map((l) => [l.slice(0, l.indexOf(":")), l]));
  const described = lines(rule.description);
  const sourced = lines(rule.source);
  for (
    const [api, words] of [
      ["chat.completions", ["image_url", "image/webp"]],
      ["responses", ["input_image", "image/gif"]],
      ["generateContent", ["inlineData", "image/heif"]],
    ] as const
  ) {
    for (const w of words) assertEquals(described[api].includes(w), true, `${api}: ${w}`);
  }
  assertEquals(sourced["chat.completions"].includes("invalid_image_format"), true);
  assertEquals(sourced["responses"].includes("Image input requirements"), true);
  assertEquals(sourced["generateContent"].includes("Unsupported MIME type: image/gif"), true);
});
