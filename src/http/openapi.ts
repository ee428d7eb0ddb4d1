import { z } from "zod";
import { errorCodes, errorStatus } from "../errors/errors.js";
import type { Operation } from "../operations/operation.js";
import { eventsOpenApi } from "./events.js";

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const s = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  delete s.$schema;
  return s;
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);
}

const statusText: Record<number, string> = {
  400: "Invalid input: malformed address or amount, missing required field, bad JSON",
  402: "Payment required",
  404: "Not found: unknown case, unregistered agent, unknown route",
  409: "Conflict",
  413: "Body too large",
  415: "Body must be application/json",
  422: "Validation error: wrong field type, constraint violated (e.g. stake below the minimum)",
  429: "Rate limited",
  500: "Server-side failure: contract revert (CONTRACT_REVERT, with the reason), RPC error, unexpected",
  503: "Degraded",
};

/** The OpenAPI 3.1 document, generated from the same operations as the routes. */
export function buildOpenApi(
  operations: Operation[],
  opts: { version: string; serverUrl?: string /** Whether `GET /events` is served. */; events?: boolean },
): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    const inSchema = jsonSchema(op.input, "input");
    const props = (inSchema.properties ?? {}) as Record<string, Json>;
    const required = new Set((inSchema.required ?? []) as string[]);
    const inPath = pathParams(op.http.path);
    const parameters: Json[] = inPath.map((name) => ({
      name,
      in: "path",
      required: true,
      description: props[name]?.description,
      schema: props[name] ?? { type: "string" },
    }));
    let requestBody: Json | undefined;
    const rest = Object.keys(props).filter((k) => !inPath.includes(k));
    if (op.http.method === "GET") {
      for (const name of rest) {
        parameters.push({
          name,
          in: "query",
          required: required.has(name),
          description: props[name]?.description,
          schema: props[name],
        });
      }
    } else {
      const bodyProps = Object.fromEntries(rest.map((k) => [k, props[k]]));
      const bodyRequired = rest.filter((k) => required.has(k));
      requestBody = {
        required: bodyRequired.length > 0,
        content: {
          "application/json": {
            schema: {
              type: "object",
              properties: bodyProps,
              ...(bodyRequired.length ? { required: bodyRequired } : {}),
            },
            ...(op.example
              ? { example: Object.fromEntries(Object.entries(op.example).filter(([k]) => !inPath.includes(k))) }
              : {}),
          },
        },
      };
    }
    const errorStatuses = [...new Set(Object.values(errorStatus))].filter((s) =>
      op.kind === "read" ? ![402, 409, 413, 415].includes(s) : s !== 503,
    );
    const responses: Record<string, Json> = {
      "200": {
        description: op.kind === "write" ? "An unsigned transaction to sign and broadcast" : "OK",
        content: { "application/json": { schema: jsonSchema(op.output, "output") } },
      },
    };
    for (const s of errorStatuses) {
      responses[String(s)] = {
        description: statusText[s] ?? "Error",
        content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
      };
    }
    const path = op.http.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    paths[path] ??= {};
    (paths[path] as Record<string, Json>)[op.http.method.toLowerCase()] = {
      operationId: op.name,
      summary: op.title,
      description: `${op.description}\n\nMCP tool: \`${op.name}\`.`,
      tags: [op.toolset],
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  if (opts.events) paths["/events"] = eventsOpenApi as unknown as Record<string, Json>;
  return {
    openapi: "3.1.0",
    info: {
      title: "docket",
      version: opts.version,
      description:
        "Gateway to on-chain dispute resolution. Reads are cached (X-Cache, Cache-Control). Every write returns an unsigned transaction that you sign and broadcast with your own wallet; docket holds no key. Every operation is also an MCP tool of the same name (Streamable HTTP at /mcp, SSE at /sse).",
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    tags: [
      { name: "cases", description: "Disputes and their lifecycle" },
      { name: "judges", description: "Judge pool, stakes and validator statistics" },
      { name: "agents", description: "Agent registration and discovery" },
      { name: "payments", description: "Payment-required filing and transaction verification" },
      { name: "system", description: "Health and statistics" },
      ...(opts.events
        ? [{ name: "events", description: "Court events pushed as they are mined (Server-Sent Events)" }]
        : []),
    ],
    paths,
    components: {
      schemas: {
        ErrorEnvelope: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: { type: "string", enum: errorCodes },
                message: { type: "string" },
                details: {
                  type: "object",
                  description: "For CONTRACT_REVERT: reason (the contract's error), message, args",
                },
              },
            },
          },
        },
      },
    },
  };
}
