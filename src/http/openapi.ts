import { z } from "zod";
import type { ErrorCode } from "../errors/errors.js";
import { type Operation, TOOLSET_DESCRIPTIONS } from "../operations/kernel/operation.js";
import { jsonSchemaOf } from "../operations/kernel/schemas.js";
import { eventsOpenApi } from "./events.js";
import { gatewayOpenApi } from "./gateway.js";
import { errorsByStatus, inputFields } from "./operationErrors.js";

type Json = Record<string, unknown>;

/** What each error status means; the response lists the codes this operation can answer it with. */
const statusText: Record<number, string> = {
  400: "Invalid input",
  402: "Payment required, or the payment proof given does not hold",
  404: "Not found",
  409: "Conflict",
  413: "Body too large (64 kB of JSON; an evidence upload: EVIDENCE_MAX_BYTES)",
  415: "Body must be application/json (an evidence upload: one of the accepted media types)",
  422: "Validation error: a field of the wrong type, a constraint broken",
  429: "Rate limited (RATE_LIMIT_PER_MINUTE per client)",
  500: "Server-side failure: the contract refused the call (details.reason), or the chain node could not be read",
  503: "The chain node serves another chain id than docket's",
};

/** The error envelope, with the codes this answer can carry. */
function errorEnvelope(codes?: readonly ErrorCode[]): Json {
  return {
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: { type: "string", ...(codes ? { enum: codes } : {}) },
          message: { type: "string" },
          details: {
            type: "object",
            description: "For CONTRACT_REVERT: reason (the contract's error), message, args; for input errors: issues",
          },
        },
      },
    },
  };
}

/**
 * A body whose `error.code` (the envelope's) or `docketError.code` (the 402's) is one of `codes`. The
 * 402's own `error` keeps its schema: one of x402 v1's error reasons, not a docket code.
 */
function withCodes(schema: Json, codes: readonly ErrorCode[]): Json {
  const props = schema.properties as Record<string, Json> | undefined;
  const envelope = props?.docketError ?? props?.error;
  const code = (envelope?.properties as Record<string, Json> | undefined)?.code;
  if (code) code.enum = [...codes];
  return schema;
}

const json = (schema: Json) => ({ "application/json": { schema } });

/** A paid operation's 200: its output without the 402's body (over MCP both are results). */
function okSchema(op: Operation): z.ZodType {
  const required = op.payment?.required;
  if (!required || !(op.output instanceof z.ZodUnion)) return op.output;
  const mcp = op.payment?.mcpRequired;
  const rest = (op.output.options as z.ZodType[]).filter((o) => o !== required && o !== mcp);
  return rest.length === 1 ? (rest[0] as z.ZodType) : z.union(rest);
}

/** The payment's response headers answered with `status`. */
function paymentHeaders(op: Operation, status: number): Json | undefined {
  const hs = (op.payment?.responseHeaders ?? []).filter((h) => h.statuses.includes(status));
  if (hs.length === 0) return undefined;
  return Object.fromEntries(hs.map((h) => [h.name, { description: h.description, schema: { type: "string" } }]));
}

function responses(op: Operation): Record<string, Json> {
  const out: Record<string, Json> = {};
  const answer = (status: number, description: string, schema: Json) => {
    const headers = paymentHeaders(op, status);
    out[String(status)] = { description, ...(headers ? { headers } : {}), content: json(schema) };
  };
  const ok = op.okDescription ?? (op.kind === "write" ? "An unsigned transaction to sign and broadcast" : "OK");
  if (op.http.raw) {
    const headers = Object.fromEntries(
      Object.entries(op.http.raw.headers).map(([name, description]) => [
        name,
        { description, schema: { type: "string" } },
      ]),
    );
    out["200"] = {
      description: `${op.http.raw.description} (over MCP, the tool answers JSON: its media type, size and short text)`,
      headers,
      content: { "*/*": { schema: { type: "string", format: "binary" } } },
    };
  } else {
    answer(200, ok, jsonSchemaOf(okSchema(op), "output"));
  }
  for (const [status, description] of Object.entries(op.answers ?? {})) {
    answer(Number(status), description, jsonSchemaOf(op.output, "output"));
  }
  for (const [status, codes] of errorsByStatus(op)) {
    if (out[status]) throw new Error(`${op.name}: status ${status} is both an answer and an error`);
    const list = codes.map((c) => `\`${c}\``).join(", ");
    const description = `${statusText[status] ?? "Error"}: ${list}`;
    if (status === 402 && op.payment)
      answer(status, description, withCodes(jsonSchemaOf(op.payment.required, "output"), codes));
    else answer(status, description, errorEnvelope(codes));
  }
  out.default = {
    description: "Unexpected failure: `INTERNAL_ERROR`",
    content: json(errorEnvelope(["INTERNAL_ERROR"])),
  };
  return out;
}

function parameters(op: Operation): Json[] {
  const params: Json[] = inputFields(op)
    .filter((f) => f.place !== "body")
    .map((f) => ({
      name: f.name,
      in: f.place,
      required: f.required,
      description: f.schema.description,
      schema: f.schema,
    }));
  for (const h of op.payment?.requestHeaders ?? []) {
    params.push({
      name: h.name,
      in: "header",
      required: false,
      description: h.description,
      schema: { type: "string" },
    });
  }
  return params;
}

function requestBody(op: Operation): Json | undefined {
  if (op.http.method === "GET") return undefined;
  const fields = inputFields(op).filter((f) => f.place === "body");
  const required = fields.filter((f) => f.required).map((f) => f.name);
  const inPath = new Set(
    inputFields(op)
      .filter((f) => f.place === "path")
      .map((f) => f.name),
  );
  const example = op.example && Object.fromEntries(Object.entries(op.example).filter(([k]) => !inPath.has(k)));
  const content: Json = {
    "application/json": {
      schema: {
        type: "object",
        properties: Object.fromEntries(fields.map((f) => [f.name, f.schema])),
        ...(required.length ? { required } : {}),
      },
      ...(example ? { example } : {}),
    },
  };
  const upload = op.http.upload;
  if (upload) {
    // The file itself as the body (its Content-Type is its media type), or a form with one file part.
    const rest = fields.filter(
      (f) => f.name !== upload.bytesField && f.name !== upload.typeField && f.name !== "content",
    );
    content["multipart/form-data"] = {
      schema: {
        type: "object",
        properties: {
          file: {
            type: "string",
            format: "binary",
            description: "The file; its part's Content-Type is its media type",
          },
          ...Object.fromEntries(rest.map((f) => [f.name, f.schema])),
        },
        required: ["file"],
      },
    };
    for (const t of upload.types) content[t] = { schema: { type: "string", format: "binary" } };
  }
  return { required: required.length > 0 || upload !== undefined, content };
}

/**
 * The OpenAPI 3.1 document, generated from the same operations as the routes: each operation's
 * parameters (payment headers included), body, and exactly the statuses it can answer with.
 * `servers` is added per request (docs.ts), from the address the client used.
 */
/** GET /events (not an operation): its error answers in the envelope, with their codes. */
function eventsPath(): Json {
  const codes: Record<string, ErrorCode[]> = {
    "400": ["INVALID_ADDRESS", "INVALID_INPUT"],
    "429": ["RATE_LIMITED"],
    "503": ["SERVICE_UNAVAILABLE"],
  };
  const responses = Object.fromEntries(
    Object.entries(eventsOpenApi.get.responses as Record<string, { description: string }>).map(([status, r]) => [
      status,
      codes[status] ? { description: r.description, content: json(errorEnvelope(codes[status])) } : r,
    ]),
  );
  return { get: { ...eventsOpenApi.get, responses } };
}

/** GET /ipfs/{cid} (docket's trustless gateway, not an operation): its error answers in the envelope. */
function gatewayPath(): Json {
  const errors = {
    "400": {
      description: "Not a CID, or not a raw-block request: `INVALID_INPUT`",
      content: json(errorEnvelope(["INVALID_INPUT"])),
    },
    "404": {
      description: "Not in docket's store: `EVIDENCE_NOT_FOUND`",
      content: json(errorEnvelope(["EVIDENCE_NOT_FOUND"])),
    },
    "429": { description: statusText[429], content: json(errorEnvelope(["RATE_LIMITED"])) },
  };
  return { get: { ...gatewayOpenApi.get, responses: { ...gatewayOpenApi.get.responses, ...errors } } };
}

/** The OpenAPI 3.1 document, generated from the same operations as the routes (and GET /events when served). */
export function buildOpenApi(operations: Operation[], opts: { version: string; events?: boolean }): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    const body = requestBody(op);
    const path = op.http.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    paths[path] ??= {};
    (paths[path] as Record<string, Json>)[op.http.method.toLowerCase()] = {
      operationId: op.name,
      summary: op.title,
      description: `${op.description}\n\nMCP tool: \`${op.name}\`.`,
      tags: [op.toolset],
      parameters: parameters(op),
      ...(body ? { requestBody: body } : {}),
      responses: responses(op),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "docket",
      version: opts.version,
      description:
        "Gateway to on-chain dispute resolution. Reads are cached (X-Cache, Cache-Control). Every write returns an unsigned transaction that you sign and broadcast with your own wallet; docket holds no key. Every operation is also an MCP tool of the same name (Streamable HTTP at /mcp, SSE at /sse).",
      license: { name: "MIT", identifier: "MIT" },
    },
    // Everything is public: no operation takes credentials (a payment is a proof, not a credential).
    security: [],
    tags: [
      ...Object.entries(TOOLSET_DESCRIPTIONS).map(([name, description]) => ({ name, description })),
      ...(opts.events
        ? [{ name: "events", description: "Court events pushed as they are mined (Server-Sent Events)" }]
        : []),
    ],
    paths: {
      ...paths,
      "/ipfs/{cid}": gatewayPath(),
      ...(opts.events ? { "/events": eventsPath() } : {}),
    },
  };
}
