/**
 * How the judge agent makes up its mind: one function, `decide(case, evidence, court)`. Swap it for
 * your own (an LLM, a rules engine, a human in the loop); the agent around it stays the same.
 */

/** The case as `GET /cases/{address}` answers it (the fields a judge reads). */
export interface CaseRecord {
  address: string;
  state: string;
  plaintiff: string;
  defendant: string;
  claimDescription: string;
  /** The content hash the plaintiff filed with. */
  evidenceIpfsHash: string;
  judges: string[];
  /** The court the case was filed in; its rules are in `GET /courts/{id}`. */
  court: { id: number; name: string };
  hiddenVotes: boolean;
  votingPhase: "commit" | "reveal" | "vote" | null;
  outcome: string | null;
  votes: { judge: string; vote: "plaintiff" | "defendant" | "committed" | null; justification: string }[];
}

/** The case's court as `GET /courts/{id}` answers it (the fields a judge reads). */
export interface CourtRecord {
  id: number;
  name: string;
  parameters: { hiddenVotes: boolean };
  /** The rules its judges apply: `text` when docket can read it, else fetch it by `cid`. */
  policy: { cid: string; uri: string; text: string | null };
}

/** One entry of `GET /cases/{address}/evidence`: what the parties added after filing. */
export interface Evidence {
  hash: string;
  submitter: string;
  submittedAt: number;
}

export interface Decision {
  plaintiffWins: boolean;
  /** Your reasons; stored on chain with a hidden vote's reveal (cut to 512 bytes). */
  justification: string;
}

/** The pluggable judgement. It must be deterministic enough to give the same answer twice if you restart mid-vote. */
export type Decide = (c: CaseRecord, evidence: Evidence[], court: CourtRecord) => Promise<Decision>;

/**
 * The default judge, a deterministic rule so the agent runs (and is tested) with no model: the
 * plaintiff carries the burden of proof, so the plaintiff wins only with more evidence on record
 * than the defendant (the hash filed with the claim counts as the plaintiff's first piece); a tie
 * goes to the defendant.
 */
export const weighEvidence: Decide = async (c, evidence, court) => {
  const by = (who: string) => evidence.filter((e) => e.submitter.toLowerCase() === who.toLowerCase()).length;
  const plaintiff = 1 + by(c.plaintiff);
  const defendant = by(c.defendant);
  const plaintiffWins = plaintiff > defendant;
  return {
    plaintiffWins,
    justification: `${court.name} court. Burden of proof on the plaintiff: ${plaintiff} piece(s) of evidence for the claim against ${defendant} for the defence, so the ${plaintiffWins ? "plaintiff" : "defendant"} prevails.`,
  };
};

/*
 * Where an LLM plugs in: any chat API that can answer in JSON. For example, an OpenAI-compatible
 * chat completions endpoint (OpenAI, a local Ollama or vLLM, ...), used by the agent in place of
 * `weighEvidence` (see `decide` in ./index.ts):
 *
 *   export const askModel: Decide = async (c, evidence, court) => {
 *     const res = await fetch(`${process.env.LLM_URL}/v1/chat/completions`, {
 *       method: "POST",
 *       headers: { "content-type": "application/json", authorization: `Bearer ${process.env.LLM_API_KEY}` },
 *       body: JSON.stringify({
 *         model: process.env.LLM_MODEL,
 *         temperature: 0, // the same answer again if the agent restarts between commit and reveal
 *         response_format: { type: "json_object" },
 *         messages: [
 *           { role: "system", content: `You are an impartial judge of the ${court.name} court. Apply its policy:\n${court.policy.text}\nAnswer {"plaintiffWins": boolean, "justification": string} (at most 400 characters).` },
 *           { role: "user", content: JSON.stringify({ claim: c.claimDescription, filedWith: c.evidenceIpfsHash, plaintiff: c.plaintiff, defendant: c.defendant, evidence }) },
 *         ],
 *       }),
 *     });
 *     const answer = JSON.parse((await res.json()).choices[0].message.content);
 *     return { plaintiffWins: answer.plaintiffWins === true, justification: String(answer.justification) };
 *   };
 *
 * Evidence entries are content hashes (IPFS CIDs): fetch their content from a gateway and put it in
 * the prompt if the model should read it. Treat it as untrusted input (a party wrote it).
 */
