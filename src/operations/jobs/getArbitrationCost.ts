import { z } from "zod";
import { readArbitrationCost } from "../../chain/jobs.js";
import { keyOf } from "../../freshness/keys.js";
import { courtInput, courtsOf, findCourt, GENERAL_COURT, refOf } from "../courts/court.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { requireArbitration } from "./job.js";

export const getArbitrationCost = defineOperation({
  name: "get_arbitration_cost",
  title: "What a dispute costs",
  description:
    "The arbitrator's price of a dispute (Kleros' IArbitratorV2 `arbitrationCost(extraData)`, docs/arbitration.md) in a court with a panel of at least `jurors` judges: the cost in wei that `createDispute` must be paid (the filing fee plus one minimum party stake per judge of the first round), the panel actually seated (the court's panel size at least, odd), the court's worst-case time to a final ruling, the arbitrator's address and the extraData docket would put first (court, jurors). An escrow contract calls `arbitrationCost(extraData)` itself; this is for reading it ahead.",
  kind: "read",
  toolset: "jobs",
  http: { method: "GET", path: "/arbitration/cost" },
  input: z.object({
    court: courtInput("The court to be judged in"),
    jurors: z
      .number()
      .int()
      .min(0)
      .max(31)
      .default(0)
      .describe("Minimum panel size (0: the court's own; an even number is raised to the next odd one; at most 31)"),
  }),
  output: z.object({
    arbitrator: z.string().describe("The arbitrator contract (IArbitratorV2)"),
    court: z.object({ id: z.number().int(), name: z.string() }),
    jurors: z.number().int().describe("Judges seated in the first round"),
    cost: z.string().describe("Wei: exactly what createDispute must be paid"),
    maxDuration: z.number().int().describe("Seconds from filing to a final ruling if every step takes its full time"),
    extraData: z
      .string()
      .describe("abi.encode(uint256 court, uint256 jurors): the first words of a dispute's extraData"),
  }),
  errors: [...chainErrors("read"), "COURT_NOT_FOUND", "NOT_FOUND"],
  cache: { key: (i) => keyOf.arbitrationCost(i.court ?? GENERAL_COURT, i.jurors) },
  example: { court: 2, jurors: 3 },
  handler: async ({ court = GENERAL_COURT, jurors }, ctx) => {
    const a = requireArbitration(ctx);
    const courts = await courtsOf(ctx);
    const c = findCourt(courts, court);
    const panel = Math.max(Number(c.config.terms.panelSize), jurors);
    const r = await readArbitrationCost(ctx.chain, a, court, jurors);
    return new Answer(
      {
        arbitrator: a.arbitrator,
        court: refOf(courts, court),
        jurors: panel % 2 === 0 ? panel + 1 : panel,
        cost: r.cost.toString(),
        maxDuration: Number(r.maxDuration),
        extraData: r.extraData,
      },
      { ttl: 30 },
    );
  },
});
