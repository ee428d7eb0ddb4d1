/**
 * The filing fee paid in any EIP-3009 token, x402's way: the plaintiff signs an authorization of the
 * fee to the factory and files with it (`fileCaseWithAuthorization`); the factory submits it to the
 * token itself and forwards the fee to the fee recipient in the filing's own transaction, so a fee is
 * paid and filed together or not at all. Against the dev chain's TestUSD and a token that behaves
 * like USDC (FiatToken's EIP-3009 surface, reason strings, no record of where an authorization went).
 * With #26 hole 5's sequence (tokens locked in the factory) and #31 item 5's (a watcher submits a
 * pending filing's authorization first) replayed: the fee that arrived files the payer's case, once;
 * what reaches the factory outside any authorization the owner returns.
 */
import { type Address, getAddress, type Hex, parseEventLogs, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_TOKEN_FILING_FEE } from "../../src/deploy/terms.js";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
/** Someone who submits authorizations to the token directly (a facilitator, a front-runner). */
const outsider = () => kit.actor(c, 19);

const { party } = kit.courtOfFile(async (court) => {
  c = court;
  for (const i of [1, 2, 3, 4]) {
    await c.owner.write({
      address: c.feeToken,
      abi: kit.testUSDAbi,
      functionName: "mint",
      args: [party(i).address, DEV_TOKEN_FILING_FEE * 10n],
    });
  }
});

function fileWith(who: Actor, defendant: Address, fee: kit.FeeAuthorization) {
  const args = [0n, defendant, "Undelivered dataset", "bafy-token", fee] as const;
  return kit.callAs(who, c.factory, kit.caseFactoryAbi, "fileCaseWithAuthorization", args, kit.P.minPartyStake);
}

function setTokenFee(who: Actor, token: Address, fee: bigint) {
  return who.write({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "setTokenFee", args: [token, fee] });
}

function authorizationState(token: Address, who: Address, nonce: Hex) {
  return c.reader.readContract({
    address: token,
    abi: kit.testUSDAbi,
    functionName: "authorizationState",
    args: [who, nonce],
  });
}

/** Files with a fresh authorization of `payer`'s and checks where the fee went, in that one transaction. */
async function filesAndPays(payer: Actor, defendant: Address, token: Address) {
  const [recipientBefore, payerBefore] = await Promise.all([
    kit.tokenBalance(c, c.owner.address, token),
    kit.tokenBalance(c, payer.address, token),
  ]);
  const signed = await kit.authorizeTokenFee(c, payer, { token });
  const r = await fileWith(payer, defendant, signed.fee);
  const [filed] = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "CaseFiled", logs: r.logs });
  const [taken] = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "TokenFilingFeeTaken", logs: r.logs });
  const moves = parseEventLogs({ abi: kit.testUSDAbi, eventName: "Transfer", logs: r.logs }).map((l) => l.args);
  expect(filed?.args.paymentRef).toBe(signed.auth.nonce);
  expect(taken?.args).toEqual({
    payer: payer.address,
    paymentRef: signed.auth.nonce,
    token,
    amount: DEV_TOKEN_FILING_FEE,
  });
  // Paid and forwarded in the filing's own transaction.
  expect(moves).toEqual([
    { from: payer.address, to: c.factory, value: DEV_TOKEN_FILING_FEE },
    { from: c.factory, to: c.owner.address, value: DEV_TOKEN_FILING_FEE },
  ]);
  expect((await kit.readCase(c, filed?.args.caseAddr as Address)).plaintiff).toBe(payer.address);
  expect(await kit.tokenBalance(c, c.factory, token)).toBe(0n);
  expect(await kit.tokenBalance(c, c.owner.address, token)).toBe(recipientBefore + DEV_TOKEN_FILING_FEE);
  expect(await kit.tokenBalance(c, payer.address, token)).toBe(payerBefore - DEV_TOKEN_FILING_FEE);
  return { ...signed, caseAddr: filed?.args.caseAddr as Address };
}

describe("filing fee in a token (EIP-3009), consumed inside the filing", () => {
  it("the dev deployment takes TestUSD at the dev fee; the token speaks EIP-3009 with a declared domain", async () => {
    const p = await c.reader.readContract({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "getParams" });
    expect(p.feeToken).toBe(c.feeToken);
    expect(p.tokenFilingFee).toBe(DEV_TOKEN_FILING_FEE);
    const read = (functionName: "name" | "version" | "decimals") =>
      c.reader.readContract({ address: c.feeToken, abi: kit.testUSDAbi, functionName });
    expect([await read("name"), await read("version"), await read("decimals")]).toEqual(["Docket Test USD", "1", 6]);
  });

  it("files one case per authorization; the fee reaches the fee recipient in the filing transaction", async () => {
    const plaintiff = party(1);
    const { fee, auth, caseAddr } = await filesAndPays(plaintiff, party(2).address, c.feeToken);
    expect(await authorizationState(c.feeToken, plaintiff.address, auth.nonce)).toBe(true);

    // The same authorization again: refused by the factory, by name, before the token is asked.
    await kit.expectRevert(fileWith(plaintiff, party(3).address, fee), "PaymentRefUsed", [auth.nonce, caseAddr]);
    // Nor can its reference then take an ETH fee it could never file with.
    await kit.expectRevert(kit.payFee(c, plaintiff, auth.nonce), "PaymentRefUsed", [auth.nonce, caseAddr]);
  });

  it("refuses another's authorization, one to someone else, below the fee, expired, malformed or with the fee off; nothing moves", async () => {
    const plaintiff = party(2);
    const before = await kit.tokenBalance(c, plaintiff.address);
    const defendant = party(3).address;

    // Party 1's authorization: the factory submits it as from = the caller (party 2), so the signature fails.
    const { fee: others } = await kit.authorizeTokenFee(c, party(1));
    await kit.expectRevert(fileWith(plaintiff, defendant, others), "InvalidSignature");
    // Signed to pay party 3: submitted as a payment to the factory, the signature fails.
    const { fee: elsewhere } = await kit.authorizeTokenFee(c, plaintiff, { to: party(3).address });
    await kit.expectRevert(fileWith(plaintiff, defendant, elsewhere), "InvalidSignature");
    const { fee: short } = await kit.authorizeTokenFee(c, plaintiff, { value: DEV_TOKEN_FILING_FEE - 1n });
    await kit.expectRevert(fileWith(plaintiff, defendant, short), "TokenFeeTooLow", [
      DEV_TOKEN_FILING_FEE,
      DEV_TOKEN_FILING_FEE - 1n,
    ]);
    const { fee: good } = await kit.authorizeTokenFee(c, plaintiff);
    await kit.expectRevert(fileWith(plaintiff, defendant, { ...good, signature: "0x1234" }), "SignatureLength", [2n]);
    await kit.expectRevert(
      fileWith(plaintiff, defendant, { ...good, nonce: "0x".padEnd(66, "0") as Hex }),
      "PaymentRefRequired",
    );

    // A reference the plaintiff paid in ETH stays for fileCase: no token filing strands that fee.
    const ref = kit.freshRef();
    await kit.payFee(c, plaintiff, ref);
    const { fee: sameRef } = await kit.authorizeTokenFee(c, plaintiff, { nonce: ref });
    await kit.expectRevert(fileWith(plaintiff, defendant, sameRef), "FilingFeeAlreadyPaid", [ref]);

    await setTokenFee(c.owner, zeroAddress, 0n);
    try {
      await kit.expectRevert(fileWith(plaintiff, defendant, good), "TokenFeeOff");
    } finally {
      await setTokenFee(c.owner, c.feeToken, DEV_TOKEN_FILING_FEE);
    }
    expect(await kit.tokenBalance(c, plaintiff.address)).toBe(before);
    expect(await kit.tokenBalance(c, c.factory)).toBe(0n);
    // The good one was never consumed: it still files.
    await fileWith(plaintiff, defendant, good);
  });

  it("an expired or premature authorization is the token's refusal", async () => {
    const plaintiff = party(3);
    const { auth } = await kit.authorizeTokenFee(c, plaintiff);
    const now = (await c.reader.getBlock()).timestamp;
    for (const [window, error] of [
      [{ validBefore: now }, "AuthorizationExpired"],
      [{ validAfter: now + 3600n, validBefore: now + 7200n }, "AuthorizationNotYetValid"],
    ] as const) {
      const a = { ...auth, ...window, nonce: kit.freshRef() };
      const signature = await kit.signAuthorization(c, plaintiff, a);
      const { value, validAfter, validBefore, nonce } = a;
      await kit.expectRevert(
        fileWith(plaintiff, party(1).address, { value, validAfter, validBefore, nonce, signature }),
        error,
      );
    }
  });

  it("#26 hole 5: a fee raised after signing, or an authorization someone submitted first, locks nothing", async () => {
    const plaintiff = party(4);
    const start = await kit.tokenBalance(c, plaintiff.address);

    // Signed for exactly the quoted fee; the owner raises the fee; the filing is refused and nothing moved.
    const quoted = await kit.authorizeTokenFee(c, plaintiff);
    await setTokenFee(c.owner, c.feeToken, DEV_TOKEN_FILING_FEE * 2n);
    try {
      await kit.expectRevert(fileWith(plaintiff, party(1).address, quoted.fee), "TokenFeeTooLow", [
        DEV_TOKEN_FILING_FEE * 2n,
        DEV_TOKEN_FILING_FEE,
      ]);
      expect(await kit.tokenBalance(c, plaintiff.address)).toBe(start);
      expect(await authorizationState(c.feeToken, plaintiff.address, quoted.auth.nonce)).toBe(false);
    } finally {
      await setTokenFee(c.owner, c.feeToken, DEV_TOKEN_FILING_FEE);
    }

    // The old sequence: the authorization is settled to the factory first (a facilitator, a
    // front-runner), then the owner raises the fee and lowers it again. The fee that reached the
    // factory under the plaintiff's authorization files the plaintiff's case (issue #31, item 5).
    const settled = await kit.authorizeTokenFee(c, plaintiff);
    await kit.submitAuthorization(outsider(), c.feeToken, settled.auth, settled.signature);
    expect(await kit.tokenBalance(c, c.factory)).toBe(DEV_TOKEN_FILING_FEE);
    await setTokenFee(c.owner, c.feeToken, DEV_TOKEN_FILING_FEE * 2n);
    await setTokenFee(c.owner, c.feeToken, DEV_TOKEN_FILING_FEE);
    await fileWith(plaintiff, party(1).address, settled.fee);
    expect(await kit.tokenBalance(c, c.factory)).toBe(0n);
    expect(await kit.tokenBalance(c, plaintiff.address)).toBe(start - DEV_TOKEN_FILING_FEE);
    // What reaches the factory outside any authorization (a plain transfer) only the owner returns.
    await plaintiff.write({
      address: c.feeToken,
      abi: kit.testUSDAbi,
      functionName: "transfer",
      args: [c.factory, DEV_TOKEN_FILING_FEE],
    });
    const refund = (who: Actor) =>
      who.write({
        address: c.factory,
        abi: kit.caseFactoryAbi,
        functionName: "refundToken",
        args: [c.feeToken, plaintiff.address, DEV_TOKEN_FILING_FEE],
      });
    await kit.expectRevert(refund(plaintiff), "OnlyOwner");
    const r = await refund(c.owner);
    const [refunded] = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "TokenRefunded", logs: r.logs });
    expect(refunded?.args).toEqual({ token: c.feeToken, to: plaintiff.address, amount: DEV_TOKEN_FILING_FEE });
    expect(await kit.tokenBalance(c, c.factory)).toBe(0n);
    expect(await kit.tokenBalance(c, plaintiff.address)).toBe(start - DEV_TOKEN_FILING_FEE);
  });

  it("setTokenFee and refundToken are the owner's; a token needs a fee", async () => {
    await kit.expectRevert(setTokenFee(party(1), c.feeToken, 1n), "OnlyOwner");
    await kit.expectRevert(setTokenFee(c.owner, c.feeToken, 0n), "InvalidParameter");
    await kit.expectRevert(
      c.owner.write({
        address: c.factory,
        abi: kit.caseFactoryAbi,
        functionName: "refundToken",
        args: [c.feeToken, zeroAddress, 1n],
      }),
      "InvalidParameter",
    );
  });
});

describe("a token that behaves like USDC", () => {
  let usdc: Address;

  beforeAll(async () => {
    const deployed = await c.owner.mined(
      await c.owner.wallet.deployContract({ abi: kit.usdcLikeAbi, bytecode: kit.usdcLikeBytecode, args: [] }),
    );
    usdc = getAddress(deployed.contractAddress as Address);
    for (const i of [1, 2]) {
      await c.owner.write({
        address: usdc,
        abi: kit.usdcLikeAbi,
        functionName: "mint",
        args: [party(i).address, DEV_TOKEN_FILING_FEE * 10n],
      });
    }
    await setTokenFee(c.owner, usdc, DEV_TOKEN_FILING_FEE);
  });

  afterAll(async () => {
    await setTokenFee(c.owner, c.feeToken, DEV_TOKEN_FILING_FEE);
  });

  it("has USDC's domain and keeps no record of where an authorization went", async () => {
    const read = (functionName: "name" | "version" | "decimals") =>
      c.reader.readContract({ address: usdc, abi: kit.usdcLikeAbi, functionName });
    expect([await read("name"), await read("version"), await read("decimals")]).toEqual(["USD Coin", "2", 6]);
    const views = kit.usdcLikeAbi
      .filter((x) => x.type === "function" && x.stateMutability === "view")
      .map((x) => x.name);
    expect(views).not.toContain("authorization");
  });

  it("pays the fee in the filing, refuses the same authorization twice", async () => {
    const { fee, auth, caseAddr } = await filesAndPays(party(1), party(2).address, usdc);
    expect(await authorizationState(usdc, party(1).address, auth.nonce)).toBe(true);
    await kit.expectRevert(fileWith(party(1), party(2).address, fee), "PaymentRefUsed", [auth.nonce, caseAddr]);
  });

  it("the race: someone submits the authorization to the token first; the fee that arrived files the case, once", async () => {
    const plaintiff = party(2);
    const start = await kit.tokenBalance(c, plaintiff.address, usdc);
    const signed = await kit.authorizeTokenFee(c, plaintiff, { token: usdc });
    // receiveWithAuthorization is the payee's alone, but the x402 client signs a TransferWithAuthorization,
    // which anyone may submit.
    await kit.submitAuthorization(outsider(), usdc, signed.auth, signed.signature);
    expect(await kit.tokenBalance(c, c.factory, usdc)).toBe(DEV_TOKEN_FILING_FEE);
    const r = await fileWith(plaintiff, party(1).address, signed.fee);
    const [filed] = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "CaseFiled", logs: r.logs });
    expect(await kit.tokenBalance(c, plaintiff.address, usdc)).toBe(start - DEV_TOKEN_FILING_FEE);
    expect(await kit.tokenBalance(c, c.factory, usdc)).toBe(0n);
    await kit.expectRevert(fileWith(plaintiff, party(1).address, signed.fee), "PaymentRefUsed", [
      signed.auth.nonce,
      filed?.args.caseAddr,
    ]);
  });

  it("the token's own refusals surface as its reason strings: a forged signature", async () => {
    const { fee } = await kit.authorizeTokenFee(c, party(2), { token: usdc });
    await kit.expectRevert(fileWith(party(1), party(2).address, fee), "Error", ["FiatTokenV2: invalid signature"]);
  });
});
