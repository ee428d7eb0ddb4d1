/** `docket mcp`: the MCP server over stdio (issue #4). */
export async function runMcpStdio(): Promise<void> {
  throw new Error("the stdio MCP server is not built yet");
}
