// The cost of a ReAct tool call through McpToolProvider against the same
// call to a plain `tools: [...]` tool (cases in _mcp_cases.ts). Deno only:
// `deno bench -A bench/deno/mcp_tools.bench.ts`.
import { mcpCases } from "./_mcp_cases.ts";
import { bench } from "./_bench.ts";

for (const c of mcpCases()) bench(c, "mcp_tools");
