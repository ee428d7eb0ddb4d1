import { DoorKernel, operationNamed } from "../doors/kernel.js";
import { DocketError } from "../errors/errors.js";
import type { AgentBody } from "../operations/agents/agent.js";
import type { CaseBody } from "../operations/cases/case.js";
import type { Ctx, Operation } from "../operations/kernel/operation.js";
import { chainTime, jobTokenAddress, type Token, tokenFilingFee, tokenOf } from "../operations/system/chainFacts.js";

export type { Token };

/** Where the explorer's pages live; `/` is its overview for a browser (and the API's index for a program). */
export const EXPLORER = "/explorer";

/**
 * The explorer's reads: every one is an operation run through the door kernel, as the API runs it
 * (same validation, same cache, same answer); the chain is read directly only for the clock, a
 * token's symbol and decimals, and the court's token filing fee. An operation is
 * found by its name, so a page can tell whether one it can use is served (the jobs' operations
 * exist only where docket serves arbitration, for instance).
 */
export class Reads {
  private readonly reads: Operation[];
  private readonly door: DoorKernel;
  private readonly ctx: Ctx;
  private readonly tokens = new Map<string, Promise<Token>>();

  constructor(ctx: Ctx, operations: readonly Operation[]) {
    this.reads = operations.filter((op) => op.kind === "read");
    this.door = new DoorKernel(ctx);
    this.ctx = ctx;
  }

  /**
   * The chain's time now: the latest block's timestamp, read afresh (never cached). Deadlines are
   * chain time, and a dev chain's clock moves only when a block is mined: a page counts from this,
   * never from the wall clock.
   */
  chainTime(): Promise<number> {
    return chainTime(this.ctx);
  }

  /** An ERC-20's symbol and decimals (read once per token), so amounts show as people read them. */
  token(address: string): Promise<Token> {
    let t = this.tokens.get(address.toLowerCase());
    if (!t) {
      t = tokenOf(this.ctx, address);
      this.tokens.set(address.toLowerCase(), t);
    }
    return t;
  }

  /** The token ERC-8183 job budgets are paid in, where docket serves jobs. */
  async jobToken(): Promise<Token | null> {
    const a = jobTokenAddress(this.ctx);
    return a ? this.token(a) : null;
  }

  /** The filing fee as it is really paid: in the court's fee token (x402) when it takes one, else null. */
  async tokenFilingFee(): Promise<{ amount: bigint; token: Token } | null> {
    const fee = await tokenFilingFee(this.ctx);
    return fee && { amount: fee.amount, token: await this.token(fee.token) };
  }

  /** The read named `name` (get_case, list_courts...), if it is served. */
  op(name: string): Operation | undefined {
    return operationNamed(this.reads, name);
  }

  /** The JSON route that answers the read `name` with these path parameters (`/courts/1` for get_court's id 1). */
  route(name: string, params: Record<string, string | number>): string {
    const path = this.op(name)?.http.path ?? "/";
    return path.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(String(params[p] ?? "")));
  }

  /** Runs the read `name` with `input` and returns its body; its errors are DocketErrors. */
  async get<T>(name: string, input: Record<string, unknown> = {}): Promise<T> {
    const op = this.op(name);
    if (!op) throw new DocketError("NOT_FOUND", `no read named ${name} is served`);
    const r = await this.door.call(op, input, "http");
    if (r.status >= 400) throw new DocketError("SERVICE_UNAVAILABLE", `${name} answered ${r.status}`);
    return r.body as T;
  }

  case(address: string): Promise<{ case: CaseBody & { court?: { id: number | string; name: string } } }> {
    return this.get("get_case", { address });
  }

  /** An agent's record, or null for an address that is no agent (a 404 is an answer here). */
  async agent(address: string): Promise<AgentBody | null> {
    try {
      return (await this.get<{ agent: AgentBody }>("get_agent", { address })).agent;
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

/**
 * What a read of the index answers, or null where docket runs without its index (INDEX=off) or
 * cannot read it now: the page then shows what the chain alone tells, and says what needs the index.
 */
export async function withoutIndex<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof DocketError && err.code === "INDEX_UNAVAILABLE") return null;
    throw err;
  }
}

/** The JSON route and the MCP tool (or resource) a page shows the same data as. */
export interface SameData {
  json: string;
  mcp: string;
}
