/**
 * The baselines of the throughput item, run as a child process: `node --import tsx bench/lib/bareServer.ts
 * express|http|express-security` serves the bytes of BODY_FILE on GET /cases/:address and prints its
 * URL. `express` and `http` have no middleware, no cache, no work: the floor docket is compared with.
 * `express-security` adds docket's own security middleware (helmet headers and CORS, from
 * src/http/security.ts, rate limit off) and nothing else, to tell that cost from docket's own.
 * With POST_BODY_FILE, `http` also answers a POST to /mcp with those bytes once it has read the
 * request's body: the floor of a JSON-RPC POST, for the MCP item.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { applySecurity } from "../../src/http/security.js";

const kind = process.argv[2];
const file = process.env.BODY_FILE;
if (!file || (kind !== "express" && kind !== "http" && kind !== "express-security")) {
  process.stderr.write("usage: BODY_FILE=<json> bareServer.ts express|http|express-security\n");
  process.exit(2);
}
const body = readFileSync(file);
const postBody = process.env.POST_BODY_FILE ? readFileSync(process.env.POST_BODY_FILE) : undefined;
const type = "application/json; charset=utf-8";

let server: Server;
if (kind === "express" || kind === "express-security") {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  if (kind === "express-security") applySecurity(app, { rateLimitPerMinute: 0, corsOrigins: "*" });
  app.get("/cases/:address", (_req, res) => {
    res.set("content-type", type);
    res.send(body);
  });
  server = app.listen(0, "127.0.0.1");
} else {
  server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/cases/")) {
      res.writeHead(200, { "content-type": type, "content-length": body.length });
      res.end(body);
      return;
    }
    if (req.method === "POST" && req.url === "/mcp" && postBody) {
      req.resume();
      req.once("end", () => {
        res.writeHead(200, { "content-type": "application/json", "content-length": postBody.length });
        res.end(postBody);
      });
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
}
server.once("listening", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
