// What a provider port does to every error before it leaves the port: its
// own credentials (the key, the header values it sends, the baseURL's
// userinfo and key-like query values) and every credential shape are
// scrubbed from the message, the stack and the whole cause chain. Errors are
// scrubbed in place, so their class and fields (retryable, phase, status,
// retryAfterMs, usage, finishReason) are what retry() and meter() read.
import { isSecretHeader, isSecretName, Redactor } from "./_redact.ts";
import { PUBLIC_HEADERS } from "./_secrets/registry.ts";

// Shorter values would mask common words and digits in every message; a key
// this short is masked by its header's name and the credential shapes.
const MIN_SECRET = 4;
// A header value whose name says nothing is masked only when it is long
// enough to be an id (an organisation, a project) rather than a flag.
const MIN_VALUE = 8;
// A cause chain longer than this is not a chain a provider built.
const MAX_DEPTH = 16;

/**
 * The redactor for one port: the credential shapes, plus every value the
 * port sends that identifies its caller.
 */
export function portRedactor(
  url: string,
  headerSets: ReadonlyArray<Readonly<Record<string, string>> | undefined>,
): Redactor {
  const literals: string[] = [];
  const add = (value: string, min: number) => {
    if (value.length < min) return;
    // A URL quotes it percent-encoded; the redactor drops the duplicate.
    literals.push(value, encodeURIComponent(value));
  };
  for (const headers of headerSets) {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (PUBLIC_HEADERS.has(name.toLowerCase())) continue;
      const min = isSecretHeader(name) ? MIN_SECRET : MIN_VALUE;
      add(value, min);
      // `Bearer <key>`: a provider may echo the key alone.
      const [scheme, credential, ...more] = value.trim().split(/\s+/);
      if (credential === undefined || more.length > 0) continue;
      add(credential, min);
      if (scheme.toLowerCase() === "basic") {
        for (const part of decodeBasic(credential)) add(part, MIN_SECRET);
      }
    }
  }
  // A URL that does not parse was refused where it was given.
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed) {
    for (const part of [parsed.username, parsed.password]) {
      add(part, MIN_SECRET);
      add(safeDecode(part), MIN_SECRET);
    }
    for (const [name, value] of parsed.searchParams) {
      if (isSecretName(name)) add(value, MIN_SECRET);
    }
  }
  return new Redactor({ literals });
}

/**
 * Scrubs `error` in place (message, stack, own string fields, the cause
 * chain) and returns it; an error whose message cannot be rewritten (a
 * frozen one) is replaced by a plain `Error` of the same name.
 */
export function scrubError(error: unknown, redactor: Redactor): unknown {
  return scrub(error, redactor, new Set(), 0);
}

function scrub(value: unknown, r: Redactor, seen: Set<object>, depth: number): unknown {
  // A string, a plain object, an array: scrubbed copies (json() scrubs strings as text).
  if (!(value instanceof Error)) return r.json(value);
  if (seen.has(value) || depth > MAX_DEPTH) return value;
  seen.add(value);
  const next = (v: unknown) => scrub(v, r, seen, depth + 1);
  const message = r.text(value.message);
  // A stack read before (by a logger) holds the message as it was then.
  const stack = typeof value.stack === "string" ? r.text(value.stack) : value.stack;
  if (!rewrite(value, "message", message)) {
    const copy = new Error(message);
    copy.name = value.name;
    copy.stack = stack;
    if (value.cause !== undefined) copy.cause = next(value.cause);
    return copy;
  }
  rewrite(value, "stack", stack);
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === "string") rewrite(value, key, r.field(field, isSecretName(key)));
    else if (field instanceof Error) rewrite(value, key, next(field));
    else rewriteIfChanged(value, key, field, r);
  }
  rewrite(value, "cause", next(value.cause));
  // AggregateError's, and any other error's list of errors.
  const errors = (value as { errors?: unknown }).errors;
  if (Array.isArray(errors)) rewrite(value, "errors", errors.map(next));
  return value;
}

// A field (an axios-like `config`, our `usage`) is replaced only when its
// scrubbed copy differs, so fields without secrets keep their identity.
function rewriteIfChanged(target: Error, key: string, field: unknown, r: Redactor): void {
  const copy = r.json(field);
  let same = false;
  try {
    same = JSON.stringify(copy) === JSON.stringify(field);
  } catch {
    // A field JSON cannot render (a cycle, a BigInt): the copy can be, keep it.
  }
  if (!same) rewrite(target, key, copy);
}

// Sets a property unless it already holds the value; false when it cannot
// be set (a frozen error). A getter without a setter (DOMException's
// message) is shadowed by an own property, as plain errors have.
function rewrite(target: object, key: string, value: unknown): boolean {
  if ((target as Record<string, unknown>)[key] === value) return true;
  const own = Object.getOwnPropertyDescriptor(target, key);
  return Reflect.defineProperty(target, key, {
    value,
    writable: true,
    configurable: true,
    enumerable: own?.enumerable ?? false,
  });
}

function decodeBasic(credential: string): string[] {
  try {
    const text = atob(credential);
    const colon = text.indexOf(":");
    return colon < 0 ? [text] : [text.slice(0, colon), text.slice(colon + 1), text];
  } catch {
    return [];
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
