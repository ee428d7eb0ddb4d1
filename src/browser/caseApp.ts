/**
 * The case view docket offers MCP hosts that render UI resources (the MCP Apps extension,
 * `io.modelcontextprotocol/ui`): bundled into the `ui://docket/case` resource, it runs in the
 * host's sandboxed iframe, says hello (`ui/initialize`, then `ui/notifications/initialized`) and
 * draws the case from the `get_case` result the host hands it (`ui/notifications/tool-result`).
 * Everything a party wrote is set as text (textContent), never as markup.
 */
import { formatEther } from "viem";

interface Vote {
  judge: string;
  vote: "plaintiff" | "defendant" | "committed" | null;
  justification: string;
}
interface CaseView {
  address: string;
  state: string;
  plaintiff: string;
  defendant: string;
  claimDescription: string;
  plaintiffStake: string;
  defendantStake: string;
  outcome: string | null;
  hiddenVotes: boolean;
  votingPhase: string | null;
  votesForPlaintiff: number;
  votesForDefendant: number;
  votes: Vote[];
}

const APPS_PROTOCOL = "2026-01-26";
let nextId = 0;
const waiting = new Map<number, (result: unknown) => void>();

function send(message: Record<string, unknown>): void {
  window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
}

function request(method: string, params: unknown): Promise<unknown> {
  const id = ++nextId;
  send({ id, method, params });
  return new Promise((resolve) => waiting.set(id, resolve));
}

/** An element with text: the only way anything reaches the page. */
function el(tag: string, text?: string, className?: string): HTMLElement {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

function eth(wei: string): string {
  return `${formatEther(BigInt(wei))} ETH`;
}

function voteText(v: Vote): string {
  if (v.vote === "committed") return "committed (hidden until revealed)";
  if (v.vote === null) return "no vote yet";
  return `for the ${v.vote}`;
}

function render(result: { structuredContent?: Record<string, unknown>; isError?: boolean }): void {
  const root = document.getElementById("app") as HTMLElement;
  root.replaceChildren();
  const c = result.structuredContent?.case as CaseView | undefined;
  if (!c) {
    const err = result.structuredContent?.error as { message?: string } | undefined;
    root.append(el("p", err?.message ?? "No case in this result.", "error"));
    return;
  }
  root.append(el("h1", "Case"), el("p", c.address, "addr"));
  const status = `${c.state}${c.outcome ? ` · ${c.outcome}` : ""}${c.votingPhase ? ` · phase ${c.votingPhase}` : ""}`;
  root.append(el("p", status, "state"));

  const parties = el("dl");
  parties.append(el("dt", "Plaintiff"), el("dd", `${c.plaintiff} · stake ${eth(c.plaintiffStake)}`));
  parties.append(el("dt", "Defendant"), el("dd", `${c.defendant} · stake ${eth(c.defendantStake)}`));
  root.append(el("h2", "Parties"), parties);

  root.append(el("h2", "Claim"), el("blockquote", c.claimDescription, "party-text"));

  root.append(el("h2", "Panel and votes"));
  const tally = `For the plaintiff ${c.votesForPlaintiff}, for the defendant ${c.votesForDefendant}${c.hiddenVotes ? " (hidden votes show once revealed)" : ""}`;
  root.append(el("p", tally));
  if (c.votes.length === 0) {
    root.append(el("p", "No panel is seated yet."));
  } else {
    const table = el("table");
    const head = el("tr");
    for (const h of ["Judge", "Vote", "Reasons"]) head.append(el("th", h));
    table.append(head);
    for (const v of c.votes) {
      const row = el("tr");
      row.dataset.judge = v.judge;
      row.append(el("td", v.judge, "addr"), el("td", voteText(v), "vote"), el("td", v.justification, "party-text"));
      table.append(row);
    }
    root.append(table);
  }
}

window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const m = event.data as { jsonrpc?: string; id?: number; method?: string; params?: unknown; result?: unknown };
  if (m?.jsonrpc !== "2.0") return;
  if (m.method === undefined && typeof m.id === "number") {
    waiting.get(m.id)?.(m.result);
    waiting.delete(m.id);
    return;
  }
  if (m.method === "ui/notifications/tool-result") render(m.params as Parameters<typeof render>[0]);
  // Requests the view answers: liveness, and teardown (nothing to save).
  if ((m.method === "ping" || m.method === "ui/resource-teardown") && m.id !== undefined)
    send({ id: m.id, result: {} });
});

void request("ui/initialize", {
  appCapabilities: { availableDisplayModes: ["inline"] },
  appInfo: { name: "docket case", version: "1" },
  protocolVersion: APPS_PROTOCOL,
}).then(() => {
  send({ method: "ui/notifications/initialized", params: {} });
  new ResizeObserver(() => {
    const { width, height } = document.documentElement.getBoundingClientRect();
    send({ method: "ui/notifications/size-changed", params: { width: Math.ceil(width), height: Math.ceil(height) } });
  }).observe(document.documentElement);
});
