import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTIC_COMMERCE_COURT } from "../../src/deploy/terms.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { signAndSend, TestDocket } from "../support/index.js";
import { call, connectHttp, ERAS, type Json, ok } from "./helpers.js";

/**
 * A case on the hidden-vote court (the dev world's Agentic Commerce) decided entirely through MCP tools over Streamable HTTP, as an
 * agent would: respond, draw, commit, reveal, a deadline verdict with a silent judge, an appeal
 * with five judges and its final deadline verdict. Every unsigned transaction is signed by a test
 * wallet and broadcast; every effect is read back with get_case. Once in each protocol era over the
 * stateless `/mcp`, each on a chain of its own: on one shared chain the appeal's draw of five
 * fresh judges found too few free (NotEnoughJudges).
 */
describe.each(ERAS)("hidden votes over MCP (Streamable HTTP), protocol %s", (era) => {
  let t: TestDocket;
  let client: Client;
  let rpcUrl: string;
  const PLAINTIFF = 15;
  const DEFENDANT = 19;
  let caseAddr: Address;
  const salts = new Map<string, { plaintiff_wins: boolean; salt: string }>();

  const readCase = async (): Promise<Json> => (await ok(client, "get_case", { address: caseAddr })).case;
  const send = async (signer: Address, body: Json) => {
    const r = await signAndSend(rpcUrl, signer, body.unsigned_tx);
    expect(r.status).toBe("success");
  };

  async function commitAll(votes: boolean[]): Promise<Address[]> {
    salts.clear();
    const judges = (await readCase()).judges as Address[];
    for (const [i, judge] of judges.entries()) {
      const r = await ok(client, "vote_on_case", { address: caseAddr, plaintiff_wins: votes[i], from: judge });
      salts.set(judge, { plaintiff_wins: r.reveal.plaintiff_wins, salt: r.reveal.salt });
      await send(judge, r);
    }
    return judges;
  }

  async function reveal(judge: Address): Promise<void> {
    const kit = salts.get(judge);
    await send(judge, await ok(client, "reveal_vote", { address: caseAddr, ...kit, from: judge }));
  }

  beforeAll(async () => {
    t = await TestDocket.shared();
    rpcUrl = t.chain.publicRpcUrl as string;
    client = await connectHttp(era, `${t.url}/mcp`);
    caseAddr = (await t.fileOnChain(PLAINTIFF, DEFENDANT, undefined, AGENTIC_COMMERCE_COURT)) as Address;
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it("respond and draw through tools: a panel in its commit phase", async () => {
    await send(
      t.address(DEFENDANT),
      await ok(client, "respond_to_case", { address: caseAddr, from: t.address(DEFENDANT) }),
    );
    await send(t.address(0), await ok(client, "assign_judges_random", { address: caseAddr, from: t.address(0) }));
    expect(await readCase()).toMatchObject({ state: "Deliberating", hiddenVotes: true, votingPhase: "commit" });
  });

  it("commits hide the votes; a reveal with the wrong vote is an error result naming CommitmentMismatch", async () => {
    const judges = await commitAll([true, true, false]);
    expect(await readCase()).toMatchObject({ votesCommitted: 3, votesForPlaintiff: 0, votingPhase: "reveal" });
    const j0 = judges[0] as Address;
    const wrong = await call(client, "reveal_vote", {
      address: caseAddr,
      plaintiff_wins: false,
      salt: salts.get(j0)?.salt,
      from: j0,
    });
    expect(wrong.isError).toBe(true);
    expect(wrong.body.error).toMatchObject({ code: "CONTRACT_REVERT", details: { reason: "CommitmentMismatch" } });
  });

  it("two reveals and a silent judge: the reveal deadline gives the revealed majority's verdict", async () => {
    const judges = (await readCase()).judges as Address[];
    await reveal(judges[0] as Address);
    await reveal(judges[1] as Address);
    expect(await readCase()).toMatchObject({ state: "Deliberating", votesForPlaintiff: 2 });
    const early = await call(client, "resolve_after_deadline", { address: caseAddr, from: t.address(0) });
    expect(early.body.error.details.reason).toBe("DeadlineNotReached");
    await advanceTime(t.chain.reader, 601);
    await send(t.address(0), await ok(client, "resolve_after_deadline", { address: caseAddr, from: t.address(0) }));
    expect(await readCase()).toMatchObject({ state: "Resolved", outcome: "PlaintiffWon", appealWindowOpen: true });
  });

  it("the defendant appeals; five fresh judges commit, three reveal, and the deadline verdict is final", async () => {
    const round1 = (await readCase()).judges as Address[];
    // Five fresh judges must be free: the seed's random draws may have left too few of its eight
    // eligible (a seeded no-show is slashed below the minimum), so two more stake first.
    for (const i of [16, 17]) {
      await send(
        t.address(i),
        await ok(client, "stake_as_judge", { address: t.address(i), amount: "100000000000000000" }),
      );
    }
    await send(
      t.address(DEFENDANT),
      await ok(client, "file_appeal", { address: caseAddr, from: t.address(DEFENDANT) }),
    );
    await send(t.address(0), await ok(client, "assign_judges_random", { address: caseAddr, from: t.address(0) }));
    const judges = await commitAll([false, false, false, true, true]);
    expect(judges).toHaveLength(5);
    for (const j of judges) expect(round1).not.toContain(j);
    for (const j of judges.slice(0, 3)) await reveal(j);
    expect(await readCase()).toMatchObject({ state: "Deliberating", votesForDefendant: 3 });
    await advanceTime(t.chain.reader, 601);
    await send(t.address(0), await ok(client, "resolve_after_deadline", { address: caseAddr, from: t.address(0) }));
    const final = await readCase();
    expect(final).toMatchObject({ state: "Resolved", outcome: "DefendantWon", appealWindowOpen: false });
    expect(final.verdictReason).toMatch(/appeal/i);
  });
});
