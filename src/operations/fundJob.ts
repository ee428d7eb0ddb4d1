import { erc20Abi, isAddressEqual } from "viem";
import { z } from "zod";
import { agenticCommerceAbi } from "../chain/abi/generated.js";
import { JOB_STATES, readFunding } from "../chain/jobs.js";
import { buildUnsignedTx, type UnsignedTxResponse } from "../tx/unsignedTx.js";
import { JOB_ERRORS, jobId, nextStep, refuse, requireJob, routeOf } from "./jobs.shared.js";
import { jobKeys } from "./keys.js";
import { Answer, chainErrors, defineOperation } from "./operation.js";
import { address, amount, unsignedTxResponse } from "./schemas.js";

const STEPS = ["set_budget", "approve", "fund"] as const;

type FundAnswer = UnsignedTxResponse & { step: (typeof STEPS)[number]; budget: string; next: z.infer<typeof nextStep> };

export const fundJob = defineOperation({
  name: "fund_job",
  title: "Fund a job",
  description:
    "The client escrows a job's budget (ERC-8183 fund), one transaction at a time: call it, sign what comes back, and call it again until `step` is `fund`. It answers the first step still missing: `set_budget` when `budget` is given and differs from the job's, `approve` (the payment token's ERC-20 approval of the job contract for the budget) when your allowance is short, else `fund`, which moves the budget into escrow. `next` says what follows once it is mined. Refused up front (422 JOB_STEP_REFUSED, `details.rule`): not_open, only_client, budget_not_set, provider_not_set, insufficient_balance.",
  kind: "write",
  toolset: "jobs",
  http: { method: "POST", path: "/jobs/:id/fund" },
  input: z.object({
    id: jobId,
    from: address("The job's client: it signs every step"),
    budget: amount(
      "Optional: the budget in the token's smallest unit (USDC: 6 decimals); set first if the job's differs",
    ).optional(),
  }),
  output: unsignedTxResponse.extend({
    step: z.enum(STEPS).describe("Which step this transaction is"),
    budget: z.string().describe("The budget being escrowed, token units"),
    next: nextStep,
  }),
  errors: [...chainErrors("write"), ...JOB_ERRORS, "JOB_STEP_REFUSED"],
  example: { from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", budget: "25000000" },
  handler: async (i, ctx): Promise<Answer<FundAnswer>> => {
    const { job, arbitration: a } = await requireJob(ctx, i.id);
    const state = JOB_STATES[job.status];
    if (state !== "Open") refuse("not_open", `job ${i.id} is ${state}: only an Open job can be funded`, { state });
    if (!isAddressEqual(job.client, i.from)) {
      refuse("only_client", `only the job's client ${job.client} funds it`, { client: job.client, from: i.from });
    }
    if (isAddressEqual(job.provider, "0x0000000000000000000000000000000000000000")) {
      refuse("provider_not_set", `job ${i.id} has no provider yet: the client names one first (setProvider)`);
    }
    const budget = i.budget === undefined ? job.budget : BigInt(i.budget);
    if (budget === 0n) refuse("budget_not_set", `job ${i.id} has no budget: give \`budget\``);
    const again: z.infer<typeof nextStep> = {
      operation: "fund_job",
      http: routeOf(fundJob, i.id),
      description: "Call fund_job again for the next step",
    };
    const answer = (
      tx: Awaited<ReturnType<typeof buildUnsignedTx>>,
      step: (typeof STEPS)[number],
      next: z.infer<typeof nextStep>,
    ) => new Answer({ ...tx, step, budget: budget.toString(), next }, { invalidate: jobKeys(i.id) });
    if (budget !== job.budget) {
      const tx = await buildUnsignedTx(ctx.court, {
        to: a.commerce,
        abi: agenticCommerceAbi,
        functionName: "setBudget",
        args: [BigInt(i.id), budget, "0x"],
        from: i.from,
        action: `Sets job ${i.id}'s budget to ${budget} token units`,
      });
      return answer(tx, "set_budget", again);
    }
    const { balance, allowance } = await readFunding(ctx.court, a, i.from);
    if (balance < budget) {
      refuse("insufficient_balance", `${i.from} holds ${balance} of the ${budget} token units the budget needs`, {
        balance: balance.toString(),
        budget: budget.toString(),
        token: a.token,
      });
    }
    if (allowance < budget) {
      const tx = await buildUnsignedTx(ctx.court, {
        to: a.token,
        abi: erc20Abi,
        functionName: "approve",
        args: [a.commerce, budget],
        from: i.from,
        action: `Approves the job contract ${a.commerce} to take ${budget} token units (your allowance is ${allowance})`,
      });
      return answer(tx, "approve", again);
    }
    const tx = await buildUnsignedTx(ctx.court, {
      to: a.commerce,
      abi: agenticCommerceAbi,
      functionName: "fund",
      args: [BigInt(i.id), budget, "0x"],
      from: i.from,
      action: `Escrows job ${i.id}'s budget of ${budget} token units`,
    });
    return answer(tx, "fund", null);
  },
});
