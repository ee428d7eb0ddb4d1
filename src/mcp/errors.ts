import { type CallToolResult, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { z } from "zod";
import { asDocketError, type DocketError, errorCodes } from "../errors/errors.js";
import type { Logger } from "../log.js";

/** The error envelope, as a schema: what a failed tool call carries in `structuredContent`. */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.enum(errorCodes as [string, ...string[]]).describe("Machine-readable code, the same as over HTTP"),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

function logUnexpected(e: DocketError, log?: Logger): void {
  // A revert is the contract answering; only the unexpected is logged, as over HTTP.
  if (e.code === "INTERNAL_ERROR") {
    log?.error({ code: e.code, err: e.cause instanceof Error ? e.cause.stack : e.cause }, e.message);
  } else if (e.code === "RPC_ERROR") {
    log?.warn({ code: e.code, err: e.cause instanceof Error ? e.cause.message : e.cause }, e.message);
  }
}

/**
 * The one place a failure becomes an MCP tool error: `isError: true` with the same envelope as
 * the HTTP body, in `structuredContent` and as JSON text, so a model can read and correct it.
 */
export function toolError(err: unknown, log?: Logger): CallToolResult {
  const e = asDocketError(err);
  logUnexpected(e, log);
  const envelope = e.toEnvelope();
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
  };
}

/**
 * An operation's answer as a tool result: the HTTP JSON body as `structuredContent`, and the same
 * JSON as text. An answer with an error status that carries the envelope (a refused payment
 * proof's 402) is an error result, like a thrown one; `PAYMENT_REQUIRED` is not: it is the first
 * step of the x402 handshake, and its `accepts` say what to pay. Other bodies with an error status
 * (a degraded health report's 503) are answers, not failures.
 */
export function toolResult(body: unknown, status = 200): CallToolResult {
  const text = JSON.stringify(body);
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  // The x402 MCP binding: a v2 PaymentRequired (payment required, or a proof refused) is an error result.
  const x402 = status === 402 && (body as { x402Version?: unknown } | null)?.x402Version === 2;
  const refused = x402 || (status >= 400 && typeof code === "string" && code !== "PAYMENT_REQUIRED");
  return {
    content: [{ type: "text", text }],
    structuredContent: JSON.parse(text),
    ...(refused ? { isError: true } : {}),
  };
}

/**
 * Outside tools (reading a resource), MCP reports failures as JSON-RPC errors, `data` carrying the
 * envelope: a bad address is -32602 (invalid params); a missing case is resource-not-found, which
 * the 2026-07-28 revision spells -32602 too (as SDK 2.x does in both eras, where 1.x said -32002), with the URI read in `data.uri` when there is one.
 */
export function protocolError(err: unknown, log?: Logger, uri?: string): ProtocolError {
  const e = asDocketError(err);
  logUnexpected(e, log);
  const notFound = e.status === 404;
  const code = e.status < 500 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, `${e.code}: ${e.message}`, {
    ...(notFound && uri !== undefined ? { uri } : {}),
    ...e.toEnvelope(),
  });
}
