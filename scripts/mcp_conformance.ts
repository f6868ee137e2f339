// `deno task test:mcp-conformance`: the MCP maintainers' own conformance
// suite (@modelcontextprotocol/conformance on npm; its CLI needs Node 22,
// taken from npm's `node` package with `npx --yes node@22`, as
// scripts/test_node.ts does) against this package:
//
// - every server scenario against a FakeMcpServer on listen(), declared
//   through the public API with what the scenarios ask for
//   (scripts/_mcp_conformance_server.ts);
// - every client scenario that needs no OAuth against an agent on
//   McpToolProvider (scripts/_mcp_conformance_client.ts).
//
// It prints each scenario and the counts, and fails on any scenario the
// SDK's own McpServer (or, for the client scenarios, the SDK's Client)
// passes. The suite is installed into a temp dir with `npm i
// --prefer-offline`; the scenarios talk to 127.0.0.1 only.
import { conformanceServer } from "./_mcp_conformance_server.ts";

/** The suite's version: its scenario list is what the lists below were measured on. */
export const CONFORMANCE_VERSION = "0.1.16";

/**
 * The server scenarios of 0.1.16 (`conformance list --server`, suite "all")
 * that the SDK's own McpServer passes, configured as the suite's reference
 * server (examples/servers/typescript/everything-server.ts): all 32,
 * measured with @modelcontextprotocol/sdk 1.32.2 (issue 37).
 */
export const SDK_SERVER_PASSES: readonly string[] = [
  "server-initialize",
  "logging-set-level",
  "ping",
  "completion-complete",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "json-schema-2020-12",
  "elicitation-sep1034-defaults",
  "server-sse-polling",
  "server-sse-multiple-streams",
  "elicitation-sep1330-enums",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "dns-rebinding-protection",
];

/** The client scenarios of 0.1.16 that need no OAuth; the SDK's Client passes each. */
export const CLIENT_SCENARIOS: readonly string[] = [
  "initialize",
  "tools_call",
  "elicitation-sep1034-client-defaults",
  "sse-retry",
];

const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

async function exec(cmd: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) {
    console.error(`${cmd} ${args.join(" ")} failed (exit ${out.code}) in ${cwd}:\n${text}`);
    Deno.exit(1);
  }
  return text;
}

/** A scenario's outcome: passed when none of its checks is a FAILURE. */
interface Outcome {
  readonly scenario: string;
  readonly passed: boolean;
  readonly failures: readonly string[];
}

// The checks.json files the CLI writes with -o, one folder per scenario
// run (`server-<scenario>-<time>` or `<scenario>-<time>`).
async function outcomes(dir: string, names: readonly string[], prefix: string): Promise<Outcome[]> {
  const folders: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.isDirectory) folders.push(e.name);
  return await Promise.all(names.map(async (scenario) => {
    const safe = scenario.replaceAll("/", "-");
    const folder = folders.find((f) =>
      f.startsWith(`${prefix}${safe}-`) && /-\d{4}-/.test(f.slice(prefix.length + safe.length))
    );
    if (!folder) return { scenario, passed: false, failures: ["the suite wrote no result for it"] };
    const checks = JSON.parse(await Deno.readTextFile(`${dir}/${folder}/checks.json`)) as {
      status: string;
      name: string;
      errorMessage?: string;
    }[];
    const failures = checks.filter((c) => c.status === "FAILURE")
      .map((c) => `${c.name}: ${c.errorMessage ?? "failed"}`);
    return { scenario, passed: failures.length === 0, failures };
  }));
}

const counts: string[] = [];

function report(title: string, results: readonly Outcome[], required: readonly string[]): number {
  const passed = results.filter((r) => r.passed).length;
  console.log(`${title}: ${passed}/${results.length} scenarios pass`);
  counts.push(`${title.split(" ")[0]} ${passed}/${results.length}`);
  let regressions = 0;
  for (const r of results) {
    const must = required.includes(r.scenario);
    if (!r.passed && must) regressions++;
    console.log(`  ${r.passed ? "✓" : must ? "✗" : "-"} ${r.scenario}`);
    for (const f of r.failures) console.log(`      ${f}`);
  }
  return regressions;
}

if (import.meta.main) {
  const started = performance.now();
  const work = await Deno.makeTempDir({ prefix: "mcp-conformance-" });
  try {
    await Deno.writeTextFile(`${work}/package.json`, '{ "private": true }');
    await exec("npm", [
      "i",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
    ], work);
    const node = (await exec("npx", ["--yes", "node@22", "-p", "process.execPath"], work))
      .trim().split("\n").pop()!;
    const cli = `${work}/node_modules/@modelcontextprotocol/conformance/dist/index.js`;

    // The server scenarios, all in one run of the CLI.
    const server = conformanceServer();
    const listener = await server.listen();
    const serverOut = `${work}/server`;
    try {
      const run = await new Deno.Command(node, {
        args: [cli, "server", "--url", `${listener.url}/mcp`, "--suite", "all", "-o", serverOut],
        cwd: work,
        // No run of the suite may hang the test task: killed, it wrote no result, which fails.
        signal: AbortSignal.timeout(600_000),
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (!run.success && !(await exists(serverOut))) {
        console.error(new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr));
        Deno.exit(1);
      }
    } finally {
      await listener.close();
      await server.close();
    }
    let failed = report(
      "server scenarios (FakeMcpServer over listen())",
      await outcomes(serverOut, SDK_SERVER_PASSES, "server-"),
      SDK_SERVER_PASSES,
    );

    // The client scenarios, one CLI run each: it serves, and starts our agent.
    const clientOut = `${work}/client`;
    const command = [
      Deno.execPath(),
      "run",
      "--quiet",
      `--config=${root}/deno.json`,
      "--allow-net=127.0.0.1,localhost",
      "--allow-env",
      "--allow-read",
      `${root}/scripts/_mcp_conformance_client.ts`,
    ].join(" ");
    for (const scenario of CLIENT_SCENARIOS) {
      await new Deno.Command(node, {
        args: [cli, "client", "--command", command, "--scenario", scenario, "-o", clientOut],
        cwd: root,
        signal: AbortSignal.timeout(180_000),
        stdout: "piped",
        stderr: "piped",
      }).output();
    }
    failed += report(
      "client scenarios (an agent on McpToolProvider)",
      await outcomes(clientOut, CLIENT_SCENARIOS, ""),
      CLIENT_SCENARIOS,
    );
    console.log(
      `MCP conformance: ${counts.join(", ")} scenarios pass${
        failed === 0 ? "" : `; ${failed} that the SDK passes fail`
      } (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    if (failed > 0) Deno.exitCode = 1;
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
