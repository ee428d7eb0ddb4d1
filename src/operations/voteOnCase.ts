import { z } from "zod";
import { defineCaseWrite } from "./caseWrite.js";

export const voteOnCase = defineCaseWrite({
  name: "vote_on_case",
  title: "Vote on a case",
  description:
    "As a judge assigned to the case (your address is in the case's `judges`), vote once: plaintiff_wins true for the plaintiff, false for the defendant. A majority of the panel (2 of 3, or 3 of 5 on appeal) decides the case at once.",
  path: "/cases/:address/vote",
  fields: { plaintiff_wins: z.boolean().describe("true: the plaintiff wins; false: the defendant wins") },
  functionName: "vote",
  action: "Casts your vote on this case",
  concluding: true,
  example: { plaintiff_wins: true },
  call: (i) => ({ args: [i.plaintiff_wins] }),
});
