// Builds dist/npm/ the way JSR's npm compatibility layer serves this package
// as `@jsr/agentkit__testing`: every module reachable from an export is
// compiled to `.js` with a `.d.ts` beside it, relative specifiers end in
// `.js`, bare specifiers from deno.json's import map become npm package
// names, and a package.json carries the exports map (`types` + `default`) and
// the dependencies with deno.json's ranges.
//
// Deno's own tooling finds the module graph and the npm packages it uses
// (`deno info --json`); the TypeScript compiler (npm:typescript, pinned in
// deno.json) type-checks the graph as a Node consumer would see it (web and
// ES libs, no Deno namespace) and emits; specifiers are rewritten on the AST
// by a compiler transformer.
//
//   deno task build:npm [--out=dist/npm]
import ts from "typescript";

interface DenoJson {
  name: string;
  version: string;
  description?: string;
  license?: string;
  exports: Record<string, string>;
  imports?: Record<string, string>;
}

interface InfoModule {
  specifier: string;
  kind?: string;
  local?: string;
  npmPackage?: string;
  dependencies?: { specifier: string }[];
}

interface Info {
  modules: InfoModule[];
  npmPackages?: Record<string, { name: string; version: string; localPath?: string }>;
}

/**
 * The Node typings the build checks `node:` imports against, and the consumer
 * in tests/node installs: Node 20 is the oldest Node the package supports.
 */
export const TYPES_NODE = "^20.11.0";

/**
 * The Node versions the package declares (`engines.node`); tests run on 20, 22
 * and 24. 20.16 is the first Node 20 with `process.getBuiltinModule`, which
 * loads `node:fs` and `node:child_process` on first use
 * (runtime/spawn/_builtin.ts).
 */
export const NODE_ENGINES = ">=20.16";

/** An npm package reference: `npm:name@range/sub/path`. */
export interface NpmReference {
  name: string;
  range: string;
  subpath: string;
}

/** Parses `npm:name@range/sub/path` (the scope is optional, so is the range). */
export function parseNpmSpecifier(specifier: string): NpmReference | undefined {
  const m = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)(?:@([^/]+))?(\/.*)?$/.exec(specifier);
  if (!m) return undefined;
  return { name: m[1], range: m[2] ?? "*", subpath: m[3] ?? "" };
}

/**
 * Maps a bare specifier written in a source module to what the npm package
 * imports instead, through deno.json's import map (exact keys, then the
 * longest `prefix/` key). Returns undefined for specifiers that stay as they are.
 */
export function mapBareSpecifier(
  specifier: string,
  imports: Record<string, string>,
): NpmReference | undefined {
  if (specifier.startsWith("npm:")) return parseNpmSpecifier(specifier);
  if (/^(\.|\/|node:|https?:|data:)/.test(specifier)) return undefined;
  let target = imports[specifier];
  if (target === undefined) {
    const prefix = Object.keys(imports)
      .filter((k) => k.endsWith("/") && specifier.startsWith(k))
      .sort((a, b) => b.length - a.length)[0];
    if (prefix !== undefined) target = imports[prefix] + specifier.slice(prefix.length);
  }
  return target === undefined ? undefined : parseNpmSpecifier(target);
}

/** The name JSR gives a package on npm: `@scope/name` -> `@jsr/scope__name`. */
export function jsrNpmName(name: string): string {
  const m = /^@([^/]+)\/(.+)$/.exec(name);
  if (!m) throw new TypeError(`Cannot map "${name}" to an npm name: expected @scope/name`);
  return `@jsr/${m[1]}__${m[2]}`;
}

function toJs(path: string, ext: ".js" | ".d.ts"): string {
  return path.replace(/\.(ts|mts|tsx)$/, ext);
}

async function denoInfo(root: string, args: string[]): Promise<Info> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", ...args],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `deno info ${args.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Options for {@linkcode buildNpm}. */
export interface BuildNpmOptions {
  /** The repository root (where deno.json is). */
  root: string;
  /** Where to write the package (wiped first). */
  outDir: string;
}

/** What {@linkcode buildNpm} wrote. */
export interface BuildNpmResult {
  /** The generated package.json. */
  packageJson: Record<string, unknown>;
  /** Files written, relative to outDir. */
  files: string[];
}

/** Builds the npm package; throws with every diagnostic when the graph does not compile. */
export async function buildNpm(options: BuildNpmOptions): Promise<BuildNpmResult> {
  const root = options.root.replace(/\/$/, "");
  const outDir = options.outDir.replace(/\/$/, "");
  const config: DenoJson = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  const imports = config.imports ?? {};

  // 1. The module graph, as Deno (and so JSR) sees it.
  const local = new Set<string>();
  const npmDirs = new Map<string, string>();
  let usesNode = false;
  const entries = Object.values(config.exports);
  for (const info of await Promise.all(entries.map((e) => denoInfo(root, [e])))) {
    for (const m of info.modules) {
      if (m.specifier.startsWith("node:")) usesNode = true;
      if (m.specifier.startsWith("file://") && m.local) {
        if (!m.local.startsWith(`${root}/`)) {
          throw new Error(`Cannot publish ${m.local}: it is outside ${root}`);
        }
        local.add(m.local);
      }
    }
    for (const pkg of Object.values(info.npmPackages ?? {})) {
      if (pkg.localPath && !npmDirs.has(pkg.name)) npmDirs.set(pkg.name, pkg.localPath);
    }
  }
  // Deno checks `node:` imports against typings built into Deno; tsc needs
  // them from npm (fetched into Deno's cache once, the lock file untouched).
  if (usesNode) {
    const info = await denoInfo(root, ["--no-lock", `npm:@types/node@${TYPES_NODE}`]);
    for (const pkg of Object.values(info.npmPackages ?? {})) {
      if (pkg.localPath && (pkg.name === "@types/node" || pkg.name === "undici-types")) {
        npmDirs.set(pkg.name, pkg.localPath);
      }
    }
    if (!npmDirs.has("@types/node")) throw new Error("Cannot find @types/node in Deno's npm cache");
  }

  // 2. A node_modules the compiler can resolve npm packages from: links into
  //    Deno's npm cache, so the build needs no network and no install.
  const modulesDir = await Deno.makeTempDir({ prefix: "agentkit_build_npm_" });
  try {
    for (const [name, dir] of npmDirs) {
      const link = `${modulesDir}/node_modules/${name}`;
      await Deno.mkdir(link.slice(0, link.lastIndexOf("/")), { recursive: true });
      await Deno.symlink(dir, link);
    }
    return await compile(root, outDir, config, imports, [...local].sort(), modulesDir, usesNode);
  } finally {
    await Deno.remove(modulesDir, { recursive: true });
  }
}

async function compile(
  root: string,
  outDir: string,
  config: DenoJson,
  imports: Record<string, string>,
  files: string[],
  modulesDir: string,
  usesNode: boolean,
): Promise<BuildNpmResult> {
  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.esnext.disposable.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: usesNode ? ["node"] : [],
    typeRoots: [`${modulesDir}/node_modules/@types`],
    strict: true,
    declaration: true,
    rewriteRelativeImportExtensions: true,
    allowImportingTsExtensions: true,
    isolatedModules: true,
    skipLibCheck: true,
    preserveSymlinks: true,
    noEmitOnError: true,
    newLine: ts.NewLineKind.LineFeed,
    rootDir: root,
    outDir,
  };
  const host = ts.createCompilerHost(compilerOptions);
  const resolver = `${modulesDir}/index.ts`;
  const used = new Map<string, string>();
  const unmapped = new Set<string>();
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) => {
      const text = literal.text;
      // Only our own modules go through the import map; npm packages' typings
      // resolve the Node way, inside the linked node_modules.
      if (!containingFile.startsWith(`${root}/`)) {
        return ts.resolveModuleName(text, containingFile, compilerOptions, host);
      }
      const mapped = mapBareSpecifier(text, imports);
      if (mapped) {
        const r = ts.resolveModuleName(
          mapped.name + mapped.subpath,
          resolver,
          compilerOptions,
          host,
        );
        if (r.resolvedModule) r.resolvedModule.isExternalLibraryImport = true;
        return r;
      }
      if (!/^(\.|\/|node:)/.test(text)) unmapped.add(`${text} (from ${containingFile})`);
      return ts.resolveModuleName(text, containingFile, compilerOptions, host);
    });

  const program = ts.createProgram(files, compilerOptions, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    throw new Error(
      `The npm build does not compile for Node (Deno-only APIs must sit behind adapters):\n${
        ts.formatDiagnostics(diagnostics, {
          getCanonicalFileName: (f) => f,
          getCurrentDirectory: () => root,
          getNewLine: () => "\n",
        })
      }`,
    );
  }
  if (unmapped.size > 0) {
    throw new Error(
      `Cannot map these bare specifiers to npm packages (add them to deno.json "imports" as npm:): ${
        [...unmapped].join(", ")
      }`,
    );
  }

  // Rewrites every module specifier on the AST: import-map names and npm:
  // specifiers to npm package names, relative `.ts` to `.js` (declarations
  // too; TypeScript's rewriteRelativeImportExtensions covers only the JS).
  const rewrite = (text: string): string => {
    const mapped = mapBareSpecifier(text, imports);
    if (mapped) {
      const previous = used.get(mapped.name);
      if (previous !== undefined && previous !== mapped.range) {
        throw new Error(
          `Cannot build: ${mapped.name} is imported with ranges ${previous} and ${mapped.range}`,
        );
      }
      used.set(mapped.name, mapped.range);
      return mapped.name + mapped.subpath;
    }
    if (/^\.\.?\//.test(text)) return text.replace(/\.(ts|mts|tsx)$/, ".js");
    return text;
  };
  const transformer: ts.TransformerFactory<ts.SourceFile | ts.Bundle> = (context) => {
    const f = context.factory;
    const literal = (node: ts.Expression | undefined): ts.StringLiteral | undefined =>
      node && ts.isStringLiteral(node) ? f.createStringLiteral(rewrite(node.text)) : undefined;
    const visit = (node: ts.Node): ts.Node => {
      if (ts.isImportDeclaration(node)) {
        return f.updateImportDeclaration(
          node,
          node.modifiers,
          node.importClause,
          literal(node.moduleSpecifier) ?? node.moduleSpecifier,
          node.attributes,
        );
      }
      if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        return f.updateExportDeclaration(
          node,
          node.modifiers,
          node.isTypeOnly,
          node.exportClause,
          literal(node.moduleSpecifier),
          node.attributes,
        );
      }
      if (
        ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) &&
        ts.isStringLiteral(node.argument.literal)
      ) {
        return f.updateImportTypeNode(
          node,
          f.updateLiteralTypeNode(node.argument, literal(node.argument.literal)!),
          node.attributes,
          node.qualifier,
          node.typeArguments?.map((t) => ts.visitNode(t, visit, ts.isTypeNode)!),
          node.isTypeOf,
        );
      }
      if (
        ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0])
      ) {
        return f.updateCallExpression(node, node.expression, node.typeArguments, [
          literal(node.arguments[0])!,
          ...node.arguments.slice(1),
        ]);
      }
      return ts.visitEachChild(node, visit, context);
    };
    return (node) => ts.isSourceFile(node) ? ts.visitEachChild(node, visit, context) : node;
  };

  await Deno.remove(outDir, { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  const written: string[] = [];
  const result = program.emit(
    undefined,
    (fileName, text) => {
      Deno.mkdirSync(fileName.slice(0, fileName.lastIndexOf("/")), { recursive: true });
      Deno.writeTextFileSync(fileName, text);
      written.push(fileName.slice(outDir.length + 1));
    },
    undefined,
    false,
    {
      before: [transformer as ts.TransformerFactory<ts.SourceFile>],
      afterDeclarations: [transformer],
    },
  );
  if (result.emitSkipped || result.diagnostics.length > 0) {
    throw new Error(
      `The npm build failed to emit:\n${
        ts.formatDiagnostics(result.diagnostics, {
          getCanonicalFileName: (f) => f,
          getCurrentDirectory: () => root,
          getNewLine: () => "\n",
        })
      }`,
    );
  }

  const exports: Record<string, { types: string; default: string }> = {};
  for (const [key, path] of Object.entries(config.exports)) {
    exports[key] = { types: toJs(path, ".d.ts"), default: toJs(path, ".js") };
  }
  const dependencies = Object.fromEntries([...used].sort(([a], [b]) => a < b ? -1 : 1));
  const packageJson: Record<string, unknown> = {
    name: jsrNpmName(config.name),
    version: config.version,
    ...(config.description ? { description: config.description } : {}),
    ...(config.license ? { license: config.license } : {}),
    homepage: `https://jsr.io/${config.name}`,
    type: "module",
    engines: { node: NODE_ENGINES },
    exports,
    dependencies,
    _jsr_revision: 0,
  };
  await Deno.writeTextFile(`${outDir}/package.json`, JSON.stringify(packageJson, null, 2) + "\n");
  written.push("package.json");
  for (const extra of ["README.md", "LICENSE"]) {
    try {
      await Deno.copyFile(`${root}/${extra}`, `${outDir}/${extra}`);
      written.push(extra);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  return { packageJson, files: written.sort() };
}

if (import.meta.main) {
  const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
  const outArg = Deno.args.find((a) => a.startsWith("--out="))?.slice("--out=".length);
  const outDir = outArg
    ? (outArg.startsWith("/") ? outArg : `${Deno.cwd()}/${outArg}`)
    : `${root}/dist/npm`;
  const started = performance.now();
  try {
    const { packageJson, files } = await buildNpm({ root, outDir });
    const modules = files.filter((f) => f.endsWith(".js")).length;
    console.log(
      `Built ${packageJson.name}@${packageJson.version} in ${outDir}: ${modules} modules, ${files.length} files, ${
        Math.round(performance.now() - started)
      } ms`,
    );
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    Deno.exit(1);
  }
}
