import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Ctx, Operation } from "../operations/operation.js";
import { runOperation } from "../operations/run.js";
import { protocolError } from "./errors.js";

/** Cases listed as resources at most; past that, page with the list_cases tool. */
const MAX_LISTED = 1000;
const PAGE = 100;

function operation(operations: readonly Operation[], name: string): Operation {
  const op = operations.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name} among those served`);
  return op;
}

/** The URI of a case resource. */
export function caseUri(address: string): string {
  return `docket://cases/${address}`;
}

/**
 * Cases as MCP resources, `docket://cases/{address}`: listing reads the case addresses from the
 * chain (through list_cases and its cache), reading one answers get_case's JSON.
 */
export function registerCaseResources(server: McpServer, ctx: Ctx, operations: readonly Operation[]): void {
  const req = { transport: "mcp" as const, headers: {} };
  const listCases = operation(operations, "list_cases");
  const getCase = operation(operations, "get_case");
  const template = new ResourceTemplate(caseUri("{address}"), {
    list: async () => {
      try {
        const addresses: string[] = [];
        for (let offset = 0; offset < MAX_LISTED; offset += PAGE) {
          const { body } = await runOperation(listCases, { offset, limit: PAGE }, ctx, req);
          const page = body as { total: number; cases: string[] };
          addresses.push(...page.cases);
          if (offset + PAGE >= page.total) break;
        }
        return {
          resources: addresses.map((a) => ({
            uri: caseUri(a),
            name: a,
            title: `Case ${a}`,
            mimeType: "application/json",
          })),
        };
      } catch (err) {
        throw protocolError(err, ctx.log);
      }
    },
  });
  server.registerResource(
    "case",
    template,
    {
      title: "Dispute case",
      description: "One dispute case contract, as get_case returns it: parties, claim, stakes, judges, votes, outcome.",
      mimeType: "application/json",
    },
    async (uri, { address }) => {
      try {
        const { body } = await runOperation(getCase, { address: String(address) }, ctx, req);
        return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(body) }] };
      } catch (err) {
        throw protocolError(err, ctx.log);
      }
    },
  );
}
