import { createRequire } from "node:module";
import { dirname } from "node:path";
import express, { type Express } from "express";
import type { Operation } from "../operations/kernel/operation.js";
import { buildOpenApi } from "./openapi.js";
import { publicOrigin } from "./publicOrigin.js";

const require = createRequire(import.meta.url);
const version = (require("docket/package.json") as { version: string }).version;

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>docket API</title>
  <link rel="stylesheet" href="./swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="./swagger-ui-bundle.js"></script>
  <script src="./init.js"></script>
</body>
</html>
`;

const init = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  tryItOutEnabled: false,
  displayOperationId: true,
});
`;

/** /openapi.json and /docs (Swagger UI served from the swagger-ui-dist package: works offline). */
export function mountDocs(app: Express, operations: Operation[], opts: { events?: boolean } = {}): void {
  const doc = buildOpenApi(operations, { version, ...opts });
  app.get("/openapi.json", (req, res) => {
    // The server is the address this client used (behind a trusted proxy, the proxy's public one).
    res
      .set("Cache-Control", "no-cache")
      .set("Vary", "Host, X-Forwarded-Host, X-Forwarded-Proto")
      .json({ ...doc, servers: [{ url: publicOrigin(req) }] });
  });
  app.get(["/docs", "/docs/", "/docs/index.html"], (req, res) => {
    if (req.path === "/docs") return res.redirect(301, "/docs/");
    res.type("html").set("Cache-Control", "no-cache").send(page);
  });
  app.get("/docs/init.js", (_req, res) => {
    res.type("application/javascript").send(init);
  });
  const dist = dirname(require.resolve("swagger-ui-dist/package.json"));
  app.use("/docs", express.static(dist, { index: false, maxAge: "1h" }));
}
