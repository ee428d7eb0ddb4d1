import { z } from "zod";
import { bytes32 } from "../kernel/schemas.js";
import { defineCaseWrite } from "./caseWrite.js";

const MAX_JUSTIFICATION_BYTES = 512;

export const revealVote = defineCaseWrite({
  name: "reveal_vote",
  title: "Reveal a hidden vote",
  description:
    "On a case with hidden votes, a judge who committed with vote_on_case reveals its vote once the reveal phase opens (the case's votingPhase is 'reveal': every judge committed, or the commit deadline passed) and before revealDeadline. Send the same plaintiff_wins and salt as the commit; anything else is refused (CommitmentMismatch). A judge who never reveals counts as a no-show and is slashed. The revealed vote counts at once; once every committed vote is revealed, a majority of the panel decides the case (otherwise resolve_after_deadline decides it after the reveal deadline). An optional justification (your reasons, up to 512 bytes) is stored on chain and shown on the case.",
  path: "/cases/:address/reveal",
  fields: {
    plaintiff_wins: z.boolean().describe("The vote you committed: true for the plaintiff, false for the defendant"),
    salt: bytes32("The salt of your commit (vote_on_case returned it as reveal.salt)"),
    justification: z
      .string()
      .max(MAX_JUSTIFICATION_BYTES)
      .refine((s) => Buffer.byteLength(s, "utf8") <= MAX_JUSTIFICATION_BYTES, {
        error: `at most ${MAX_JUSTIFICATION_BYTES} bytes of UTF-8`,
      })
      .describe("Optional: your reasons, shown on the case (up to 512 bytes)")
      .optional(),
  },
  functionName: "revealVote",
  action: "Reveals your hidden vote on this case",
  concluding: true,
  example: {
    plaintiff_wins: true,
    salt: "0x5b2f0a6d6c3e4f1b8a9c7d2e1f0a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c",
    justification: "The delivery receipts in the evidence show the goods never arrived.",
  },
  call: (i) => ({ args: [i.plaintiff_wins, i.salt.toLowerCase(), i.justification ?? ""] }),
});
