import { readCase } from "../../../src/chain/reads/cases.js";
import type { Devnet } from "../../../src/devnet/devnet.js";
import { type ErrorCode, errorStatus } from "../../../src/errors/errors.js";
import type { Operation } from "../../../src/operations/kernel/operation.js";
import { V1_ERROR_REASONS } from "../../../src/payments/x402.js";
import type { World } from "./arbitraries.js";

/**
 * What every docket answer must be, whatever it was sent: the properties the fuzz tests check.
 */

/** The codes only input validation gives: a well-formed input never gets one, a malformed one always does. */
export const VALIDATION_CODES: readonly string[] = [
  "MISSING_FIELD",
  "INVALID_ADDRESS",
  "INVALID_INPUT",
  "VALIDATION_ERROR",
];

/** The only refusals a well-formed read may get: what it asks about does not exist. */
export const READ_404: readonly string[] = ["CASE_NOT_FOUND", "AGENT_NOT_REGISTERED", "COURT_NOT_FOUND"];

/**
 * What a well-formed read of `op` may be refused with: READ_404, and the 404 codes its definition
 * declares (`errors`, as its OpenAPI entry does: get_evidence's EVIDENCE_NOT_FOUND).
 */
export function read404(op: Operation): readonly string[] {
  return [...READ_404, ...(op.errors ?? []).filter((c) => errorStatus[c] === 404)];
}

const ROOT = process.cwd();
/** A stack frame, a source location or a path on this machine. */
const LEAK = new RegExp(
  [
    "\\n\\s+at \\S",
    "\\bat [\\w.<>]+ \\((?:file|node):",
    "\\.[cm]?[jt]s:\\d+:\\d+",
    "node_modules",
    "node:internal",
    ROOT.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"),
  ].join("|"),
);

/** A leak the request did not bring itself (error messages may echo a path or a field). */
export function leaks(answer: string, request: string): string | undefined {
  const m = LEAK.exec(answer);
  if (!m || request.includes(m[0])) return undefined;
  return `leaks internals: ${JSON.stringify(m[0])} in ${answer.slice(Math.max(0, m.index - 80), m.index + 80)}`;
}

/**
 * The documented envelope `{ error: { code, message, details? } }` with a documented code whose
 * status is `status` (when given). Returns what is wrong, or undefined.
 */
export function envelopeProblem(body: unknown, status?: number): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return "body is not a JSON object";
  const b = body as Record<string, unknown>;
  // A 402 is x402 v1's PaymentRequired (`error` v1's reason, when there is one) with docket's envelope beside it.
  const allowed = status === 402 ? ["error", "x402Version", "accepts", "docketError"] : ["error"];
  const extra = Object.keys(b).filter((k) => !allowed.includes(k));
  if (extra.length > 0) return `envelope has extra top-level keys ${extra.join(", ")}`;
  const e = (status === 402 ? b.docketError : b.error) as Record<string, unknown> | undefined;
  // `error` is one of x402 v1's reasons, or absent when no proof was given at all (PAYMENT_REQUIRED).
  if (status === 402) {
    const reason = b.error;
    if (e?.code === "PAYMENT_REQUIRED" ? reason !== undefined : !V1_ERROR_REASONS.includes(reason as never)) {
      return `x402 error ${String(reason)} is not v1's reason for the envelope's ${String(e?.code)}`;
    }
  }
  if (e === null || typeof e !== "object") return "no error object";
  if (typeof e.code !== "string" || !(e.code in errorStatus)) return `undocumented code ${String(e.code)}`;
  if (status !== undefined && errorStatus[e.code as ErrorCode] !== status) {
    return `status ${status} but ${e.code} is documented as ${errorStatus[e.code as ErrorCode]}`;
  }
  if (typeof e.message !== "string" || e.message.length === 0) return "no message";
  if (e.details !== undefined && (e.details === null || typeof e.details !== "object" || Array.isArray(e.details))) {
    return "details is not an object";
  }
  const keys = Object.keys(e).filter((k) => !["code", "message", "details"].includes(k));
  if (keys.length > 0) return `error has extra keys ${keys.join(", ")}`;
  return undefined;
}

/**
 * A 5xx is acceptable only as the contract refusing a well-formed write (500 CONTRACT_REVERT with
 * its reason): docket simulates a write as its signer (`from`, or the address that signs stake,
 * unstake and self-registration) and reports the revert. Anything else in 5xx is a bug.
 */
export function serverErrorProblem(
  op: Operation | undefined,
  input: unknown,
  error: { code?: unknown; details?: { reason?: unknown } } | undefined,
): string | undefined {
  if (error?.code !== "CONTRACT_REVERT") return `server error ${String(error?.code)}`;
  if (op?.kind !== "write") return `CONTRACT_REVERT from ${op?.name ?? "no operation"}, which is not a write`;
  if (input === undefined || !op.input.safeParse(input).success) return "CONTRACT_REVERT for malformed input";
  if (typeof error.details?.reason !== "string" || error.details.reason.length === 0) return "revert without a reason";
  return undefined;
}

/** Per-route/tool tallies, for the summary the tests print. */
export class Tally {
  private readonly counts = new Map<string, number>();
  private readonly statuses = new Map<string, number>();
  add(key: string, outcome: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.statuses.set(outcome, (this.statuses.get(outcome) ?? 0) + 1);
  }
  get total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  report(title: string): string {
    const rows = [...this.counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `  ${String(v).padStart(6)}  ${k}`);
    const outcomes = [...this.statuses.entries()]
      .sort(([, a], [, b]) => b - a)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ");
    return `${title}: ${this.total} inputs\n${rows.join("\n")}\n  outcomes: ${outcomes}`;
  }
}

/**
 * The dev chain's addresses that mean something (seeded cases, dev accounts, the court's contracts)
 * and the evidence the seeded cases were filed with (published to docket's store by the seed).
 */
export async function worldOf(chain: Parameters<typeof readCase>[0], devnet: Devnet): Promise<World> {
  const cases = devnet.seed?.cases.map((c) => c.address) ?? [];
  const accounts = devnet.accounts.map((a) => a.address);
  if (cases.length === 0 || accounts.length === 0) throw new Error("the fuzz tests need the seeded dev chain");
  const filed = await Promise.all(cases.map(async (c) => (await readCase(chain, c))?.evidenceIpfsHash));
  const cids = [...new Set(filed.filter((c): c is string => !!c))];
  return {
    cases,
    accounts,
    contracts: [chain.factory, chain.registry, "0xcA11bde05977b3631167028862bE2a173976CA11"],
    cids,
  };
}

/**
 * Everything wrong with an MCP door's answer to a hostile envelope (undefined: nothing): a 5xx, a
 * leaked stack or path, a JSON-RPC answer that is not JSON, or the internal-error code -32603.
 */
export function mcpAnswerProblem(status: number, text: string, request: string): string | undefined {
  const leak = leaks(text, request);
  if (leak) return leak;
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  if (!text) return undefined;
  const payloads = text.includes("data: ")
    ? text
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
    : [text];
  for (const p of payloads) {
    let m: unknown;
    try {
      m = JSON.parse(p);
    } catch {
      // Plain-text 4xx answers (the SDK's 406/415) are fine; a JSON-RPC answer must be JSON.
      if (status === 200) return `not JSON: ${p.slice(0, 200)}`;
      continue;
    }
    for (const x of (Array.isArray(m) ? m : [m]) as { error?: { code?: unknown } }[]) {
      if (x?.error !== undefined && typeof x.error.code !== "number") return "odd JSON-RPC error";
      if (x?.error?.code === -32603) return `JSON-RPC internal error: ${p.slice(0, 300)}`;
    }
  }
  return undefined;
}
