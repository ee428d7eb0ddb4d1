import type { Express, Request, Response } from "express";
import { sendError } from "../doors/httpErrors.js";
import { DocketError } from "../errors/errors.js";
import { parseEvidenceRef } from "../evidence/cid.js";
import type { EvidenceStore } from "../evidence/store.js";

const RAW = "application/vnd.ipld.raw";

/**
 * `GET /ipfs/{cid}`: docket as a trustless gateway (https://specs.ipfs.tech/http-gateways/trustless-gateway/)
 * for the blocks it stores, so another IPFS node (Helia's trustless-gateway block broker, a
 * replica's IPFS_GATEWAYS) fetches docket's evidence by CID and checks it itself. Raw blocks only
 * (`?format=raw` or `Accept: application/vnd.ipld.raw`), from docket's own store: it never asks
 * other gateways on a caller's behalf.
 */
export function mountGateway(app: Express, store: EvidenceStore): void {
  app.get("/ipfs/:cid", async (req: Request, res: Response) => {
    try {
      const wantsRaw = req.query.format === "raw" || (req.headers.accept ?? "").includes(RAW);
      if (!wantsRaw) {
        throw new DocketError("INVALID_INPUT", `this is a trustless gateway: ask for ?format=raw or Accept: ${RAW}`);
      }
      const cid = parseEvidenceRef(String(req.params.cid));
      const block = await store.block(cid, { localOnly: true });
      res.set({
        "Content-Type": RAW,
        "Content-Length": String(block.length),
        "Cache-Control": "public, max-age=31536000, immutable",
        ETag: `"${cid.toString()}.raw"`,
        "X-Content-Type-Options": "nosniff",
        "Content-Disposition": `attachment; filename="${cid.toString()}.bin"`,
      });
      res.end(block);
    } catch (err) {
      sendError(res, err);
    }
  });
}

/** The OpenAPI entry of `GET /ipfs/{cid}`. */
export const gatewayOpenApi = {
  get: {
    operationId: "ipfs_block",
    summary: "One raw block (trustless gateway)",
    description:
      "A block docket stores, by CID, as a trustless IPFS gateway serves it (?format=raw or Accept: application/vnd.ipld.raw): for other IPFS nodes and docket replicas (IPFS_GATEWAYS), which verify it against the CID. Only docket's own blocks; to read evidence, GET /evidence/{cid}.",
    tags: ["cases"],
    parameters: [
      { name: "cid", in: "path", required: true, schema: { type: "string" }, description: "The block's CID" },
      { name: "format", in: "query", required: false, schema: { type: "string", enum: ["raw"] } },
    ],
    responses: {
      "200": {
        description: "The block's bytes",
        headers: {
          ETag: { description: "The CID, quoted, with .raw", schema: { type: "string" } },
          "Cache-Control": { description: "public, max-age=31536000, immutable", schema: { type: "string" } },
        },
        content: { [RAW]: { schema: { type: "string", format: "binary" } } },
      },
    },
  },
};
