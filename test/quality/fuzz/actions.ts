/**
 * The actions the invariant test draws at random, and how often: mostly plausible moves by the
 * right actor, with a steady share of wrong actors, wrong amounts and wrong moments. A court with
 * hidden votes gets mostly commits and reveals; one with public votes mostly votes (each still
 * tries the other kind now and then, to be refused).
 */
import fc from "fast-check";
import type { Hex } from "viem";
import type { CourtParams } from "../../../src/deploy/terms.js";

/** 0..19 are the mnemonic accounts (0 owns the court); 20 and 21 are refusing contracts. */
export const AGENTS = 22;
export const REFUSER_OPERATORS = [18, 19] as const;
/** Parties are drawn from here most of the time; the refusing contracts twice as often. */
const PARTY_POOL = [1, 2, 3, 4, 5, 6, 20, 21, 20, 21];

export type Variant = "ok" | "empty" | "long";

export type Action =
  | {
      t: "file";
      by: number;
      def: number;
      claim: Variant;
      hash: Variant;
      /**
       * prepaid: pay the fee under a fresh reference, then file with it (two steps); paid: a
       * reference it paid before (either way: one paid in the token files nothing here) and has not
       * used; fresh: never paid; reuse: one it used; other: one someone else paid; zero.
       */
      ref: "prepaid" | "paid" | "fresh" | "reuse" | "other" | "zero";
      stake: bigint;
      /** Set by the test when it paid the fee for a "prepaid" filing. */
      refHex?: Hex;
    }
  | { t: "pay"; by: number; ref: "fresh" | "again" | "zero"; amount: "exact" | "more" | "less" | "zero"; refHex?: Hex }
  /**
   * An authorization submitted to the token directly, outside a filing: `by` signs an EIP-3009
   * authorization and `via` (a facilitator that settles first, a front-runner) submits it, to the
   * factory or elsewhere (the registry), of the token fee, more or less; under a fresh nonce, one
   * `by` paid in ETH (reuse across the two fee paths) or one it already used in the token.
   */
  | {
      t: "tokenPay";
      by: number;
      via: number;
      to: "factory" | "elsewhere";
      amount: "exact" | "more" | "less";
      ref: "fresh" | "native" | "again";
      refHex?: Hex;
    }
  /**
   * fileCaseWithAuthorization: the fee paid in the token inside the filing. The authorization is
   * signed by `by` (or by `signer`, someone else), to the factory or elsewhere, of the token fee,
   * more or less, valid now, expired or not yet valid; under a fresh nonce, one `by` paid in ETH,
   * one it already used in the token (filed with, or submitted to the token first), or (frontrun)
   * a fresh one that someone submits to the token first, just before the filing (two steps).
   */
  | {
      t: "tokenFile";
      by: number;
      def: number;
      claim: Variant;
      signer: "self" | number;
      to: "factory" | "elsewhere";
      amount: "exact" | "more" | "less";
      window: "ok" | "expired" | "early";
      ref: "fresh" | "native" | "again" | "frontrun";
      stake: bigint;
      /** Set by the test when someone submitted the authorization first, for a "frontrun" filing. */
      refHex?: Hex;
    }
  /** refundToken: the owner (or someone else, refused) returns the factory's oldest stray tokens to their payer. */
  | { t: "refund"; by: "owner" | number; amount: "all" | "more" }
  | { t: "respond"; c: number; who: "defendant" | number; stake: bigint }
  | { t: "evidence"; c: number; who: "plaintiff" | "defendant" | number; hash: Variant }
  | { t: "draw"; c: number; by: number; unknown: boolean }
  | {
      t: "assign";
      c: number;
      by: "owner" | number;
      mode: "valid" | "random";
      picks: number[];
      shuffle: number;
      unknown: boolean;
    }
  | { t: "vote"; c: number; who: "panel" | "fresh" | number; pick: number; plaintiffWins: boolean }
  | {
      t: "commit";
      c: number;
      /** fresh: a panel judge that has not committed; copy: one that sends another's commitment. */
      who: "fresh" | "panel" | "copy" | number;
      pick: number;
      plaintiffWins: boolean;
      zero: boolean;
    }
  | {
      t: "reveal";
      c: number;
      /** committed: a judge that committed and has not revealed. */
      who: "committed" | "panel" | number;
      pick: number;
      mode: "ok" | "flip" | "salt";
      why: "none" | "short" | "max" | "long";
    }
  | { t: "appeal"; c: number; who: "loser" | "winner" | number; bond: "exact" | "less" | "more" | "zero" }
  | { t: "settle" | "default" | "resolve"; c: number; by: number }
  /** Into the General court (0) or the child court below it (2): either counts in General's draws. */
  | { t: "stake"; by: number; amount: bigint; court: bigint }
  | { t: "unstake"; by: number }
  | { t: "register"; by: number; name: Variant; uri: "ok" | "long" }
  | { t: "time"; seconds: number }
  /** Mines empty blocks (one second each): enough of them and an armed draw's entropy expires. */
  | { t: "mine"; blocks: number }
  /** Jump so the next transaction lands on a case's current deadline plus `d`, then act on it. */
  | { t: "edge"; c: number; d: number; alt: boolean; pick: number; plaintiffWins: boolean }
  | { t: "withdraw"; c: number; who: "party" | number; pick: number }
  | { t: "accept"; r: 0 | 1; on: boolean }
  | { t: "treasury"; by: "owner" | number; to: number; permille: number }
  | { t: "intrude"; by: number; what: number; c: number };

/** The random action sequence for a court with terms `P`. */
export function actionArb(P: CourtParams): fc.Arbitrary<Action> {
  const hidden = P.hiddenVotes;
  const anyAgent = fc.nat({ max: AGENTS - 1 });
  const partyAgent = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...PARTY_POOL) },
    { weight: 1, arbitrary: anyAgent },
  );
  const judgeAgent = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 5, max: 21 }) },
    { weight: 1, arbitrary: anyAgent },
  );
  const caseIdx = fc.nat({ max: 10_000 });
  const variant = fc.oneof(
    { weight: 12, arbitrary: fc.constant<Variant>("ok") },
    { weight: 1, arbitrary: fc.constantFrom<Variant>("empty", "long") },
  );
  const partyStake = fc.oneof(
    { weight: 1, arbitrary: fc.constant(P.minPartyStake - 1n) },
    { weight: 1, arbitrary: fc.constant(0n) },
    { weight: 3, arbitrary: fc.constant(P.minPartyStake) },
    { weight: 6, arbitrary: fc.bigInt({ min: P.minPartyStake, max: P.minPartyStake * 5n }) },
  );
  const judgeStake = fc.oneof(
    { weight: 1, arbitrary: fc.constant(0n) },
    { weight: 1, arbitrary: fc.constant(1n) },
    { weight: 2, arbitrary: fc.bigInt({ min: 1n, max: P.minJudgeStake - 1n }) },
    { weight: 2, arbitrary: fc.constant(P.minJudgeStake) },
    { weight: 3, arbitrary: fc.bigInt({ min: P.minJudgeStake, max: P.minJudgeStake * 4n }) },
  );
  const around = (w: bigint) => fc.integer({ min: Number(w) - 3, max: Number(w) + 3 });
  /** Jumps that land around every window's edge, and some anywhere. */
  const jump = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 60 }) },
    around(P.responseWindow),
    around(P.appealWindow),
    around(P.deliberationPeriod),
    ...(hidden ? [around(P.commitPeriod), around(P.revealPeriod)] : []),
    fc.integer({ min: 1, max: 1_300 }),
  );
  // Token fees on the public court only: the hidden court's sequences stay as they were, so that
  // its fixed seed still reaches its own paths (the fee path does not depend on the kind of vote).
  const fileRefs: Extract<Action, { t: "file" }>["ref"][] = hidden
    ? ["prepaid", "prepaid", "prepaid", "prepaid", "paid", "fresh", "reuse", "other", "zero"]
    : ["prepaid", "prepaid", "prepaid", "paid", "fresh", "reuse", "other", "zero"];
  const tokenPays = hidden
    ? []
    : [
        {
          weight: 6,
          arbitrary: fc.record({
            t: fc.constant("tokenFile" as const),
            by: partyAgent,
            def: partyAgent,
            claim: fc.constantFrom<Variant>("ok", "ok", "ok", "ok", "ok", "ok", "ok", "empty"),
            signer: fc.oneof(
              { weight: 6, arbitrary: fc.constant("self" as const) },
              { weight: 1, arbitrary: anyAgent },
            ),
            to: fc.constantFrom("factory", "factory", "factory", "factory", "factory", "elsewhere"),
            amount: fc.constantFrom("exact", "exact", "exact", "more", "less"),
            window: fc.constantFrom("ok", "ok", "ok", "ok", "ok", "ok", "expired", "early"),
            ref: fc.constantFrom("fresh", "fresh", "fresh", "fresh", "fresh", "native", "again", "frontrun"),
            stake: partyStake,
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record({
            t: fc.constant("refund" as const),
            by: fc.oneof({ weight: 4, arbitrary: fc.constant("owner" as const) }, { weight: 1, arbitrary: anyAgent }),
            amount: fc.constantFrom("all", "all", "all", "more"),
          }),
        },
        {
          weight: 2,
          arbitrary: fc.record({
            t: fc.constant("tokenPay" as const),
            by: partyAgent,
            via: anyAgent,
            to: fc.constantFrom("factory", "factory", "factory", "elsewhere"),
            amount: fc.constantFrom("exact", "exact", "more", "less"),
            ref: fc.constantFrom("fresh", "fresh", "native", "again"),
          }),
        },
      ];
  const votes = hidden ? 2 : 16;
  const hiddenVotes = hidden ? 10 : 1;

  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        t: fc.constant("file" as const),
        by: partyAgent,
        def: partyAgent,
        claim: variant,
        hash: variant,
        ref: fc.constantFrom<Extract<Action, { t: "file" }>["ref"]>(...fileRefs),
        stake: partyStake,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        t: fc.constant("pay" as const),
        by: partyAgent,
        ref: fc.constantFrom("fresh", "fresh", "fresh", "again", "zero"),
        amount: fc.constantFrom("exact", "exact", "exact", "more", "less", "zero"),
      }),
    },
    ...tokenPays,
    {
      weight: 6,
      arbitrary: fc.record({
        t: fc.constant("respond" as const),
        c: caseIdx,
        who: fc.oneof({ weight: 5, arbitrary: fc.constant("defendant" as const) }, { weight: 1, arbitrary: anyAgent }),
        stake: partyStake,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant("evidence" as const),
        c: caseIdx,
        who: fc.oneof(fc.constant("plaintiff" as const), fc.constant("defendant" as const), anyAgent),
        hash: variant,
      }),
    },
    {
      weight: 5,
      arbitrary: fc.record({
        t: fc.constant("draw" as const),
        c: caseIdx,
        by: anyAgent,
        unknown: fc.nat({ max: 11 }).map((n) => n === 0),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        t: fc.constant("assign" as const),
        c: caseIdx,
        by: fc.oneof({ weight: 5, arbitrary: fc.constant("owner" as const) }, { weight: 1, arbitrary: anyAgent }),
        mode: fc.constantFrom("valid", "valid", "valid", "random"),
        picks: fc.array(anyAgent, { minLength: 2, maxLength: 6 }),
        shuffle: fc.nat(),
        unknown: fc.nat({ max: 11 }).map((n) => n === 0),
      }),
    },
    {
      weight: votes,
      arbitrary: fc.record({
        t: fc.constant("vote" as const),
        c: caseIdx,
        who: fc.oneof(
          { weight: 3, arbitrary: fc.constant("panel" as const) },
          { weight: 3, arbitrary: fc.constant("fresh" as const) },
          { weight: 1, arbitrary: anyAgent },
        ),
        pick: fc.nat({ max: 9 }),
        plaintiffWins: fc.boolean(),
      }),
    },
    {
      weight: hiddenVotes,
      arbitrary: fc.record({
        t: fc.constant("commit" as const),
        c: caseIdx,
        who: fc.oneof(
          { weight: 8, arbitrary: fc.constant("fresh" as const) },
          { weight: 1, arbitrary: fc.constant("panel" as const) },
          { weight: 1, arbitrary: fc.constant("copy" as const) },
          { weight: 1, arbitrary: anyAgent },
        ),
        pick: fc.nat({ max: 9 }),
        plaintiffWins: fc.boolean(),
        zero: fc.nat({ max: 19 }).map((n) => n === 0),
      }),
    },
    {
      weight: hiddenVotes,
      arbitrary: fc.record({
        t: fc.constant("reveal" as const),
        c: caseIdx,
        who: fc.oneof(
          { weight: 8, arbitrary: fc.constant("committed" as const) },
          { weight: 1, arbitrary: fc.constant("panel" as const) },
          { weight: 1, arbitrary: anyAgent },
        ),
        pick: fc.nat({ max: 9 }),
        mode: fc.constantFrom("ok", "ok", "ok", "ok", "ok", "ok", "flip", "salt"),
        why: fc.constantFrom("none", "none", "short", "short", "max", "long"),
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        t: fc.constant("appeal" as const),
        c: caseIdx,
        who: fc.oneof(
          { weight: 5, arbitrary: fc.constant("loser" as const) },
          { weight: 1, arbitrary: fc.constant("winner" as const) },
          { weight: 1, arbitrary: anyAgent },
        ),
        bond: fc.constantFrom("exact", "exact", "exact", "exact", "exact", "less", "more", "zero"),
      }),
    },
    { weight: 3, arbitrary: fc.record({ t: fc.constant("settle" as const), c: caseIdx, by: anyAgent }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant("default" as const), c: caseIdx, by: anyAgent }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant("resolve" as const), c: caseIdx, by: anyAgent }) },
    {
      weight: 3,
      arbitrary: fc.record({
        t: fc.constant("stake" as const),
        by: judgeAgent,
        amount: judgeStake,
        court: fc.constantFrom(0n, 2n),
      }),
    },
    { weight: 2, arbitrary: fc.record({ t: fc.constant("unstake" as const), by: judgeAgent }) },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant("register" as const),
        by: anyAgent,
        name: variant,
        uri: fc.constantFrom("ok", "ok", "ok", "long"),
      }),
    },
    { weight: 5, arbitrary: fc.record({ t: fc.constant("time" as const), seconds: jump }) },
    {
      weight: 1,
      arbitrary: fc.record({ t: fc.constant("mine" as const), blocks: fc.constantFrom(1, 12, 255, 256, 257, 300) }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        t: fc.constant("edge" as const),
        c: caseIdx,
        d: fc.constantFrom(-1, 0, 0, 1, 1, 1, 2),
        alt: fc.boolean(),
        pick: fc.nat({ max: 9 }),
        plaintiffWins: fc.boolean(),
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        t: fc.constant("withdraw" as const),
        c: caseIdx,
        who: fc.oneof({ weight: 4, arbitrary: fc.constant("party" as const) }, { weight: 1, arbitrary: anyAgent }),
        pick: fc.nat({ max: 1 }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        t: fc.constant("accept" as const),
        r: fc.constantFrom(0 as const, 1 as const),
        on: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant("treasury" as const),
        by: fc.oneof({ weight: 4, arbitrary: fc.constant("owner" as const) }, { weight: 1, arbitrary: anyAgent }),
        to: anyAgent,
        permille: fc.nat({ max: 1001 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ t: fc.constant("intrude" as const), by: anyAgent, what: fc.nat({ max: 10 }), c: caseIdx }),
    },
  );
}
