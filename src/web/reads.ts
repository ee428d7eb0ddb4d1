import { DocketError } from "../errors/errors.js";
import type { AgentBody } from "../operations/agents/agent.js";
import type { CaseBody } from "../operations/cases/case.js";
import type { Ctx, Operation, RequestInfo } from "../operations/kernel/operation.js";
import { runOperation } from "../operations/kernel/run.js";

/**
 * The explorer's reads: every one is an operation run through `operations/kernel/run.ts`, as the API runs
 * it (same validation, same cache, same answer), never a chain read of its own. An operation is
 * found by its HTTP route, so a page can tell whether one it can use is served (the courts'
 * operations, for instance, exist only once that branch is merged).
 */
export class Reads {
  private readonly byRoute = new Map<string, Operation>();
  private readonly info: RequestInfo = { transport: "http", headers: {} };

  constructor(
    private readonly ctx: Ctx,
    operations: readonly Operation[],
  ) {
    for (const op of operations) if (op.http.method === "GET") this.byRoute.set(op.http.path, op);
  }

  /** The read served at `GET path` (a route pattern such as `/cases/:address`), if any. */
  op(path: string): Operation | undefined {
    return this.byRoute.get(path);
  }

  /** The read served at `GET /{collection}/:param`, and its parameter's name (`/courts/:id`). */
  item(collection: string): { path: string; param: string } | undefined {
    for (const path of this.byRoute.keys()) {
      const m = new RegExp(`^/${collection}/:(\\w+)$`).exec(path);
      if (m) return { path, param: m[1] as string };
    }
    return undefined;
  }

  /** Runs the read at `GET path` with `input` and returns its body; its errors are DocketErrors. */
  async get<T>(path: string, input: Record<string, unknown> = {}): Promise<T> {
    const op = this.op(path);
    if (!op) throw new DocketError("NOT_FOUND", `no read is served at GET ${path}`);
    const r = await runOperation(op, input, this.ctx, this.info);
    if (r.status >= 400) throw new DocketError("SERVICE_UNAVAILABLE", `GET ${path} answered ${r.status}`);
    return r.body as T;
  }

  case(address: string): Promise<{ case: CaseBody & { court?: { id: number | string; name: string } } }> {
    return this.get("/cases/:address", { address });
  }

  /** An agent's record, or null for an address that is no agent (a 404 is an answer here). */
  async agent(address: string): Promise<AgentBody | null> {
    try {
      return (await this.get<{ agent: AgentBody }>("/agent/:address", { address })).agent;
    } catch (err) {
      if (err instanceof DocketError && err.status === 404) return null;
      throw err;
    }
  }

  /** Names of many agents at once (each read cached on its own); unknown addresses map to null. */
  async names(addresses: readonly string[]): Promise<Map<string, AgentBody | null>> {
    const unique = [...new Set(addresses.map((a) => a))];
    const agents = await Promise.all(unique.map((a) => this.agent(a).catch(() => null)));
    return new Map(unique.map((a, i) => [a.toLowerCase(), agents[i] ?? null]));
  }
}

/** The JSON route and the MCP tool (or resource) a page shows the same data as. */
export interface SameData {
  json: string;
  mcp: string;
}
