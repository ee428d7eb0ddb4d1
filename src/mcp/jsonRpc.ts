import type { Response } from "express";

/**
 * An HTTP-level refusal on an MCP endpoint, as a JSON-RPC error object (what MCP clients parse),
 * not docket's REST envelope.
 */
export function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).set("Cache-Control", "no-store").json({ jsonrpc: "2.0", error: { code, message }, id: null });
}
