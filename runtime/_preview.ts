// A short, safe rendering of any value for error messages: strings quoted,
// errors by name and message, cycles and exotic values never throwing.
const MAX = 200;

export function preview(value: unknown): string {
  let text: string;
  if (value === undefined) text = "undefined";
  else if (typeof value === "string") text = JSON.stringify(value);
  else if (typeof value === "function") text = `[function ${value.name || "anonymous"}]`;
  else if (typeof value === "bigint") text = `${value}n`;
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
