import { erc20Abi, isAddressEqual } from "viem";
import { z } from "zod";
import { agenticCommerceAbi } from "../../chain/abi/generated.js";
import { JOB_STATES, readFunding } from "../../chain/jobs.js";
import type { Operation } from "../kernel/operation.js";
import { address, amount } from "../kernel/schemas.js";
import { type nextStep, refuse, routeOf } from "./job.js";
import { defineJobStep } from "./jobStep.js";

const STEPS = ["set_budget", "approve", "fund"] as const;

export const fundJob: Operation = defineJobStep({
  name: "fund_job",
  title: "Fund a job",
  description:
    "The client escrows a job's budget (ERC-8183 fund), one transaction at a time: call it, sign what comes back, and call it again until `step` is `fund`. It answers the first step still missing: `set_budget` when `budget` is given and differs from the job's, `approve` (the payment token's ERC-20 approval of the job contract for the budget) when your allowance is short, else `fund`, which moves the budget into escrow. `next` says what follows once it is mined. Refused up front (422 JOB_STEP_REFUSED, `details.rule`): not_open, only_client, budget_not_set, provider_not_set, insufficient_balance.",
  path: "fund",
  fields: {
    from: address("The job's client: it signs every step"),
    budget: amount(
      "Optional: the budget in the token's smallest unit (USDC: 6 decimals); set first if the job's differs",
    ).optional(),
  },
  output: {
    step: z.enum(STEPS).describe("Which step this transaction is"),
    budget: z.string().describe("The budget being escrowed, token units"),
  },
  example: { from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", budget: "25000000" },
  call: async (i, { job, arbitration: a }, ctx) => {
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
    const again = {
      operation: "fund_job",
      http: routeOf(fundJob, i.id),
      description: "Call fund_job again for the next step",
    };
    const answer = (step: (typeof STEPS)[number], next: z.infer<typeof nextStep>) => ({
      step,
      budget: budget.toString(),
      next,
    });
    /** setBudget and fund take the same arguments: the job, the amount, no hook data. */
    const onJob = (functionName: "setBudget" | "fund", action: string, step: (typeof STEPS)[number]) => ({
      to: a.commerce,
      abi: agenticCommerceAbi,
      functionName,
      args: [BigInt(i.id), budget, "0x"],
      action,
      answer: answer(step, step === "fund" ? null : again),
    });
    if (budget !== job.budget)
      return onJob("setBudget", `Sets job ${i.id}'s budget to ${budget} token units`, "set_budget");
    const { balance, allowance } = await readFunding(ctx.chain, a, i.from);
    if (balance < budget) {
      refuse("insufficient_balance", `${i.from} holds ${balance} of the ${budget} token units the budget needs`, {
        balance: balance.toString(),
        budget: budget.toString(),
        token: a.token,
      });
    }
    if (allowance < budget) {
      return {
        to: a.token,
        abi: erc20Abi,
        functionName: "approve",
        args: [a.commerce, budget],
        action: `Approves the job contract ${a.commerce} to take ${budget} token units (your allowance is ${allowance})`,
        answer: answer("approve", again),
      };
    }
    return onJob("fund", `Escrows job ${i.id}'s budget of ${budget} token units`, "fund");
  },
});
