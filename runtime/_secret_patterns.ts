// The shapes a credential has in free text, for the one redaction engine
// (_redact.ts). Written here rather than depended on: the rule set that
// informed them, @secretlint/secretlint-rule-preset-recommend (MIT), is a
// 218 kB bundle built for a linter's rule context (it reports ranges in
// files), and its patterns are tuned for few false alarms in source code:
// exact lengths and checksum suffixes (an OpenAI key must hold "T3BlbkFJ",
// a Hugging Face one exactly 34 letters). A redactor must also catch the test
// keys, truncated keys and gateway tokens that providers echo in errors, so
// the lengths below are lower bounds, not exact. Each shape names its source.

// Where a credential may start: not inside a word, or right after an escape
// (`\n`, `\t`) of JSON text, where a provider's body quotes it.
const START = String.raw`(?:(?<![A-Za-z0-9\\])|(?<=\\[nrtbf]))`;

// One alternation behind one start, so a text is scanned once for every
// vendor shape.
const VENDOR_SHAPES: readonly string[] = [
  // OpenAI and Anthropic, prefixed (secretlint-rule-openai, -anthropic).
  String.raw`sk-(?:ant|proj|svcacct|admin|or)-[A-Za-z0-9_-]{8,}`,
  // OpenAI's older keys and every OpenAI-compatible gateway (LiteLLM's
  // sk-1234 included): a digit, or 20 characters, keeps "sk-learn" as it is.
  String.raw`sk-(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{4,}`,
  String.raw`sk-[A-Za-z0-9_-]{20,}`,
  // Stripe secret and restricted keys, webhook secrets (gitleaks stripe-access-token).
  String.raw`(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{8,}`,
  String.raw`whsec_[A-Za-z0-9]{16,}`,
  // Google API keys (gitleaks gcp-api-key; secretlint-rule-gcp reads only service-account JSON).
  String.raw`AIza[0-9A-Za-z_-]{30,}`,
  // GitHub classic and fine-grained tokens (secretlint-rule-github: 36 and 82 characters).
  String.raw`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9_]{20,}`,
  String.raw`github_pat_[A-Za-z0-9_]{20,}`,
  // GitLab personal access tokens (secretlint-rule-gitlab).
  String.raw`glpat-[A-Za-z0-9_-]{20,}`,
  // AWS access key ids (secretlint-rule-aws, AWSAccessKeyIDPattern).
  String.raw`(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}\b`,
  // Slack tokens and incoming webhooks (secretlint-rule-slack).
  String.raw`(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}`,
  String.raw`https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+`,
  // Hugging Face (secretlint-rule-huggingface: hf_ and 34 letters).
  String.raw`hf_[A-Za-z0-9]{20,}`,
  // Groq (secretlint-rule-groq), npm (secretlint-rule-npm), Linear (secretlint-rule-linear).
  String.raw`gsk_[A-Za-z0-9]{20,}`,
  String.raw`npm_[A-Za-z0-9]{30,}`,
  String.raw`lin_api_[A-Za-z0-9_]{20,}`,
  // SendGrid (secretlint-rule-sendgrid), Notion (secretlint-rule-notion).
  String.raw`SG\.[\w-]{16,}\.[\w-]{16,}`,
  String.raw`ntn_[0-9]{11}[A-Za-z0-9]{20,}`,
  // Shopify, Docker, Figma, Vercel, Databricks (their secretlint rules).
  String.raw`shp(?:pa|ca|at|ss)_[A-Za-z0-9]{20,}`,
  String.raw`dckr_pat_[A-Za-z0-9_-]{20,}`,
  String.raw`figd_[A-Za-z0-9_-]{30,}`,
  String.raw`v(?:cp|ci|ca|cr|ck)_[A-Za-z0-9]{20,}`,
  String.raw`dapi[a-f0-9]{32}(?:-\d)?\b`,
  // HashiCorp Vault, Grafana, 1Password service accounts (their secretlint rules).
  String.raw`hv[sbr]\.[A-Za-z0-9_-]{60,}`,
  String.raw`glc_[A-Za-z0-9+/]{32,}={0,2}`,
  String.raw`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}`,
  String.raw`ops_eyJ[A-Za-z0-9+/=]{60,}`,
  // Model gateways an agent kit meets that secretlint has no rule for:
  // xAI, Perplexity, Replicate, LangSmith (their documented prefixes).
  String.raw`xai-[A-Za-z0-9]{20,}`,
  String.raw`pplx-[A-Za-z0-9]{20,}`,
  String.raw`r8_[A-Za-z0-9]{20,}`,
  String.raw`lsv2_(?:pt|sk)_[A-Za-z0-9_]{20,}`,
  // JSON Web Tokens: base64url of '{"' then two more segments (gitleaks jwt).
  String.raw`eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`,
];

/** Every vendor key shape in one global pattern. */
export const VENDOR_KEY: RegExp = new RegExp(`${START}(?:${VENDOR_SHAPES.join("|")})`, "g");

/**
 * A PEM private-key block, whole; one cut short (an error quoting 500
 * characters) is masked to the end of its base64 (secretlint-rule-privatekey
 * matches the header; its content pattern, the block).
 */
export const PEM_PRIVATE_KEY: RegExp =
  /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)/g;

/**
 * An HTTP auth scheme and its credential in free text (`Bearer abc.def`,
 * `Basic dXNlcjpwYXNz`); the credential is checked by `looksLikeCredential`
 * so that "the Bearer of bad news" and "Basic information" stay.
 */
export const AUTH_SCHEME: RegExp = new RegExp(
  String.raw`${START}([Bb]earer|[Bb]asic)(\s+)([A-Za-z0-9._~+/=-]{6,})`,
  "g",
);

/**
 * `user:password@` in any URL (secretlint-rule-basicauth and
 * -database-connection-string match it for http, ftp, mongodb, mysql and
 * postgres; any scheme here).
 */
export const URL_USERINFO: RegExp = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@:"'<>]+:[^\s/?#@"'<>]*@/gi;

/**
 * A `cookie:` or `set-cookie:` header line, to its end (cookies hold
 * sessions): a newline, or in JSON text an escaped newline or a quote.
 */
export const COOKIE_LINE: RegExp = new RegExp(
  String.raw`(?:(?<![\w\\-])|(?<=\\[nrt]))((?:set-)?cookie)(\s*:\s*)(?:[^\r\n"\\]|\\(?![nr"]))+`,
  "gi",
);

/**
 * `name=value`, `name: value`, `"name": "value"` (JSON, or JSON escaped in a
 * JSON string, at any depth) and `?name=value&` in free text. Groups: 1 the
 * name with its quotes and separator, 2 the quote, 3 the name, 4 an auth
 * scheme, 5 the value (6 the backslashes of an escaped quote). Which names are secret is decided by `isSecretName`, not here.
 */
export const NAMED_VALUE: RegExp = new RegExp(
  String
    .raw`((?:(?<![\w.\\-])|(?<=\\[nrtbf]))(\\*["']?)([A-Za-z_][\w.-]{0,80})\2\s*(?:=>|[:=])\s*)` +
    String.raw`(?:((?:[Bb]earer|[Bb]asic|[Tt]oken)\s+)?(` +
    // A JSON string; a quoted one; one escaped once or more inside JSON
    // (the closing quote has as many backslashes as the opening one).
    String.raw`"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|(\\+)"[^\n]*?(?<!\\)\6"` +
    // Unquoted: to the next space, separator, quote, bracket or markdown mark.
    String.raw`|[^\s&,;"'<>(){}\[\]\\*|` + "`" + String.raw`]+))`,
  "g",
);
