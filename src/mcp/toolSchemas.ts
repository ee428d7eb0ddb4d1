import type { JsonSchema } from "../operations/kernel/schemas.js";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether a schema node describes an object with named properties. */
function hasProperties(s: JsonSchema): s is JsonSchema & { properties: Record<string, JsonSchema> } {
  return isObject(s.properties) && (s.type === "object" || s.type === undefined);
}

function acceptsNull(s: JsonSchema): boolean {
  if (s.type === undefined) return s.anyOf === undefined || (s.anyOf as JsonSchema[]).some(acceptsNull);
  return s.type === "null" || (Array.isArray(s.type) && s.type.includes("null"));
}

/**
 * The same schema, also admitting null. A typed node gets `null` in its type list (its pattern,
 * bounds and length limits apply to strings and numbers only, so null passes them), which keeps
 * the description beside the type: Gemini's SDK, unwrapping a two-branch `anyOf` with null, keeps
 * only the branch and would lose a description written beside it.
 */
function nullable(s: JsonSchema): JsonSchema {
  if (acceptsNull(s)) return s;
  if (typeof s.type === "string" || Array.isArray(s.type)) {
    const out: JsonSchema = { ...s, type: [...[s.type].flat(), "null"] };
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null];
    return out;
  }
  const { description, ...rest } = s;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: "null" }] };
}

/**
 * A tool's input schema as every provider takes it: every object closed (`additionalProperties:
 * false`) and every optional property also admitting `null` (which means "absent", see
 * `withoutNulls`), so OpenAI's strict-mode converters take it (strict mode lists every property as
 * required, an optional one nullable). Which properties are required is unchanged: a client that
 * checks arguments against the schema (LangChain does) still lets a caller leave one out.
 * Patterns, bounds, formats, defaults and descriptions are kept.
 */
export function portableInputSchema(s: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...s };
  if (hasProperties(s)) {
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    out.properties = Object.fromEntries(
      Object.entries(s.properties).map(([k, v]) => {
        const portable = portableInputSchema(v);
        return [k, required.has(k) ? portable : nullable(portable)];
      }),
    );
    out.additionalProperties = false;
  }
  if (isObject(s.items)) out.items = portableInputSchema(s.items);
  if (Array.isArray(s.anyOf)) out.anyOf = (s.anyOf as JsonSchema[]).map(portableInputSchema);
  return out;
}

/**
 * Arguments as the operation's own schema reads them: `null` for an optional property that does
 * not itself take null becomes absent (its default applies), at any depth, as `portableInputSchema`
 * advertises; a model in OpenAI's strict mode sends null for every argument it leaves out. `schema`
 * is the operation's input schema before `portableInputSchema`. Everything else is left for the
 * operation's validation to judge (a null for a required property stays, and is refused).
 */
export function withoutNulls(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value)) {
    if (!isObject(schema.items)) return value;
    const items = value.map((v) => withoutNulls(schema.items as JsonSchema, v));
    return items.every((v, i) => v === value[i]) ? value : items;
  }
  if (!isObject(value) || !hasProperties(schema)) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  let changed = false;
  const kept: [string, unknown][] = [];
  for (const [k, v] of Object.entries(value)) {
    const prop = Object.hasOwn(schema.properties, k) ? schema.properties[k] : undefined;
    if (prop && v === null && !required.has(k) && !acceptsNull(prop)) {
      changed = true;
      continue;
    }
    const w = prop ? withoutNulls(prop, v) : v;
    changed ||= w !== v;
    kept.push([k, w]);
  }
  // The same object when nothing changed: the common call, on the cached-read path.
  return changed ? Object.fromEntries(kept) : value;
}
