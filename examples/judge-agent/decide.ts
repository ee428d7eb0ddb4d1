/**
 * How the judge agent makes up its mind: one function, `decide(case, evidence)`. Swap it for your
 * own (an LLM, a rules engine, a human in the loop); the agent around it stays the same.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { PromptMessage } from "@modelcontextprotocol/sdk/types.js";

/** The case as `GET /cases/{address}` answers it (the fields a judge reads). */
export interface CaseRecord {
  address: string;
  state: string;
  plaintiff: string;
  defendant: string;
  claimDescription: string;
  /** The evidence the plaintiff filed with (a CID; get_case_evidence reads it). */
  evidenceIpfsHash: string;
  judges: string[];
  /** The court the case was filed in; its rules are in `GET /courts/{id}`. */
  court: { id: number; name: string };
  hiddenVotes: boolean;
  votingPhase: "commit" | "reveal" | "vote" | null;
  outcome: string | null;
  votes: { judge: string; vote: "plaintiff" | "defendant" | "committed" | null; justification: string }[];
}

/** What docket read of one piece of evidence (its text framed as the party's data). */
export interface Content {
  cid: string | null;
  available: boolean;
  mediaType?: string;
  size?: number;
  text?: string;
}

/** One item of `GET /cases/{address}/evidence`: the filing first, then what the parties added. */
export interface Evidence extends Content {
  filing: boolean;
  role: "plaintiff" | "defendant" | "unknown";
  submitter: string;
  submittedAt: number;
  /** An ERC-1497 evidence document: its name and description (framed) and the file it points at. */
  document?: { name: string; description: string; file?: Content };
}

export interface Decision {
  plaintiffWins: boolean;
  /** Your reasons; stored on chain with a hidden vote's reveal (cut to 512 bytes). */
  justification: string;
}

/** The pluggable judgement. It must be deterministic enough to give the same answer twice if you restart mid-vote. */
/** The case's court as `GET /courts/{id}` answers it (the fields a judge reads). */
export interface CourtRecord {
  id: number;
  name: string;
  parameters: { hiddenVotes: boolean };
  /** The rules its judges apply: `text` when docket can read it, else fetch it by `cid`. */
  policy: { cid: string; uri: string; text: string | null };
}

export type Decide = (c: CaseRecord, evidence: Evidence[], court: CourtRecord) => Promise<Decision>;

/** The party's own words inside docket's frame (`[evidence <boundary> begins ...]` ... `[evidence <boundary> ends]`). */
export function quoted(framed: string | undefined): string {
  if (framed === undefined) return "";
  const lines = framed.split("\n");
  return lines.slice(1, -1).join("\n");
}

/** A JSON record a party filed (`{"record": "receipt" | "delivery" | ..., ...}`), if the item is one. */
function recordOf(e: Evidence): Record<string, unknown> | undefined {
  const file = e.document?.file ?? e;
  if (file.mediaType !== "application/json" || !file.text) return undefined;
  try {
    const v = JSON.parse(quoted(file.text)) as unknown;
    return v !== null && typeof v === "object" && "record" in v ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The default judge: a deterministic rule over what the documents say, so the agent runs (and is
 * tested) with no model. The plaintiff carries the burden: it wins when the record shows a failure
 * to perform (a delivery record saying nothing was delivered, or not to the terms) and nothing on
 * record shows the performance met the terms (a delivery record saying delivered and to the terms).
 * What the documents are (an agreement, a receipt, a photo) is noted in the reasons; how many there
 * are does not matter.
 */
export const weighEvidence: Decide = async (_c, evidence, court) => {
  const records = evidence.flatMap((e) => {
    const r = recordOf(e);
    return r ? [{ ...r, by: e.role } as Record<string, unknown>] : [];
  });
  const deliveries = records.filter((r) => r.record === "delivery");
  const failed = deliveries.find((r) => r.delivered === false || r.meetsTerms === false);
  const performed = deliveries.find((r) => r.delivered === true && r.meetsTerms === true);
  const plaintiffWins = failed !== undefined && performed === undefined;
  const paid = records.some((r) => r.record === "receipt");
  const why = performed
    ? `the ${performed.by}'s delivery record shows ${String(performed.item)} delivered to the terms (${String(performed.notes ?? "")})`
    : failed
      ? `the ${failed.by}'s record shows ${String(failed.item)} ${failed.delivered === false ? "never delivered" : "not delivered to the terms"}${paid ? ", and payment is on record" : ""}`
      : "no record shows a failure to perform";
  return {
    plaintiffWins,
    justification: `${court.name} court. On the documents: ${why}, so the ${plaintiffWins ? "plaintiff" : "defendant"} prevails.`,
  };
};

/**
 * The `judge_case` prompt for one case, as docket's MCP server gives it: the steps, then the case's
 * evidence, each item quoted and framed as its party's data (never instructions), and its images.
 */
export async function judgeCasePrompt(docketUrl: string, caseAddress: string, judge: string): Promise<PromptMessage[]> {
  const client = new Client({ name: "judge-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${docketUrl}/mcp`)));
  try {
    const r = await client.getPrompt({
      name: "judge_case",
      arguments: { case_address: caseAddress, judge_address: judge },
    });
    return r.messages;
  } finally {
    await client.close();
  }
}

/**
 * Where an LLM plugs in: `withModel(ask)` is a `Decide` that hands your model the `judge_case`
 * prompt (the case's court and its policy first) with the evidence and expects a decision back. `ask` is the one function to write, e.g.
 * for an OpenAI-compatible chat completions endpoint (OpenAI, a local Ollama or vLLM, ...):
 *
 *   const ask = async (messages) => {
 *     const res = await fetch(`${process.env.LLM_URL}/v1/chat/completions`, {
 *       method: "POST",
 *       headers: { "content-type": "application/json", authorization: `Bearer ${process.env.LLM_API_KEY}` },
 *       body: JSON.stringify({
 *         model: process.env.LLM_MODEL,
 *         temperature: 0, // the same answer again if the agent restarts between commit and reveal
 *         response_format: { type: "json_object" },
 *         messages: [
 *           { role: "system", content: 'You are an impartial judge. Answer {"plaintiffWins": boolean, "justification": string} (at most 400 characters).' },
 *           ...messages.map((m) => ({ role: m.role, content: m.content.type === "text" ? m.content.text : [{ type: "image_url", image_url: { url: `data:${m.content.mimeType};base64,${m.content.data}` } }] })),
 *         ],
 *       }),
 *     });
 *     const answer = JSON.parse((await res.json()).choices[0].message.content);
 *     return { plaintiffWins: answer.plaintiffWins === true, justification: String(answer.justification) };
 *   };
 *   const decide = withModel(ask, DOCKET_URL, myAddress);
 */
export function withModel(
  ask: (messages: PromptMessage[]) => Promise<Decision>,
  docketUrl: string,
  judge: string,
): Decide {
  return async (c) => ask(await judgeCasePrompt(docketUrl, c.address, judge));
}
