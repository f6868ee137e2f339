// Short, safe renderings for error messages: any value (strings quoted,
// errors by name and message, cycles and exotic values never throwing), and
// the end of a long text such as a process's stderr.
const MAX = 200;

export function preview(value: unknown): string {
  let text: string;
  if (value === undefined) text = "undefined";
  else if (typeof value === "string") text = JSON.stringify(value);
  else if (typeof value === "function") text = `[function ${value.name || "anonymous"}]`;
  else if (typeof value === "bigint") text = `${value}n`;
  // JSON would print NaN and Infinity as null, hiding what was given.
  else if (typeof value === "number") text = String(value);
  else if (typeof value === "symbol") text = value.toString();
  else {
    try {
      text = JSON.stringify(value, (_k, v) => {
        if (v instanceof Error) return `[${v.name}: ${v.message}]`;
        if (typeof v === "bigint") return `${v}n`;
        if (v === undefined) return "[undefined]";
        return v;
      }) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > MAX ? `${text.slice(0, MAX)}...` : text;
}

/** The end of `text`, trimmed: its last 300 characters at most. */
export function tail(text: string): string {
  const t = text.trim();
  return t.length > 300 ? `...${t.slice(-300)}` : t;
}

// A provider's message is quoted up to this many characters.
const MAX_QUOTED = 2_000;
// How far back from the limit a cut looks for a space, so it never leaves
// half of a credential (which masking by value could not recognise).
const WORD_BACK = 200;

/**
 * `text` as an error message quotes it: whole up to `max` characters, else
 * cut (at a space near the limit when there is one) and followed by how much
 * was left out, so a 5 MB body neither floods a log nor hides its size.
 */
export function clip(text: string, max: number = MAX_QUOTED): string {
  if (text.length <= max) return text;
  const from = Math.max(0, max - WORD_BACK);
  // The last space at or before the limit, when the text goes on inside a word there.
  const space = /\s/.test(text[max]) ? -1 : text.slice(from, max).search(/\s\S*$/);
  const end = space <= 0 ? max : from + space;
  return `${text.slice(0, end)} ... (${text.length - end} more characters left out)`;
}
