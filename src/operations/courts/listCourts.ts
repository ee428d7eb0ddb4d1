import { z } from "zod";
import { keyOf } from "../../freshness/keys.js";
import { Answer, defineOperation } from "../kernel/operation.js";
import { courtSchema, courtsOf, formatCourt } from "./court.js";

export const listCourts = defineOperation({
  name: "list_courts",
  title: "List the courts",
  description:
    "Every court of the tree, the General court (id 1, the root and the default) first: name, parent and children, the parameters a case filed there copies (minimum stakes and bond in wei strings, fees, windows, whether votes are hidden, panel sizes, the appeal panel size from which an appeal goes up to the parent court), the policy (the court's written rules: CID, ipfs:// URI and text when docket can read it), and its pool (eligible judges, total stake; a stake in a court also counts in every court above it). Next: file_case with `court`, stake_as_judge with `court`.",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/courts" },
  input: z.object({}),
  output: z.object({ total: z.number().int(), courts: z.array(courtSchema) }),
  cache: { key: () => keyOf.courtList() },
  handler: async (_input, ctx) => {
    const courts = await courtsOf(ctx);
    const body = await Promise.all(courts.map((c) => formatCourt(ctx, c, courts)));
    return new Answer({ total: body.length, courts: body }, { ttl: 60 });
  },
});
