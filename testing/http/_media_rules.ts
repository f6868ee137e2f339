// The media-type rules of the OpenAI and Gemini wires (issue 36): an inline
// image the real API refuses for its type. Anthropic's is with its other
// field rules (_request_rules.ts). Each API decides by the type the request
// declares: a data URL's (OpenAI) or `inlineData.mimeType` (Gemini). Only
// what the API is known to refuse is refused, so nothing an official client
// sends for a supported format is: OpenAI reads the image's bytes, so a
// `data:image/jpg` JPEG passes, and Gemini's inline data takes audio, video,
// PDFs and text too, whose lists are not checked here.
import { obj, type RuleInfo, type RulesOff, type Violation } from "./_rules.ts";

const OPENAI_FORMATS = "['png', 'jpeg', 'gif', 'webp']";

// The image types OpenAI reads (Vision guide, "Image input requirements":
// PNG, JPEG, WEBP, non-animated GIF), and `image/jpg`, the JPEG alias
// browsers and clients write.
const OPENAI_IMAGES = new Set(["image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp"]);

// The image types Gemini's inline data takes (ai.google.dev/gemini-api/docs/
// image-understanding, Supported image formats).
const GEMINI_IMAGES = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/heic",
  "image/heif",
]);

const OPENAI_SOURCE =
  `OpenAI docs, Images and vision › Image input requirements: "Supported file types: PNG (.png), JPEG (.jpeg and .jpg), WEBP (.webp), Non-animated GIF (.gif)"; the real error, as public clients that match on it quote it: "You uploaded an unsupported image. Please make sure your image has of one the following formats: ${OPENAI_FORMATS}." (type "invalid_request_error", code "invalid_image_format")`;

/** The Chat Completions `media-type` rule's catalogue entry. */
export const CHAT_MEDIA_RULE: Readonly<Record<string, RuleInfo>> = {
  "media-type": {
    description:
      "An `image_url` part whose data URL is not image/png, image/jpeg, image/gif or image/webp (`data:image/bmp`, `data:application/pdf`).",
    source: OPENAI_SOURCE,
  },
};

/** The Responses `media-type` rule's catalogue entry. */
export const RESPONSES_MEDIA_RULE: Readonly<Record<string, RuleInfo>> = {
  "media-type": {
    description:
      "An `input_image` whose `image_url` is a data URL that is not image/png, image/jpeg, image/gif or image/webp.",
    source: OPENAI_SOURCE,
  },
};

/** The Gemini `media-type` rule's catalogue entry. */
export const GEMINI_MEDIA_RULE: Readonly<Record<string, RuleInfo>> = {
  "media-type": {
    description:
      "An `inlineData` part whose `mimeType` is an image type other than image/png, image/jpeg, image/webp, image/heic or image/heif (`image/gif`, `image/jpg`), or is no MIME type at all (`png`).",
    source:
      `ai.google.dev/gemini-api/docs/image-understanding, Supported image formats: PNG image/png, JPEG image/jpeg, WEBP image/webp, HEIC image/heic, HEIF image/heif (microsoft/vscode#286628: "Gemini models do not support GIF images"); the real errors, 400 INVALID_ARGUMENT: "Unsupported MIME type: image/gif" (Mai-with-u/MaiBot#1435, gemini-2.5-flash), "Unsupported MIME type: image/jpg" (brianpetro/obsidian-smart-connections#1238; CherryHQ/cherry-studio#3088), "Unsupported MIME type: png" (charmbracelet/crush#995)`,
  },
};

// A data URL's declared type (`data:image/bmp;base64,...` → image/bmp), or
// undefined when the URL is not a data URL (an https image is fetched and
// read by the API, its type unknown here).
function dataType(url: unknown): string | undefined {
  if (typeof url !== "string" || !url.startsWith("data:")) return undefined;
  const end = url.search(/[;,]/);
  return (end < 0 ? url.slice(5) : url.slice(5, end)).toLowerCase();
}

function openAIImage(url: unknown, path: string): Violation | undefined {
  const type = dataType(url);
  if (type === undefined || OPENAI_IMAGES.has(type)) return undefined;
  return {
    rule: "media-type",
    path,
    text:
      `You uploaded an unsupported image. Please make sure your image has of one the following formats: ${OPENAI_FORMATS}.`,
    code: "invalid_image_format",
  };
}

// The first image part of an item of `list` (messages, or Responses input)
// whose type the API refuses: a part of `type` whose URL `url` reads is
// held to openAIImage(). A plain walk, no path built until one fails: it
// runs on every request.
function imageProblem(
  list: unknown,
  at: string,
  type: string,
  url: (part: Record<string, unknown>) => unknown,
  field: string,
): Violation | undefined {
  if (!Array.isArray(list)) return undefined;
  for (let i = 0; i < list.length; i++) {
    const content = obj(list[i])?.content;
    if (!Array.isArray(content)) continue;
    for (let j = 0; j < content.length; j++) {
      const p = obj(content[j]);
      if (p?.type !== type) continue;
      const bad = openAIImage(url(p), `${at}[${i}].content[${j}].${field}`);
      if (bad) return bad;
    }
  }
  return undefined;
}

const chatImageUrl = (p: Record<string, unknown>): unknown => obj(p.image_url)?.url;
const responsesImageUrl = (p: Record<string, unknown>): unknown => p.image_url;

/** The first Chat Completions image part `body` sends whose type the API refuses. */
export function chatMediaProblem(
  body: Readonly<Record<string, unknown>>,
  off: RulesOff,
): Violation | undefined {
  if (off.has("media-type")) return undefined;
  return imageProblem(body.messages, "messages", "image_url", chatImageUrl, "image_url.url");
}

/** The first Responses `input_image` `body` sends whose type the API refuses. */
export function responsesMediaProblem(
  body: Readonly<Record<string, unknown>>,
  off: RulesOff,
): Violation | undefined {
  if (off.has("media-type")) return undefined;
  return imageProblem(body.input, "input", "input_image", responsesImageUrl, "image_url");
}

/** The first Gemini `inlineData` part `body` sends whose type the API refuses. */
export function geminiMediaProblem(
  body: Readonly<Record<string, unknown>>,
  off: RulesOff,
): Violation | undefined {
  if (off.has("media-type")) return undefined;
  const contents = body.contents;
  if (!Array.isArray(contents)) return undefined;
  for (let i = 0; i < contents.length; i++) {
    const list = obj(contents[i])?.parts;
    if (!Array.isArray(list)) continue;
    for (let j = 0; j < list.length; j++) {
      const p = obj(list[j]);
      const inline = obj(p?.inlineData ?? p?.inline_data);
      if (!inline) continue;
      const type = inline.mimeType ?? inline.mime_type;
      if (typeof type !== "string") continue; // a missing type is the parse's 400
      if (type.includes("/") && (!type.startsWith("image/") || GEMINI_IMAGES.has(type))) {
        continue;
      }
      return {
        rule: "media-type",
        path: `contents[${i}].parts[${j}].inlineData.mimeType`,
        text: `Unsupported MIME type: ${type}`,
      };
    }
  }
  return undefined;
}
