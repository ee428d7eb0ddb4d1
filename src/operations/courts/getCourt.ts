import { z } from "zod";
import { keyOf } from "../../freshness/keys.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { courtSchema, courtsOf, findCourt, formatCourt } from "./court.js";

export const getCourt = defineOperation({
  name: "get_court",
  title: "Get a court",
  description:
    "One court by id (list_courts lists them; 1 is the General court): its place in the tree, the parameters a case filed there copies, its policy (the rules its judges apply: CID, ipfs:// URI and text when docket can read it) and its pool (eligible judges, total stake). A judge reads the policy of its case's court (get_case's `court`) before voting. An unknown id answers COURT_NOT_FOUND (404).",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/courts/:id" },
  input: z.object({
    // Any id: one no court has is 404 COURT_NOT_FOUND, as an unknown case is (not a validation error).
    id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe("Court id (1: the General court)"),
  }),
  output: z.object({ court: courtSchema }),
  errors: [...chainErrors("read"), "COURT_NOT_FOUND"],
  example: { id: 1 },
  cache: { key: (i) => keyOf.court(i.id) },
  handler: async ({ id }, ctx) => {
    const courts = await courtsOf(ctx);
    return new Answer({ court: await formatCourt(ctx, findCourt(courts, id), courts) }, { ttl: 60 });
  },
});
