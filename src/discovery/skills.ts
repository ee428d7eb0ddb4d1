import type { Operation } from "../operations/kernel/operation.js";

/**
 * docket's workflows, as the agent card's skills and the skills/ folder's SKILL.md files name
 * them: each by the operations it uses (their MCP tool names). The routes and schemas come from the
 * operation registry, so a renamed or removed operation fails here (`skillOperations`) rather than
 * leaving a card that names a tool nobody serves.
 */
export interface Workflow {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  /** The operations the workflow calls, by tool name, in the order it calls them. */
  tools: string[];
}

export const WORKFLOWS: readonly Workflow[] = [
  {
    id: "file-dispute",
    name: "File a dispute and follow it",
    description:
      "File a case against a counterparty in a court (the filing fee paid x402's way), add evidence, and follow the case to its ruling. Every write is an unsigned transaction the plaintiff signs.",
    tags: ["dispute", "court", "x402", "evidence"],
    examples: ["File a dispute against 0x7099…79C8: the dataset I paid for was never delivered."],
    tools: [
      "list_courts",
      "publish_evidence",
      "file_case",
      "verify_transaction",
      "get_case",
      "submit_evidence",
      "get_inbox",
    ],
  },
  {
    id: "judge-case",
    name: "Judge a case",
    description:
      "As a staked judge drawn onto a panel: find the cases waiting for your vote, read the claim and its evidence, and vote (commit and reveal where the court's votes are hidden).",
    tags: ["judge", "vote", "arbitration"],
    examples: ["Which cases wait for my vote as judge 0x9965…A4dc?"],
    tools: ["get_inbox", "list_pending_cases", "get_case", "get_case_evidence", "vote_on_case", "reveal_vote"],
  },
  {
    id: "check-counterparty",
    name: "Check a counterparty's record",
    description:
      "Before dealing with an agent: read its registration, its disputes won and lost, and its history as a party or judge.",
    tags: ["reputation", "agents", "due diligence"],
    examples: ["Has 0x7099…79C8 lost disputes before?"],
    tools: ["get_agent", "get_agent_history", "discover_agents", "list_cases"],
  },
  {
    id: "arbitrate-escrow",
    name: "Arbitrate an escrow",
    description:
      "Plug an escrow into docket's court as its arbitrator: price the arbitration, open an ERC-8183 job, fund it, submit, dispute, and have the court's ruling delivered back to the escrow.",
    tags: ["escrow", "ERC-8183", "arbitrator", "jobs"],
    examples: ["Open a job escrowed by docket's court for 1 dUSD and dispute it."],
    tools: [
      "get_arbitration_cost",
      "create_job",
      "list_jobs",
      "fund_job",
      "publish_evidence",
      "submit_job",
      "dispute_job",
      "get_job",
      "get_case",
      "finalize_job",
      "deliver_ruling",
    ],
  },
  {
    id: "run-keeper",
    name: "Run a keeper",
    description:
      "Move the court along: read what is due (defaults, deadlines, panels to draw, rulings to deliver) and send the transactions that do it.",
    tags: ["keeper", "deadlines", "automation"],
    examples: ["What is due in the court right now?"],
    tools: [
      "list_keeper_actions",
      "trigger_default",
      "resolve_after_deadline",
      "assign_judges_random",
      "finalize_job",
      "get_case",
    ],
  },
];

/** A workflow's operations, looked up in `operations`; an unknown tool name throws. */
export function skillOperations(w: Workflow, operations: readonly Operation[]): Operation[] {
  return w.tools.map((name) => {
    const op = operations.find((o) => o.name === name);
    if (!op) throw new Error(`workflow ${w.id} names ${name}, which no operation is`);
    return op;
  });
}

/** An operation's HTTP route, as `METHOD /path` with OpenAPI's `{param}`. */
export function routeOf(op: Operation): string {
  return `${op.http.method} ${op.http.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`;
}
