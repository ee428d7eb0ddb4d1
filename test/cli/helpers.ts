import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";
import { request } from "../support/index.js";

/**
 * What a docket started another way (an installed package, another Node) must serve of what the
 * build carries: health, the explorer's pages and assets, /docs, and the MCP App `ui://docket/case`
 * (bundled from the browser sources) over HTTP.
 */
export async function expectServesExplorer(d: { url: string }): Promise<void> {
  expect((await request(d, "/health")).status).toBe(200);
  for (const path of ["/", "/explorer/cases", "/explorer/courts", "/explorer/jobs"]) {
    const page = await request(d, path, undefined, { accept: "text/html" });
    expect(page.status, path).toBe(200);
    expect(page.body).toContain("docket explorer");
  }
  for (const asset of ["explorer.css", "live.js", "favicon.svg"])
    expect((await request(d, `/explorer/assets/${asset}`)).status, asset).toBe(200);
  expect((await request(d, "/docs/")).status).toBe(200);
  const client = new Client({ name: "docket-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`)));
  try {
    const app = await client.readResource({ uri: "ui://docket/case" });
    expect(JSON.stringify(app.contents)).toContain("<script");
  } finally {
    await client.close();
  }
}
