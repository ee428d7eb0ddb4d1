import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import { advanceTime } from "../../src/devnet/seed.js";
import { forSuite, TestDocket } from "../support/index.js";

/**
 * ERC-8004 through docket, end to end over HTTP: an agent registered in the Identity Registry with
 * the unsigned transaction docket builds (signed by a dev wallet), resolved by get_agent, taken
 * through a case as plaintiff, and the verdict read back as the court's ERC-8004 feedback.
 */
describe("ERC-8004 identity and reputation over HTTP", () => {
  let t: TestDocket;
  const PLAINTIFF = 15;
  const DEFENDANT = 16;
  let caseAddr: Address;

  const agent = async (who: Address) => {
    const r = await t.get(`/agent/${who}`);
    expect(r.status).toBe(200);
    return r.body.agent;
  };
  /** Signs and broadcasts docket's ERC-8004 registration as `signer`. */
  const registerErc8004 = async (signer: number, name: string, alsoDocket: boolean) => {
    const r = await t.post("/agent/self-register", { address: t.address(signer), name, erc8004: true });
    expect(r.status).toBe(200);
    const e = r.body.erc8004;
    expect(e.identityRegistry).toBe(t.chain.erc8004.enabled && t.chain.erc8004.identity);
    expect(e.unsigned_tx.to).toBe(e.identityRegistry);
    if (alsoDocket) await t.actor(signer).send(r.body.unsigned_tx as { to: Address; data: Hex; value: string });
    await t.actor(signer).send(e.unsigned_tx as { to: Address; data: Hex; value: string });
    return e;
  };

  forSuite(async () => (t = await TestDocket.shared()));

  it("/health names the ERC-8004 registries and the court's reporter", async () => {
    const h = await t.get("/health");
    expect(h.body.erc8004).toMatchObject({ enabled: true });
    for (const k of ["identity", "reputation", "reporter"]) expect(h.body.erc8004[k]).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it("the seed's ERC-8004 agents carry the seeded verdicts: 5 won the settlement, 6 lost it, 2 defaulted", async () => {
    expect((await agent(t.address(5))).erc8004.reputation).toMatchObject({ won: 1, winRate: 100 });
    expect((await agent(t.address(6))).erc8004.reputation).toMatchObject({ lost: 1, winRate: 0 });
    expect((await agent(t.address(2))).erc8004.reputation).toMatchObject({ defaulted: 1 });
    expect((await agent(t.address(7))).erc8004).toBeNull();
  });

  it("self_register_agent with erc8004 builds register(agentURI, metadata) with a registration file listing docket's MCP endpoint", async () => {
    const who = t.address(PLAINTIFF);
    expect((await t.get(`/agent/${who}`)).status).toBe(404);
    const e = await registerErc8004(PLAINTIFF, "erc-plaintiff", true);
    expect(e.agentURI).toMatch(/^data:application\/json;base64,/);
    expect(e.registrationFile).toMatchObject({
      type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
      name: "erc-plaintiff",
      supportedTrust: ["reputation"],
      services: expect.arrayContaining([{ name: "MCP", endpoint: `${t.url}/mcp`, version: "2025-11-25" }]),
    });

    const a = await agent(who);
    expect(a).toMatchObject({ address: who, registered: true, name: "erc-plaintiff" });
    expect(a.erc8004).toMatchObject({
      owner: who,
      wallet: who,
      agentURI: e.agentURI,
      registrationFile: e.registrationFile,
      reputation: {
        verdicts: 0,
        winRate: null,
        won: 0,
        lost: 0,
        defaulted: 0,
        defaultWins: 0,
        dismissed: 0,
        refused: 0,
      },
    });
    expect(a.erc8004.agentId).toBeGreaterThan(0);
    expect(a.erc8004.agentRegistry).toBe(`eip155:31337:${t.chain.erc8004.enabled && t.chain.erc8004.identity}`);
    expect(a.erc8004.reputation.client).toBe((await t.get("/health")).body.erc8004.reporter);
  });

  it("an address known only to ERC-8004 resolves too, by the name in its registration file", async () => {
    const who = t.address(DEFENDANT);
    await registerErc8004(DEFENDANT, "erc-defendant", false);
    const a = await agent(who);
    expect(a).toMatchObject({ registered: false, agentId: 0, name: "erc-defendant" });
    expect(a.erc8004).toMatchObject({ owner: who, wallet: who });
    // Docket's own registry lists only self-registered agents; the plaintiff is there with its ERC-8004 record.
    const page = await t.get("/agent/discover?limit=100");
    const listed = page.body.agents.find((x: { address: string }) => x.address === t.address(PLAINTIFF));
    expect(listed.erc8004.agentId).toBeGreaterThan(0);
    expect(page.body.agents.find((x: { address: string }) => x.address === who)).toBeUndefined();
    expect(page.body.agents.find((x: { erc8004: unknown }) => x.erc8004 === null)).toBeDefined();
  });

  it("takes the plaintiff through a case to a settled verdict; get_agent shows the court's ERC-8004 feedback", async () => {
    caseAddr = await t.fileOnChain(PLAINTIFF, DEFENDANT, "The agent never delivered the promised dataset.");
    await t.write(`/cases/${caseAddr}/respond`, { from: t.address(DEFENDANT) }, DEFENDANT);
    await t.write(`/cases/${caseAddr}/assign-judges-random`, { seed: "8004", from: t.address(0) }, 0);
    const { judges } = (await t.get(`/cases/${caseAddr}`)).body.case as { judges: Address[] };
    for (const j of judges.slice(0, 2)) {
      await t.write(`/cases/${caseAddr}/vote`, { plaintiff_wins: true, from: j }, t.indexOf(j));
    }
    await advanceTime(t.chain.reader, 301);
    await t.write(`/cases/${caseAddr}/settle`, { from: t.address(17) }, 17);
    expect((await t.get(`/cases/${caseAddr}`)).body.case).toMatchObject({ state: "Resolved", outcome: "PlaintiffWon" });

    // The follower drops the parties' cached records when it sees the settlement mined.
    const until = Date.now() + 20_000;
    let won = await agent(t.address(PLAINTIFF));
    while (won.erc8004.reputation.verdicts === 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      won = await agent(t.address(PLAINTIFF));
    }
    expect(won.erc8004.reputation).toMatchObject({ verdicts: 1, winRate: 100, won: 1, lost: 0 });
    expect(won.casesWon).toBe(1);
    const lost = await agent(t.address(DEFENDANT));
    expect(lost.erc8004.reputation).toMatchObject({ verdicts: 1, winRate: 0, won: 0, lost: 1 });
    const page = await t.get("/agent/discover?limit=100");
    const listed = page.body.agents.find((x: { address: string }) => x.address === t.address(PLAINTIFF));
    expect(listed.erc8004.reputation.won).toBe(1);
  });
});
