import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signAndSend, TestDocket } from "../support/index.js";
import { call, connectHttp, type Json, ok } from "./helpers.js";

/**
 * Courts through MCP over Streamable HTTP, as an agent meets them: the tools list_courts and
 * get_court, the court resource, stake_as_judge into a court, the judge_case prompt with the case's
 * court and policy, and vote_on_case exactly as the service interface documents it on the General
 * court. Every unsigned transaction is signed by a dev wallet and broadcast; every effect is read
 * back through the tools.
 */
describe("courts over MCP (Streamable HTTP)", () => {
  let t: TestDocket;
  let client: Client;
  let rpcUrl: string;
  const AGENTIC = 2;

  const readCase = async (c: string): Promise<Json> => (await ok(client, "get_case", { address: c })).case;
  const send = async (signer: Address, body: Json) => {
    const r = await signAndSend(rpcUrl, signer, body.unsigned_tx);
    expect(r.status).toBe("success");
  };

  /** A case filed on chain in `court`, answered and given a panel through the tools. */
  async function seated(plaintiff: number, defendant: number, court?: number): Promise<Json> {
    const c = (await t.fileOnChain(plaintiff, defendant, undefined, court)) as Address;
    await send(t.address(defendant), await ok(client, "respond_to_case", { address: c, from: t.address(defendant) }));
    await send(t.address(0), await ok(client, "assign_judges_random", { address: c, from: t.address(0) }));
    return readCase(c);
  }

  beforeAll(async () => {
    t = await TestDocket.shared();
    rpcUrl = t.chain.publicRpcUrl as string;
    client = await connectHttp("2025-11-25", `${t.url}/mcp`);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it("list_courts and get_court: the General court and Agentic Commerce below it", async () => {
    const list = await ok(client, "list_courts");
    expect(list.courts.map((c: Json) => [c.id, c.name, c.parent?.id ?? null, c.parameters.hiddenVotes])).toEqual([
      [1, "General", null, false],
      [AGENTIC, "Agentic Commerce", 1, true],
    ]);
    const one = await ok(client, "get_court", { id: AGENTIC });
    expect(one.court).toEqual(list.courts[1]);
    const missing = await call(client, "get_court", { id: 64 });
    expect(missing).toMatchObject({ isError: true, body: { error: { code: "COURT_NOT_FOUND" } } });
  });

  it("the court resource docket://courts/{id} is get_court's JSON, policy text included", async () => {
    const r = await client.readResource({ uri: `docket://courts/${AGENTIC}` });
    const [content] = r.contents as { uri: string; mimeType: string; text: string }[];
    expect(content?.mimeType).toBe("application/json");
    const body = JSON.parse(content?.text as string);
    expect(body).toEqual(await ok(client, "get_court", { id: AGENTIC }));
    expect(body.court.policy.text).toContain("Agentic Commerce");
    await expect(client.readResource({ uri: "docket://courts/64" })).rejects.toThrow();
  });

  it("stake_as_judge with a court, signed: get_judge_stake and get_court show the stake", async () => {
    const judge = t.address(17);
    const before = (await ok(client, "get_court", { id: AGENTIC })).court;
    const amount = before.parameters.minJudgeStake as string;
    await send(judge, await ok(client, "stake_as_judge", { address: judge, amount, court: AGENTIC }));
    const stake = await ok(client, "get_judge_stake", { address: judge });
    expect(stake.courts).toEqual([{ id: AGENTIC, name: "Agentic Commerce", staked: amount, eligible: true }]);
    const after = (await ok(client, "get_court", { id: AGENTIC })).court;
    expect(after.judges).toBe(before.judges + 1);
    expect(BigInt(after.totalStake) - BigInt(before.totalStake)).toBe(BigInt(amount));
  });

  it("judge_case tells the judge its case's court: name, vote rules and policy text", async () => {
    const hidden = await seated(15, 19, AGENTIC);
    expect(hidden.court).toEqual({ id: AGENTIC, name: "Agentic Commerce" });
    const judge = hidden.judges[0] as string;
    const r = await client.getPrompt({
      name: "judge_case",
      arguments: { case_address: hidden.address, judge_address: judge },
    });
    const text = r.messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("\n");
    const policy = (await ok(client, "get_court", { id: AGENTIC })).court.policy;
    expect(text).toContain('the court "Agentic Commerce"');
    expect(text).toContain("hidden votes");
    expect(text).toContain(policy.text.trim().split("\n")[0]);
    expect(text).toContain(policy.uri);
    expect(text.indexOf("<court_policy>")).toBeLessThan(text.indexOf("vote_on_case"));
    // Without `from`, a hidden court's vote names the court's rule.
    const missing = await call(client, "vote_on_case", { address: hidden.address, plaintiff_wins: true });
    expect(missing.body.error).toMatchObject({
      code: "MISSING_FIELD",
      details: { court: { name: "Agentic Commerce" } },
    });
  });

  it("vote_on_case as the interface documents it, on the General court: no `from`, one transaction, counted at once", async () => {
    const c = await seated(1, 2);
    expect(c).toMatchObject({ court: { id: 1, name: "General" }, hiddenVotes: false, votingPhase: "vote" });
    const [first, second] = c.judges as Address[];
    const one = await ok(client, "vote_on_case", { address: c.address, plaintiff_wins: false });
    expect(Object.keys(one).sort()).toEqual(["instructions", "unsigned_tx"]);
    await send(first as Address, one);
    expect(await readCase(c.address)).toMatchObject({ votesForPlaintiff: 0, votesForDefendant: 1 });
    await send(second as Address, await ok(client, "vote_on_case", { address: c.address, plaintiff_wins: false }));
    expect(await readCase(c.address)).toMatchObject({
      votesForDefendant: 2,
      state: "Resolved",
      outcome: "DefendantWon",
    });
  });
});
