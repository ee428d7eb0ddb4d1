import type { HTTPRequestContext } from "@x402/core/http";
import { BAZAAR, bazaarResourceServerExtension, declareDiscoveryExtension } from "@x402/extensions/bazaar";

/**
 * What a paid route tells x402's Bazaar (the v2 discovery extension facilitators catalogue paid
 * resources by), so a paying agent can find "file a dispute" as a service: its input and output
 * schemas and an example of each. The operation hands in its own schemas (the ones its doors
 * validate with): nothing here is written twice.
 */
export interface PaidRoute {
  /** The MCP tool name, for the declaration a 402 over MCP carries. */
  toolName: string;
  /** The HTTP method of the route (a body method: the input is its JSON body). */
  method: "POST";
  /** The input as JSON Schema, and an input that satisfies it. */
  inputSchema: Record<string, unknown>;
  input: Record<string, unknown>;
  /** The paid answer (the 200) as JSON Schema, and an example of it. */
  outputSchema: Record<string, unknown>;
  output: Record<string, unknown>;
}

/** The `extensions` of a v2 PaymentRequired: Bazaar's declaration of the route (HTTP) or the tool (MCP). */
export function bazaarExtensions(route: PaidRoute, door: "http" | "mcp"): Record<string, unknown> {
  const output = { example: route.output, schema: route.outputSchema };
  if (door === "mcp") {
    return declareDiscoveryExtension({
      toolName: route.toolName,
      transport: "streamable-http",
      inputSchema: route.inputSchema,
      example: route.input,
      output,
    });
  }
  const declared = declareDiscoveryExtension({
    bodyType: "json",
    input: route.input,
    inputSchema: route.inputSchema,
    output,
  });
  // The method, set as x402's resource server extension sets it from the request (no route
  // pattern: the paid route has no path parameters, and the adapter is not read).
  const context = { method: route.method, adapter: undefined, path: "" } as unknown as HTTPRequestContext;
  const enrich = bazaarResourceServerExtension.enrichDeclaration;
  const bazaar = declared[BAZAAR.key];
  return { [BAZAAR.key]: enrich ? enrich(bazaar, context) : bazaar };
}

/**
 * The same for x402 v1, whose requirements carry it in `outputSchema` (what Bazaar's
 * `extractDiscoveryInfoV1` reads): the method, a JSON body and its fields, and the answer's example.
 */
export function bazaarOutputSchemaV1(route: PaidRoute): Record<string, unknown> {
  const fields = (route.inputSchema.properties ?? {}) as Record<string, unknown>;
  return {
    input: { type: "http", method: route.method, bodyType: "json", bodyFields: fields, discoverable: true },
    output: route.output,
  };
}
