// The one redaction engine: everything the package writes where users
// commit or log it (cassettes, transcript(), FakeProvider.requests, the
// errors a provider port raises) goes through it, so a credential shape
// caught in one place is caught in all of them. Three layers: values the
// caller knows are secret (a port's key, the user's `redact` list), values
// under names that hold credentials (`apiKey`, `x-goog-api-key`,
// `?api_key=`, `password:`), and credential shapes in free text
// (_secret_patterns.ts: vendor key prefixes, JWTs, PEM blocks, Basic/Bearer,
// URL userinfo, cookies). Before all three, every value registered with the
// process's secret registry (_secrets/registry.ts: the credentials the package was
// handed, by any entry) is masked verbatim.
import {
  AUTH_SCHEME,
  COOKIE_LINE,
  NAMED_VALUE,
  PEM_PRIVATE_KEY,
  URL_USERINFO,
  VENDOR_KEY,
} from "./_secret_patterns.ts";
import { maskSecrets } from "./_secrets/registry.ts";

/** What a masked value becomes. */
export const REDACTED = "[REDACTED]";

// The head word of a name (its last word: `api_key`, `secretAccessKey`,
// `x-goog-api-key`) decides, so `token_count`, `max_tokens`, `key_id` and
// `keyboard` are not secret names. Compounds written as one word
// (`apikey`, `accesstoken`) are listed by their usual prefixes, so `monkey`
// and `hockey` are not.
const COMPOUND =
  "api|access|secret|private|master|client|signing|subscription|session|encryption|auth|admin|service|account|app|license|webhook|bot|user|refresh|id|bearer|csrf|xsrf|oauth|security|personal|consumer|shared";
const SECRET_WORD = new RegExp(
  `^(?:(?:key|token|secret)|(?:${COMPOUND})(?:key|token|secret)s?|passw(?:or)?d|pwd|passphrase|credentials?|auth|authorization|(?:set)?cookies?|session(?:id)?|sessid|signature|sig)$`,
);

// Header names are not prose: any of these words anywhere marks one.
const SECRET_HEADER = /auth|key|token|secret|cookie|session|signature|passw|pwd|credential/i;

// Values a named field keeps: they hold nothing to hide.
// An auth scheme alone is what is left before a credential already masked.
const HARMLESS_VALUE = /^(?:null|true|false|undefined|[Bb]earer|[Bb]asic|[Tt]oken)$/;

/**
 * Whether a field named `name` holds a credential: its last word (after
 * splitting camelCase, snake_case, kebab-case and dots) is one of key,
 * token, secret, password, credential(s), auth(orization), cookie, session
 * or signature (or a one-word compound such as `apikey`).
 */
export function isSecretName(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[^A-Za-z0-9]+/);
  for (let i = words.length - 1; i >= 0; i--) {
    if (words[i] !== "") return SECRET_WORD.test(words[i].toLowerCase());
  }
  return false;
}

/** Whether an HTTP header named `name` carries a credential (by name pattern, not a list). */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name) || isSecretName(name);
}

// Words of 8 letters or more that follow "Bearer" in prose about auth.
const BEARER_PROSE = /^(?:authentication|authorization|credentials?)$/i;

/**
 * Whether the word after `Bearer`/`Basic` is a credential rather than
 * English. After `Bearer`, any 8 characters or more but the words prose
 * about auth uses; after `Basic`, a common English word, only what base64
 * looks like: a digit, `+` `/` `=` `.`, or a capital after the first letter.
 */
export function looksLikeCredential(scheme: string, s: string): boolean {
  if (s.length < 8) return false;
  if (scheme.toLowerCase() === "bearer") return !BEARER_PROSE.test(s);
  return /\d/.test(s) || /[._~+/=]/.test(s) || (/[a-z]/.test(s) && /[A-Z]/.test(s.slice(1)));
}

/** Options for {@linkcode Redactor}. */
export interface RedactorOptions {
  /** Values masked wherever they occur (a port's key and header values); empty ones are ignored. */
  readonly literals?: Iterable<string>;
  /** The caller's own: strings masked where they occur, patterns (any flags) at every match. */
  readonly extra?: ReadonlyArray<string | RegExp>;
}

/** Masks credentials in text and in JSON-like values. */
export class Redactor {
  readonly #literals: readonly string[];
  readonly #patterns: readonly RegExp[];

  /** Copies the caller's patterns once: a global, non-sticky copy holds no state between calls. */
  constructor(options: RedactorOptions = {}) {
    const literals = new Set<string>();
    for (const l of options.literals ?? []) if (l) literals.add(l);
    const patterns: RegExp[] = [];
    for (const r of options.extra ?? []) {
      if (typeof r === "string") {
        if (r) literals.add(r);
      } else patterns.push(globalCopy(r));
    }
    // Longest first, so a literal that contains another is masked whole.
    this.#literals = [...literals].sort((a, b) => b.length - a.length);
    this.#patterns = patterns;
  }

  /** Free text with every known secret, secret-named value and credential shape masked. */
  text(s: string): string {
    let out = s;
    for (const literal of this.#literals) out = out.split(literal).join(REDACTED);
    for (const pattern of this.#patterns) out = out.replace(pattern, maskMatch);
    return redactText(out);
  }

  /** A string field: masked whole when it sits under a secret name, else scrubbed as text. */
  field(s: string, secret: boolean): string {
    if (!secret) return this.text(s);
    return s === "" ? s : REDACTED;
  }

  /**
   * A deep copy of a JSON-like value with every string scrubbed and every
   * string under a secret-named key (at any depth) masked whole. Numbers,
   * booleans and null are kept, so a recording keeps its types.
   */
  json(value: unknown, secret = false): unknown {
    return this.#json(value, secret, new Set());
  }

  #json(value: unknown, secret: boolean, seen: Set<object>): unknown {
    if (typeof value === "string") return this.field(value, secret);
    if (value === null || typeof value !== "object") return value;
    if (value instanceof Error) return this.field(`${value.name}: ${value.message}`, secret);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return this.#json(toJSON.call(value), secret, seen);
    if (seen.has(value)) return "[Circular]";
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((v) => this.#json(v, secret, seen));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] = this.#json(v, secret || isSecretName(k), seen);
      }
      return out;
    } finally {
      seen.delete(value);
    }
  }
}

/** The registered secrets, credential shapes and secret-named values in `s` masked. */
export function redactText(s: string): string {
  let out = maskSecrets(s, REDACTED).replace(PEM_PRIVATE_KEY, REDACTED);
  out = out.replace(COOKIE_LINE, (_, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  out = out.replace(URL_USERINFO, `$1${REDACTED}@`);
  out = namedValues(out);
  out = out.replace(
    AUTH_SCHEME,
    (m, scheme: string, space: string, credential: string) =>
      looksLikeCredential(scheme, credential) ? `${scheme}${space}${REDACTED}` : m,
  );
  return out.replace(VENDOR_KEY, REDACTED);
}

// A name that is not secret gives up its value: the scan goes on right
// after its separator, so `note: x-api-key: k` and `url=https://x?api_key=k`
// still reach the secret name inside.
function namedValues(s: string): string {
  let out = "";
  let last = 0;
  NAMED_VALUE.lastIndex = 0;
  for (let m = NAMED_VALUE.exec(s); m !== null; m = NAMED_VALUE.exec(s)) {
    const [whole, prefix, , name, scheme = "", value, backslashes] = m;
    if (!isSecretName(name)) NAMED_VALUE.lastIndex = m.index + prefix.length;
    else if (!HARMLESS_VALUE.test(value)) {
      out += s.slice(last, m.index) + prefix + scheme + maskValue(value, backslashes);
      last = m.index + whole.length;
    }
  }
  return out + s.slice(last);
}

// Keeps the quotes around a masked value (escaped ones too), so masked JSON
// is still JSON; an empty quoted value hides nothing and stays.
function maskValue(value: string, backslashes: string | undefined): string {
  const q = backslashes !== undefined
    ? `${backslashes}"`
    : value[0] === '"' || value[0] === "'"
    ? value[0]
    : "";
  // Unquoted (q is ""), a value is never empty: it is masked whole.
  return value.length === 2 * q.length ? value : `${q}${REDACTED}${q}`;
}

function maskMatch(match: string): string {
  return match === "" ? match : REDACTED;
}

// `y` anchors each match at the previous one's end (one match in most text);
// `g` without `y` finds every match, and `replace` resets `lastIndex`, so the
// copy holds no state between calls whatever flags the caller gave.
function globalCopy(r: RegExp): RegExp {
  return new RegExp(r.source, r.flags.replace(/[gy]/g, "") + "g");
}
