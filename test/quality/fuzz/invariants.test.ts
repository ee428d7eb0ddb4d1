/**
 * Invariants under random use: fast-check generates sequences of lifecycle actions by random
 * actors (most of them wrong in some way), drives them against the real contracts on one dev
 * chain (reverted to a snapshot before each sequence), and after every step checks the chain
 * against an independent model (model.ts) and against itself:
 *
 * - a refused action reverts with the named error the model expects, never a Panic or empty data;
 *   an action the model expects to pass passes;
 * - every tracked balance is what the model says, to the wei, gas included; the total of all of
 *   them is conserved up to the gas spent;
 * - a case holds plaintiffStake + defendantStake + appealBondPaid until it pays out, and exactly
 *   its `owed` payments after; it emits one payout event (Settled, Defaulted or Dismissed) once;
 * - the registry holds totalJudgeStake + treasury, and totalJudgeStake is the sum of the stakes;
 * - getStats counts by state match the states read from every case, and getOpenCases lists
 *   exactly the cases that can still change; so does getCaseStatuses, and each agent's index of
 *   involved cases (getInvolvedCases) is exactly the open cases it is a party to or judged in;
 *   each case's getStatus agrees with its getCase, says who may appeal and where its draw stands;
 * - every judge's draw weight (registry.weightAt) is its stake while eligible, else 0, and stake,
 *   activeCases, eligibility and the pool match the model: slashes and rewards land when the
 *   outcome is final (settle, the appeal verdict, dismissal, a hidden-vote verdict at the reveal deadline), for every round's judges;
 * - a draw runs only once its entropy exists (DrawNotReady before), re-arms when it expired (257
 *   blocks on), and the panel it seats (read back: sampling is the contract's) has the right
 *   size, no party, no duplicate, no round-one judge on appeal, and only judges eligible now
 *   who had weight in the block that armed it; refused with NotEnoughJudges exactly when fewer
 *   such judges exist; and while an armed draw waits for its panel no judge may unstake
 *   (DrawPendingInCourt, issue #31);
 * - filing fees go to the fee recipient, and fileCase wants one paid by its caller, unused;
 * - token fees (EIP-3009 authorizations submitted by fileCaseWithAuthorization itself): every
 *   tracked token balance is the model's after every step; the fee recipient holds exactly the token
 *   fees of the cases filed with one; the factory holds no token but what reached it outside a
 *   filing (an authorization to it submitted to the token first), until the owner refunds it; a
 *   filing takes only the caller's own authorization to the factory, of at least the token fee,
 *   inside its window, once (reused, front-run, below the fee, expired, premature, another's: each
 *   refused by name); each reference files at most one case, whichever way it was paid
 *   (paymentRefUsedBy read back for every paid reference). Token fees are drawn on the public court
 *   (its fee path does not depend on the kind of vote); both courts check them;
 * - hidden votes: commitments, reveals (with their reasons) and the counts of each round are as
 *   modelled, and a view never shows a vote before it is revealed; a round is decided only once
 *   every commitment is opened, or at the reveal deadline by a majority of the panel among the
 *   revealed votes; whoever did not reveal is a no-show at the final outcome.
 *
 * It runs twice: on a court with public votes and on one with hidden votes (the dev terms).
 *
 * Every sequence starts from the same snapshot: staked judges (one in the pool below the minimum),
 * two refusing contracts as parties (payments to them are deferred to `owed`), and a case in each
 * state, made by a prologue that ran through the same checked steps. Actions pick a case where
 * they can apply three times in four; `edge` actions jump to exactly a deadline (or one second
 * past it) and act on it. Refused transactions are mined too (fixed gas, no estimate), so their
 * gas counts, and their revert data comes from a trace of the mined transaction.
 *
 * INVARIANT_SEED, INVARIANT_RUNS (per court), INVARIANT_MAX_ACTIONS, INVARIANT_LOG=1 (print every
 * sequence's steps) and INVARIANT_SHRINK=1 (shrink a failure instead of stopping at it) override
 * the defaults. A failure prints the seed, fast-check's path
 * and the last steps. Which judges a random draw seats depends on chain entropy (block hashes,
 * which include wall-clock timestamps), so a replay of the seed may seat other judges.
 *
 * The parts: `model.ts` (what the contracts should do, independent of them), `actions.ts` (what
 * is drawn, and how often), `planner.ts` (an action as one transaction and the model's
 * expectation of it), `checks.ts` and `status.ts` (the whole world read back and held against the
 * model), `runner.ts` (boot, prologue, snapshot, send, step) and `state.ts` (the run they share).
 * A new contract function wants a model method, an action, a plan and, if it holds value or state,
 * a check.
 */

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CourtParams } from "../../../src/deploy/terms.js";
import { HP, P as PUBLIC } from "../../contracts/helpers.js";
import { actionArb } from "./actions.js";
import { resetChain, runStep, setup } from "./runner.js";
import { c, coverage, log, model } from "./state.js";

const SEED = Number(process.env.INVARIANT_SEED ?? 72_024);
const RUNS = Number(process.env.INVARIANT_RUNS ?? 18);
const MIN_ACTIONS = 20;
const MAX_ACTIONS = Number(process.env.INVARIANT_MAX_ACTIONS ?? 40);

const courts: [string, CourtParams, string][] = [
  ["public votes", PUBLIC, "vote"],
  ["hidden votes (commit-reveal)", HP, "reveal"],
];

for (const [label, params, decisive] of courts) {
  describe(`contract invariants under random action sequences, ${label}`, () => {
    beforeAll(() => setup(params), 60_000);

    afterAll(async () => {
      await c?.stop();
    });

    it(`hold after every step (seed ${SEED}, ${RUNS} sequences of ${MIN_ACTIONS}-${MAX_ACTIONS} actions)`, async () => {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(
          fc.array(actionArb(params), { minLength: MIN_ACTIONS, maxLength: MAX_ACTIONS }),
          async (actions) => {
            coverage.sequences++;
            await resetChain();
            for (const [step, a] of actions.entries()) await runStep(a, step);
            coverage.maxCases = Math.max(coverage.maxCases, model.cases.length);
            if (process.env.INVARIANT_LOG) console.log(log.join("\n"));
          },
        ),
        {
          seed: SEED,
          numRuns: RUNS,
          endOnFailure: process.env.INVARIANT_SHRINK !== "1",
          // Surface our message (with the last steps) rather than only the counterexample.
          verbose: 1,
        },
      );
      const sorted = (m: Map<string, number>) =>
        [...m]
          .sort(([x], [y]) => x.localeCompare(y))
          .map(([k, n]) => `${k}=${n}`)
          .join(" ");
      console.log(
        [
          `invariants (${label}): seed ${SEED}, ${coverage.sequences} sequences, ${coverage.actions} actions in ${((Date.now() - started) / 1000).toFixed(1)} s`,
          `  passed: ${sorted(coverage.passed)}`,
          `  refused: ${sorted(coverage.refused)}`,
          `  skipped (no case yet): ${coverage.skipped}; deferred payments: ${coverage.deferred}; most cases in one sequence: ${coverage.maxCases}`,
          `  most gas used: ${coverage.maxGas} (${coverage.maxGasWhat})`,
          `  transitions: ${sorted(coverage.transitions)}`,
          `  states reached: ${[...coverage.reached].sort().join(", ")}`,
        ].join("\n"),
      );
      // The sequences reached the paths this court is about: verdicts by its kind of vote, draws
      // that seat, fees paid, and judges scored at a final outcome.
      const kinds = [decisive, "draw", "pay", "file", "settle", "resolve"];
      // Token fees: filings that paid one, authorizations submitted first, strays refunded (drawn
      // on the public court only).
      if (!params.hiddenVotes) kinds.push("tokenPay", "tokenFile", "refund");
      // Hidden votes: the revealed majority's verdict at the reveal deadline, too.
      if (params.hiddenVotes) kinds.push("resolve:verdict");
      for (const kind of kinds) {
        expect(coverage.passed.get(kind) ?? 0, `${kind} never passed`).toBeGreaterThan(0);
      }
    }, 180_000);
  });
}
