import type { Address, Hex } from "viem";
import { z } from "zod";
import { randomBytes32, voteCommitment } from "../../chain/votes.js";
import { DocketError } from "../../errors/errors.js";
import { courtsOf, refOf } from "../courts/court.js";
import { bytes32 } from "../kernel/schemas.js";
import { defineCaseWrite } from "./caseWrite.js";

/** What a judge keeps after committing a hidden vote, to reveal it with reveal_vote. */
const revealKit = z
  .object({
    plaintiff_wins: z.boolean(),
    salt: z.string().describe("Keep it secret until you reveal: it is what hides your vote"),
    round: z.number().int(),
    commitment: z.string().describe("keccak256(abi.encode(case, judge, round, plaintiff_wins, salt))"),
    commitDeadline: z.number().int().describe("Unix seconds (chain time)"),
    revealDeadline: z
      .number()
      .int()
      .describe("Unix seconds (chain time); a vote not revealed by then counts as a no-show"),
    next: z.string(),
  })
  .describe("Hidden votes only: what reveal_vote needs once the reveal phase opens");

export const voteOnCase = defineCaseWrite({
  name: "vote_on_case",
  title: "Vote on a case",
  description:
    "As a judge assigned to the case (your address is in the case's `judges`), vote once: plaintiff_wins true for the plaintiff, false for the defendant. Whether votes are public or hidden is a rule of the case's court (get_case's `court`; get_court shows its parameters). Public votes (the General court's): one transaction, counted at once in votesForPlaintiff/votesForDefendant, and a majority of the panel (2 of 3, or 3 of 5 on appeal) decides the case at once. When the case's `hiddenVotes` is true (a court such as Agentic Commerce), this builds the commit of a hidden vote: `from` (your judge address) is then required, because the commitment binds it so nobody can copy your vote (docket cannot know who will sign), and the answer's `reveal` holds the salt to keep and pass to reveal_vote once the reveal phase opens (every judge committed, or the commit deadline passed); the votes are counted when all are revealed or the reveal deadline passes. Pass your own `salt` (32 random bytes, or derived from a signature you can redo) if docket should not see it.",
  path: "/cases/:address/vote",
  fields: {
    plaintiff_wins: z.boolean().describe("true: the plaintiff wins; false: the defendant wins"),
    salt: bytes32(
      "Hidden votes only, optional: the 32-byte salt that hides your vote (default: fresh random bytes, returned to you)",
    ).optional(),
  },
  functionName: "vote",
  action: "Casts your vote on this case",
  concluding: true,
  example: { plaintiff_wins: true },
  extraOutput: { reveal: revealKit.optional() },
  call: async (i, v, ctx) => {
    if (!v.hiddenVotes) return { args: [i.plaintiff_wins] };
    if (!i.from) {
      const court = refOf(await courtsOf(ctx), v.courtId);
      throw new DocketError(
        "MISSING_FIELD",
        `missing required field 'from': this case's court \`${court.name}\` hides votes (commit, then reveal), and the commitment binds your judge address so nobody can copy your vote`,
        { field: "from", court, hiddenVotes: true },
      );
    }
    const salt = (i.salt?.toLowerCase() ?? randomBytes32()) as Hex;
    const commitment = voteCommitment({
      caseAddress: i.address,
      judge: i.from as Address,
      round: v.round,
      plaintiffWins: i.plaintiff_wins,
      salt,
    });
    return {
      functionName: "commitVote",
      args: [commitment],
      action: "Commits your hidden vote on this case (nobody can read it until you reveal it with reveal_vote)",
      extra: {
        reveal: {
          plaintiff_wins: i.plaintiff_wins,
          salt,
          round: v.round,
          commitment,
          commitDeadline: Number(v.commitDeadline),
          revealDeadline: Number(v.revealDeadline),
          next: `Once every judge has committed or after ${Number(v.commitDeadline)} (chain time), call reveal_vote with { plaintiff_wins: ${i.plaintiff_wins}, salt } before ${Number(v.revealDeadline)}.`,
        },
      },
    };
  },
});
