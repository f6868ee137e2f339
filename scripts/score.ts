// Reports each JSR score factor that can be checked without publishing, and
// the share of exported symbols that carry documentation. Exits non-zero when
// a checkable factor fails or fewer than 100% of the symbols are documented.
// Factors that live on jsr.io (runtime compatibility, provenance) are listed
// as not checkable here.
//
//   deno task score
const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

interface JsDoc {
  doc?: string;
  tags?: { kind: string; doc?: string }[];
}
interface Declaration {
  location: { filename: string; line: number };
  kind: string;
  jsDoc?: JsDoc;
  def?: {
    constructors?: { jsDoc?: JsDoc; accessibility?: string }[];
    properties?: { name: string; jsDoc?: JsDoc; accessibility?: string }[];
    methods?: { name: string; jsDoc?: JsDoc; accessibility?: string }[];
  };
}
interface DocModule {
  module_doc?: JsDoc;
  symbols: { name: string; declarations: Declaration[] }[];
}

const decoder = new TextDecoder();
async function deno(args: string[]): Promise<{ ok: boolean; out: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { ok: r.success, out: decoder.decode(r.stdout) + decoder.decode(r.stderr) };
}

const hasText = (doc?: JsDoc): boolean => (doc?.doc ?? "").trim().length > 0;
const hasExample = (doc?: JsDoc): boolean =>
  (doc?.tags ?? []).some((t) => t.kind === "example" && /```/.test(t.doc ?? ""));

const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
const entries: string[] = Object.values(config.exports);
const doc = await deno(["doc", "--json", ...entries]);
if (!doc.ok) {
  console.error(`deno doc --json failed:\n${doc.out}`);
  Deno.exit(1);
}
const nodes: Record<string, DocModule> = JSON.parse(doc.out).nodes;
const moduleOf = (entry: string): DocModule | undefined =>
  nodes[new URL(entry, `file://${root}/`).href];

// Symbols: each exported declaration once, however many entries re-export it.
const symbols = new Map<string, boolean>();
const members = new Map<string, boolean>();
for (const entry of entries) {
  for (const symbol of moduleOf(entry)?.symbols ?? []) {
    for (const d of symbol.declarations) {
      // A symbol declared in another entry shows up as a reference to it.
      if (d.kind === "reference") continue;
      const at = `${d.location.filename.replace(`file://${root}/`, "")}:${d.location.line + 1}`;
      symbols.set(`${symbol.name} (${at})`, hasText(d.jsDoc));
      const def = d.def ?? {};
      for (const m of [...(def.properties ?? []), ...(def.methods ?? [])]) {
        if (m.accessibility === "private") continue;
        members.set(`${symbol.name}.${m.name} (${at})`, hasText(m.jsDoc));
      }
    }
  }
}
const undocumented = [...symbols].filter(([, ok]) => !ok).map(([k]) => k);
const undocumentedMembers = [...members].filter(([, ok]) => !ok).map(([k]) => k);
const documented = symbols.size - undocumented.length;
const share = symbols.size === 0 ? 0 : documented / symbols.size;

const readme = await Deno.readTextFile(`${root}/README.md`).catch(() => "");
const published: string[] = config.publish?.include ?? [];
const readmePublished = readme.length > 0 &&
  (published.length === 0 || published.includes("README.md"));
const rootDoc = moduleOf(entries[0])?.module_doc;
const withModuleDoc = entries.filter((e) => hasText(moduleOf(e)?.module_doc));
const withModuleExample = entries.filter((e) => hasExample(moduleOf(e)?.module_doc));
const publish = await deno(["publish", "--dry-run", "--allow-dirty"]);
// Slow types are errors that fail the dry run (we never pass
// --allow-slow-types); other publish warnings are listed but do not count.
const slow = !publish.ok;
const warnings = [...publish.out.matchAll(/^warning\[([a-z-]+)\]/gm)].map((m) => m[1]);

type Verdict = "pass" | "fail" | "n/a";
const factors: [string, Verdict, string][] = [
  [
    "Has a readme or module doc",
    readmePublished || hasText(rootDoc) ? "pass" : "fail",
    `README.md ${readmePublished ? "published" : "missing or not published"}; root module doc ${
      hasText(rootDoc) ? "present" : "missing"
    }`,
  ],
  [
    "Has examples in the readme or module doc",
    /```(ts|js|typescript|javascript)\b/.test(readme) || hasExample(rootDoc) ? "pass" : "fail",
    `README code fences: ${
      (readme.match(/```(ts|js|typescript|javascript)\b/g) ?? []).length
    }; entry module docs with an @example: ${withModuleExample.length}/${entries.length}`,
  ],
  [
    "Has module docs in all entrypoints",
    withModuleDoc.length === entries.length && withModuleExample.length === entries.length
      ? "pass"
      : "fail",
    `${withModuleDoc.length}/${entries.length} have a module doc, ${withModuleExample.length}/${entries.length} a runnable example` +
    (withModuleDoc.length < entries.length
      ? ` (missing: ${entries.filter((e) => !withModuleDoc.includes(e)).join(", ")})`
      : ""),
  ],
  [
    "Has docs for most symbols",
    share === 1 ? "pass" : "fail",
    `${documented}/${symbols.size} exported symbols documented (${(share * 100).toFixed(1)}%)`,
  ],
  [
    "No slow types are used",
    slow ? "fail" : "pass",
    slow ? "deno publish --dry-run reports problems (below)" : "deno publish --dry-run is clean",
  ],
  [
    "Has a description",
    typeof config.description === "string" && config.description.trim() !== "" ? "pass" : "fail",
    config.description ? `"${config.description}"` : 'add "description" to deno.json',
  ],
  [
    "At least one runtime is marked as compatible",
    "n/a",
    "set on jsr.io; Deno (deno task test) and Node 20 (tests/node) are tested here",
  ],
  ["At least two runtimes are marked as compatible", "n/a", "set on jsr.io, as above"],
  ["Has provenance", "n/a", "comes from publishing in CI with an OIDC token"],
];

const mark = { pass: "✓", fail: "✗", "n/a": "-" } as const;
console.log(`JSR score factors for ${config.name}@${config.version} (checked offline)`);
for (const [name, verdict, detail] of factors) {
  console.log(`  ${mark[verdict]} ${name.padEnd(48)} ${detail}`);
}
const documentedMembers = members.size - undocumentedMembers.length;
console.log(
  `  (members of exported classes and interfaces: ${documentedMembers}/${members.size} documented)`,
);
if (undocumented.length > 0) {
  console.log(`Undocumented symbols:\n${undocumented.map((s) => `  ${s}`).join("\n")}`);
}
if (slow) console.log(publish.out.trimEnd());
else if (warnings.length > 0) {
  console.log(`  (deno publish warnings, not slow types: ${warnings.join(", ")})`);
}
const failed = factors.filter(([, v]) => v === "fail").length;
const checkable = factors.filter(([, v]) => v !== "n/a").length;
console.log(
  `JSR score ${failed === 0 ? "ok" : "FAILED"}: ${
    checkable - failed
  } of ${checkable} checkable factors hold (${factors.length - checkable} need jsr.io); ${
    (share * 100).toFixed(1)
  }% of symbols documented`,
);
if (failed > 0) Deno.exit(1);
