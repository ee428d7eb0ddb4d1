import { type ErrorCode, errorStatus } from "../errors/errors.js";
import { chainErrors, type Operation } from "../operations/kernel/operation.js";
import { type JsonSchema, jsonSchemaOf, PATTERN_CODES } from "../operations/kernel/schemas.js";
import { RATE_LIMIT_EXEMPT_PATH } from "./security.js";

type Json = JsonSchema;

/** One field of an operation's input, and where an HTTP request carries it. */
export interface InputField {
  name: string;
  place: "path" | "query" | "body";
  required: boolean;
  schema: Json;
}

/** The input's fields: path parameters by the route, the rest in the query (GET) or the JSON body (POST). */
export function inputFields(op: Operation): InputField[] {
  const s = jsonSchemaOf(op.input, "input");
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required ?? []) as string[]);
  const inPath = [...op.http.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);
  const rest = op.http.method === "GET" ? "query" : "body";
  const fields: InputField[] = inPath.map((name) => ({
    name,
    place: "path",
    required: true,
    schema: props[name] ?? { type: "string" },
  }));
  for (const [name, schema] of Object.entries(props)) {
    if (!inPath.includes(name)) fields.push({ name, place: rest, required: required.has(name), schema });
  }
  return fields;
}

/** Every `pattern` in a field's schema (its own, its items', its alternatives'). */
function patterns(schema: unknown): string[] {
  if (schema === null || typeof schema !== "object") return [];
  const own = (schema as Json).pattern;
  return [...(typeof own === "string" ? [own] : []), ...Object.values(schema).flatMap(patterns)];
}

/**
 * How a field can be refused (operations/kernel/schemas.ts validationError): a path parameter is always a
 * present string, so only its format (and its percent-encoding) can be wrong, or, for a number (a
 * court id), its value; a query or body field can also be missing or of any other JSON type.
 */
function fieldErrors(f: InputField): ErrorCode[] {
  const numeric = f.schema.type === "integer" || f.schema.type === "number";
  const codes: ErrorCode[] = f.place === "path" && !numeric ? ["INVALID_INPUT"] : ["VALIDATION_ERROR"];
  if (f.place !== "path" && f.required) codes.push("MISSING_FIELD");
  for (const p of patterns(f.schema)) {
    const code = PATTERN_CODES[p];
    if (code) codes.push(code);
  }
  return codes;
}

/** What reading a JSON body can fail with (http/app.ts's body parser, http/input.ts). */
const BODY_ERRORS: ErrorCode[] = ["INVALID_JSON", "INVALID_INPUT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"];

/**
 * Every error code an HTTP request for `op` can be answered with, but INTERNAL_ERROR (anything may
 * fail unexpectedly: OpenAPI's `default`). Derived from the definition: its input's fields, its
 * method, the rate limit, whether it serves a wrong chain, its handler's `errors`, its `payment`.
 */
export function operationErrors(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(inputFields(op).flatMap(fieldErrors));
  if (op.http.method === "POST") for (const c of BODY_ERRORS) codes.add(c);
  if (op.http.path !== RATE_LIMIT_EXEMPT_PATH) codes.add("RATE_LIMITED");
  if (!op.servesOnWrongChain) codes.add("CHAIN_MISMATCH");
  for (const c of op.errors ?? chainErrors(op.kind)) codes.add(c);
  for (const c of op.payment?.refusals ?? []) codes.add(c);
  return [...codes];
}

/** The error codes of `op`, by HTTP status, statuses ascending. */
export function errorsByStatus(op: Operation): Map<number, ErrorCode[]> {
  const by = new Map<number, ErrorCode[]>();
  for (const code of operationErrors(op).sort()) {
    const s = errorStatus[code];
    by.set(s, [...(by.get(s) ?? []), code]);
  }
  return new Map([...by].sort(([a], [b]) => a - b));
}
