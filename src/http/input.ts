import type { Request } from "express";
import type { z } from "zod";
import { DocketError } from "../errors/errors.js";

/** The zod type at the core of a field, under optional/default/nullable wrappers. */
function coreType(schema: z.ZodType | undefined): string | undefined {
  let s = schema as unknown as { _zod?: { def: { type: string; innerType?: unknown } } } | undefined;
  while (s?._zod && ["optional", "default", "nullable", "prefault"].includes(s._zod.def.type)) {
    s = s._zod.def.innerType as typeof s;
  }
  return s?._zod?.def.type;
}

/**
 * Query strings carry only strings; turn them into the types the operation's schema expects
 * (so `?limit=20` is the number 20), leaving anything else for the schema to refuse.
 */
export function coerceQuery(schema: z.ZodObject, query: Request["query"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const type = coreType(schema.shape[key] as z.ZodType | undefined);
    if (typeof value !== "string") {
      out[key] = value;
    } else if (type === "number" && /^-?\d+(\.\d+)?$/.test(value)) {
      out[key] = Number(value);
    } else if (type === "boolean" && (value === "true" || value === "false")) {
      out[key] = value === "true";
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Path parameters win over body and query fields of the same name; both are coerced like a query (`/courts/1`). */
export function requestInput(schema: z.ZodObject, req: Request, method: "GET" | "POST"): Record<string, unknown> {
  let body: Record<string, unknown> = {};
  if (method === "POST" && req.body !== undefined) {
    if (req.body === null || typeof req.body !== "object" || Array.isArray(req.body)) {
      throw new DocketError("INVALID_INPUT", "the request body must be a JSON object");
    }
    body = req.body as Record<string, unknown>;
  }
  return { ...coerceQuery(schema, req.query), ...body, ...coerceQuery(schema, req.params) };
}
