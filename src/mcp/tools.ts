import {
  type CallToolRequest,
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type Tool,
  type ToolAnnotations,
} from "@modelcontextprotocol/server";
import { type Caller, DoorKernel } from "../doors/kernel.js";
import type { Ctx, Operation } from "../operations/kernel/operation.js";
import { type JsonSchema, jsonSchemaOf } from "../operations/kernel/schemas.js";
import type { PaymentOutcome } from "../payments/filing.js";
import { appMeta } from "./apps.js";
import { errorEnvelopeSchema, toolError, toolResult } from "./errors.js";
import { portableInputSchema, withoutNulls } from "./toolSchemas.js";

type JsonSchemaObject = Tool["inputSchema"];

const errorBranch = jsonSchemaOf(errorEnvelopeSchema, "output");

/** Each operation's input as zod's JSON Schema, before `portableInputSchema`: what `toolArguments` reads nulls by. */
const inputSchemas = new WeakMap<Operation, JsonSchema>();
function inputSchemaOf(op: Operation): JsonSchema {
  let schema = inputSchemas.get(op);
  if (!schema) {
    schema = jsonSchemaOf(op.input, "input");
    inputSchemas.set(op, schema);
  }
  return schema;
}

/**
 * A tools/call's arguments as the operation reads them: a tool advertises every optional argument
 * as nullable (a model in OpenAI's strict mode must send each one), so over MCP `null` means "absent".
 */
export function toolArguments(op: Operation, args: unknown): unknown {
  return withoutNulls(inputSchemaOf(op), args);
}

/**
 * What an operation's kind says about it. Reads only read. A write builds an unsigned
 * transaction and changes nothing itself, but its purpose is a change on a public chain once the
 * caller signs, so it is not read-only, and the transaction it returns is not safe to send twice.
 */
export function annotationsFor(op: Operation): ToolAnnotations {
  if (op.kind === "read") {
    return { title: op.title, readOnlyHint: true, idempotentHint: true, openWorldHint: true };
  }
  return { title: op.title, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
}

const definitions = new WeakMap<Operation, Tool>();

/**
 * An MCP call carries no HTTP headers of its own: a payment proof comes in the x402 MCP binding's
 * `_meta["x402/payment"]` (a v2 PaymentPayload) or as an argument.
 */
function caller(request: CallToolRequest): Caller {
  return { transport: "mcp", payment: request.params._meta?.[X402_PAYMENT_META] };
}

/** The x402 MCP binding's `_meta` keys: the payment a call carries, the settlement its result carries. */
const X402_PAYMENT_META = "x402/payment";
const X402_PAYMENT_RESPONSE_META = "x402/payment-response";

/** The binding's receipt: the x402 v2 settlement the operation answered with, as the result's `_meta`. */
function withPaymentResponse(result: CallToolResult, payment: PaymentOutcome | undefined): CallToolResult {
  const s = payment?.settlement;
  if (s?.x402Version !== 2) return result;
  return { ...result, _meta: { ...result._meta, [X402_PAYMENT_RESPONSE_META]: s.response } };
}

/**
 * An operation as an MCP tool, generated from the operation alone: its name, title and
 * description, its zod input as JSON Schema (the same schema the HTTP route validates with) in the
 * form every LLM provider takes (`portableInputSchema`; no `$schema`, which Gemini refuses),
 * and its output. The output schema also admits the error envelope a failed call carries, since
 * clients (the official SDK client among them) check `structuredContent` against it even when
 * `isError` is set.
 */
export function toolDefinition(op: Operation): Tool {
  let tool = definitions.get(op);
  if (!tool) {
    tool = {
      name: op.name,
      title: op.title,
      description: op.description,
      inputSchema: portableInputSchema(inputSchemaOf(op)) as JsonSchemaObject,
      outputSchema: { type: "object", anyOf: [jsonSchemaOf(op.output, "output"), errorBranch] } as JsonSchemaObject,
      annotations: annotationsFor(op),
      ...appMeta(op),
    };
    definitions.set(op, tool);
  }
  return tool;
}

/**
 * Serves tools/list and tools/call for the given operations on a low-level server, through the door
 * kernel. Arguments are validated by the operation itself, so bad input gets docket's codes
 * (MISSING_FIELD, INVALID_ADDRESS, VALIDATION_ERROR...) rather than the SDK's generic message; a
 * cached read is answered without awaiting the cache, as over HTTP.
 */
export function registerTools(server: Server, ctx: Ctx, ops: readonly Operation[]): void {
  const byName = new Map(ops.map((op) => [op.name, op]));
  const door = new DoorKernel(ctx);
  server.registerCapabilities({ tools: { listChanged: false } });
  server.setRequestHandler("tools/list", () => ({ tools: ops.map(toolDefinition) }));
  // The SDK checks the request against its schema first (-32602 for arguments that are not an object).
  server.setRequestHandler("tools/call", async (request) => {
    const op = byName.get(request.params.name);
    // An unknown tool is a protocol error, as the MCP spec asks, not a tool result.
    if (!op) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool: ${request.params.name}`);
    try {
      const prepared = door.prepare(op, undefined, toolArguments, request.params.arguments ?? {});
      const result = await door.run(op, prepared, caller(request));
      return withPaymentResponse(toolResult(result.body, result.status), result.payment);
    } catch (err) {
      return toolError(err, ctx.log);
    }
  });
}
