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
