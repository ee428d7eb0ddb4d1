/**
 * The filing fee paid in a token, x402's way: the plaintiff signs an EIP-3009 authorization of the
 * fee to the factory, anyone (a facilitator) submits it to the token, and the authorization's nonce
 * is the reference fileCase takes. The factory forwards the fee to the fee recipient at filing. Nobody
 * files on another's payment, on a payment to someone else or below the fee, or twice on one payment.
 */
import { type Address, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import { DEV_TOKEN_FILING_FEE } from "../../src/devnet/terms.js";
import {
  actor,
  bootCourt,
  type Court,
  caseFactoryAbi,
  expectRevert,
  freshRef,
  P,
  payTokenFee,
  readCase,
  signAuthorization,
  testUSDAbi,
  tokenBalance,
} from "./helpers.js";

let c: Court;
const party = (i: number) => actor(c, i);
/** Submits authorizations, as a facilitator would: takes no other part. */
const facilitator = () => actor(c, 19);

beforeAll(async () => {
  c = await bootCourt();
  for (const i of [1, 2, 3]) {
    await c.owner.write({
      address: c.feeToken,
      abi: testUSDAbi,
      functionName: "mint",
      args: [party(i).address, DEV_TOKEN_FILING_FEE * 10n],
    });
  }
});

afterAll(async () => {
  await c?.stop();
});

function fileWith(who: Actor, defendant: Address, ref: `0x${string}`) {
  return who.write({
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "fileCase",
    args: [0n, defendant, "Undelivered dataset", "bafy-token", ref],
    value: P.minPartyStake,
  });
}

describe("filing fee in a token (EIP-3009)", () => {
  it("the dev deployment takes TestUSD at the dev fee; the token speaks EIP-3009 with a declared domain", async () => {
    const p = await c.reader.readContract({ address: c.factory, abi: caseFactoryAbi, functionName: "getParams" });
    expect(p.feeToken).toBe(c.feeToken);
    expect(p.tokenFilingFee).toBe(DEV_TOKEN_FILING_FEE);
    const read = (functionName: "name" | "version" | "decimals") =>
      c.reader.readContract({ address: c.feeToken, abi: testUSDAbi, functionName });
    expect([await read("name"), await read("version"), await read("decimals")]).toEqual(["Docket Test USD", "1", 6]);
  });

  it("a submitted authorization to the factory files one case and its fee goes to the fee recipient", async () => {
    const plaintiff = party(1);
    const [recipientBefore, payerBefore] = await Promise.all([
      tokenBalance(c, c.owner.address),
      tokenBalance(c, plaintiff.address),
    ]);
    const { auth } = await payTokenFee(c, plaintiff, facilitator());
    // Paid: the factory holds the fee until a filing takes it; the token records where it went.
    expect(await tokenBalance(c, c.factory)).toBe(DEV_TOKEN_FILING_FEE);
    expect(await tokenBalance(c, plaintiff.address)).toBe(payerBefore - DEV_TOKEN_FILING_FEE);
    expect(
      await c.reader.readContract({
        address: c.feeToken,
        abi: testUSDAbi,
        functionName: "authorization",
        args: [plaintiff.address, auth.nonce],
      }),
    ).toEqual([c.factory, DEV_TOKEN_FILING_FEE]);

    const r = await fileWith(plaintiff, party(2).address, auth.nonce);
    const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: r.logs });
    const [taken] = parseEventLogs({ abi: caseFactoryAbi, eventName: "TokenFilingFeeTaken", logs: r.logs });
    expect(filed?.args.paymentRef).toBe(auth.nonce);
    expect(taken?.args).toEqual({
      payer: plaintiff.address,
      paymentRef: auth.nonce,
      token: c.feeToken,
      amount: DEV_TOKEN_FILING_FEE,
    });
    expect((await readCase(c, filed?.args.caseAddr as Address)).plaintiff).toBe(plaintiff.address);
    expect(await tokenBalance(c, c.factory)).toBe(0n);
    expect(await tokenBalance(c, c.owner.address)).toBe(recipientBefore + DEV_TOKEN_FILING_FEE);

    // One payment, one case.
    await expectRevert(fileWith(plaintiff, party(3).address, auth.nonce), "PaymentRefUsed", [
      auth.nonce,
      filed?.args.caseAddr,
    ]); // Nor can the same reference then take an ETH fee it could never file with.
    await expectRevert(
      plaintiff.write({
        address: c.factory,
        abi: caseFactoryAbi,
        functionName: "payFilingFee",
        args: [auth.nonce],
        value: P.filingFee,
      }),
      "PaymentRefUsed",
      [auth.nonce, filed?.args.caseAddr],
    );
  });

  it("refuses an unused nonce, another's payment, a payment to someone else and one below the fee", async () => {
    const plaintiff = party(2);
    await expectRevert(fileWith(plaintiff, party(3).address, freshRef()), "FilingFeeNotPaid");

    // Someone else's payment: party 1 paid under this nonce, party 2 cannot file with it.
    const { auth: others } = await payTokenFee(c, party(1), facilitator());
    await expectRevert(fileWith(plaintiff, party(3).address, others.nonce), "FilingFeeNotPaid", [
      others.nonce,
      plaintiff.address,
    ]);

    // Paid, but to someone else than the factory.
    const { auth: elsewhere } = await payTokenFee(c, plaintiff, facilitator(), { to: party(3).address });
    await expectRevert(fileWith(plaintiff, party(3).address, elsewhere.nonce), "FilingFeeNotPaid");

    // Paid to the factory, but less than the fee.
    const { auth: short } = await payTokenFee(c, plaintiff, facilitator(), { value: DEV_TOKEN_FILING_FEE - 1n });
    await expectRevert(fileWith(plaintiff, party(3).address, short.nonce), "TokenFeeTooLow", [
      DEV_TOKEN_FILING_FEE,
      DEV_TOKEN_FILING_FEE - 1n,
    ]);
  });

  it("the token refuses a replayed, expired, premature or forged authorization", async () => {
    const plaintiff = party(3);
    const { auth, signature } = await payTokenFee(c, plaintiff, facilitator());
    const submit = (a: typeof auth, sig: `0x${string}`) => {
      const r = `0x${sig.slice(2, 66)}` as const;
      const s = `0x${sig.slice(66, 130)}` as const;
      const v = Number.parseInt(sig.slice(130, 132), 16);
      return facilitator().write({
        address: c.feeToken,
        abi: testUSDAbi,
        functionName: "transferWithAuthorization",
        args: [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, v, r, s],
      });
    };
    await expectRevert(submit(auth, signature), "AuthorizationAlreadyUsed", [plaintiff.address, auth.nonce]);

    const now = (await c.reader.getBlock()).timestamp;
    const expired = { ...auth, nonce: freshRef(), validBefore: now };
    await expectRevert(submit(expired, await signAuthorization(c, plaintiff, expired)), "AuthorizationExpired");
    const early = { ...auth, nonce: freshRef(), validAfter: now + 3600n, validBefore: now + 7200n };
    await expectRevert(submit(early, await signAuthorization(c, plaintiff, early)), "AuthorizationNotYetValid");
    // Signed by someone else than `from`.
    const forged = { ...auth, nonce: freshRef() };
    await expectRevert(submit(forged, await signAuthorization(c, party(1), forged)), "InvalidSignature");
  });

  it("setTokenFee is the owner's; a token needs a fee; the zero address turns token fees off", async () => {
    const set = (who: Actor, token: Address, fee: bigint) =>
      who.write({ address: c.factory, abi: caseFactoryAbi, functionName: "setTokenFee", args: [token, fee] });
    await expectRevert(set(party(1), c.feeToken, 1n), "OnlyOwner");
    await expectRevert(set(c.owner, c.feeToken, 0n), "InvalidParameter");

    const { auth } = await payTokenFee(c, party(1), facilitator());
    await set(c.owner, "0x0000000000000000000000000000000000000000", 0n);
    await expectRevert(fileWith(party(1), party(2).address, auth.nonce), "FilingFeeNotPaid");
    await set(c.owner, c.feeToken, DEV_TOKEN_FILING_FEE);
    await fileWith(party(1), party(2).address, auth.nonce);
  });
});
