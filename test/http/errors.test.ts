import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCodes } from "../../src/errors/errors.js";
import { TestDocket } from "../support/index.js";

/** The service interface, section 7, rule by rule, and the envelope on everything else that can go wrong. */
describe("errors: the envelope, the codes and the six rules", () => {
  let t: TestDocket;
  let deliberating: string;
  let summoned: string;
  const unknownCase = "0x000000000000000000000000000000000000dEaD";

  const expectEnvelope = (body: { error?: { code?: string; message?: string } }, code: string) => {
    expect(body.error?.code).toBe(code);
    expect(errorCodes).toContain(body.error?.code);
    expect(typeof body.error?.message).toBe("string");
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|node_modules/);
  };

  beforeAll(async () => {
    t = await TestDocket.shared();
    const seeded = t.devnet.seed?.cases ?? [];
    deliberating = seeded.find((c) => c.state === "Deliberating")?.address as string;
    summoned = seeded.find((c) => c.state === "Summoned")?.address as string;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("rule 1: a missing required field is 400 MISSING_FIELD", async () => {
    const r = await t.post(`/cases/${deliberating}/vote`, {});
    expect(r.status).toBe(400);
    expectEnvelope(r.body, "MISSING_FIELD");
    expect(r.body.error.message).toContain("plaintiff_wins");
    const s = await t.post("/judges/stake", { address: t.address(16) });
    expect(s.status).toBe(400);
    expectEnvelope(s.body, "MISSING_FIELD");
  });

  it("rule 2: an invalid address is 400 INVALID_ADDRESS, in the path and in the body", async () => {
    for (const bad of ["0x123", "not-an-address", "0xZZ00000000000000000000000000000000000000"]) {
      const r = await t.get(`/cases/${bad}`);
      expect(r.status).toBe(400);
      expectEnvelope(r.body, "INVALID_ADDRESS");
    }
    // Mixed case with a wrong EIP-55 checksum.
    const wrongChecksum = "0x70997970c51812dc3a010c7d01b50e0d17dc79C8";
    expectEnvelope((await t.get(`/agent/${wrongChecksum}`)).body, "INVALID_ADDRESS");
    const body = await t.post("/agent/self-register", { address: "0x12", name: "x" });
    expect(body.status).toBe(400);
    expectEnvelope(body.body, "INVALID_ADDRESS");
  });

  it("an address is taken all lowercase, all uppercase and with spaces around it: EIP-55 binds mixed case only", async () => {
    const a = t.address(1);
    for (const spelled of [
      a.toLowerCase(),
      `0x${a.slice(2).toUpperCase()}`,
      a.toUpperCase(),
      `  ${a}  `,
      ` ${a.toLowerCase()}\t`,
    ]) {
      const r = await t.get(`/agent/${encodeURIComponent(spelled)}`);
      expect(r.status, JSON.stringify(spelled)).toBe(200);
      expect(r.body.agent.address).toBe(a);
    }
    // In a body too (the other door shares the schema): the answer names the checksummed address.
    const tx = await t.post("/judges/stake", { address: `  ${a.toUpperCase()} `, amount: "100000000000000000" });
    expect(tx.status, JSON.stringify(tx.body)).toBe(200);
    expect(JSON.stringify(tx.body)).toContain(a);
  });

  it("rule 3: an unknown case is 404 CASE_NOT_FOUND, for reads and writes", async () => {
    const r = await t.get(`/cases/${unknownCase}`);
    expect(r.status).toBe(404);
    expectEnvelope(r.body, "CASE_NOT_FOUND");
    const w = await t.post(`/cases/${unknownCase}/vote`, { plaintiff_wins: true });
    expect(w.status).toBe(404);
    expectEnvelope(w.body, "CASE_NOT_FOUND");
    // A real account (not a case) is not a case either.
    expect((await t.get(`/cases/${t.address(1)}`)).status).toBe(404);
  });

  it("rule 4: an unregistered agent is 404 AGENT_NOT_REGISTERED", async () => {
    const r = await t.get(`/agent/${t.address(18)}`);
    expect(r.status).toBe(404);
    expectEnvelope(r.body, "AGENT_NOT_REGISTERED");
  });

  it("rule 5: a stake below the minimum is 422 STAKE_BELOW_MINIMUM", async () => {
    const r = await t.post("/judges/stake", { address: t.address(16), amount: "1000" });
    expect(r.status).toBe(422);
    expectEnvelope(r.body, "STAKE_BELOW_MINIMUM");
    expect(r.body.error.details.minimum).toBe((await t.get("/judges/pool")).body.minimumStake);
    const respond = await t.post(`/cases/${summoned}/respond`, { stake: "1" });
    expect(respond.status).toBe(422);
    expectEnvelope(respond.body, "STAKE_BELOW_MINIMUM");
  });

  it("rule 6: a revert is 500 CONTRACT_REVERT with the contract's reason", async () => {
    const r = await t.post(`/cases/${deliberating}/vote`, { plaintiff_wins: true, from: t.address(1) });
    expect(r.status).toBe(500);
    expectEnvelope(r.body, "CONTRACT_REVERT");
    expect(r.body.error.details).toMatchObject({ reason: "NotAssignedJudge", args: { caller: t.address(1) } });
    const respond = await t.post(`/cases/${summoned}/respond`, { from: t.address(2) });
    expect(respond.body.error.details.reason).toBe("OnlyDefendant");
  });

  it("a present field of the wrong type is 422 VALIDATION_ERROR", async () => {
    for (const v of ["yes", 1, null, [], {}]) {
      const r = await t.post(`/cases/${deliberating}/vote`, { plaintiff_wins: v });
      expect(r.status).toBe(422);
      expectEnvelope(r.body, "VALIDATION_ERROR");
    }
    const name = await t.post("/agent/self-register", { address: t.address(18), name: "x".repeat(65) });
    expect(name.status).toBe(422);
  });

  it("invalid amounts are 400 INVALID_INPUT; a number where a wei string belongs is 422", async () => {
    for (const amount of ["-1", "1.5", "abc", "1e18", "9".repeat(79)]) {
      const r = await t.post("/judges/stake", { address: t.address(16), amount });
      expect(r.status, amount).toBe(amount.length > 78 ? 422 : 400);
    }
    expect((await t.post("/judges/stake", { address: t.address(16), amount: 100 })).status).toBe(422);
  });

  it("pagination out of range is 422; defaults are limit 20, offset 0", async () => {
    for (const q of ["limit=0", "limit=101", "offset=-1", "limit=abc", "limit=2.5"]) {
      const r = await t.get(`/cases?${q}`);
      expect(r.status, q).toBe(422);
      expectEnvelope(r.body, "VALIDATION_ERROR");
    }
    expect((await t.get("/cases")).body).toMatchObject({ limit: 20, offset: 0 });
  });

  it("malformed JSON is 400 INVALID_JSON; a non-object body is 400 INVALID_INPUT", async () => {
    const r = await t.post(`/cases/${deliberating}/vote`, '{"plaintiff_wins": tru');
    expect(r.status).toBe(400);
    expectEnvelope(r.body, "INVALID_JSON");
    for (const raw of ["[]", "true", '"x"', "null"]) {
      const b = await t.post(`/cases/${deliberating}/vote`, raw);
      expect(b.status, raw).toBe(400);
      expectEnvelope(b.body, "INVALID_INPUT");
    }
  });

  it("an oversized body is 413, a non-JSON content type 415", async () => {
    const big = await t.post("/agent/self-register", { address: t.address(18), name: "x".repeat(100_000) });
    expect(big.status).toBe(413);
    expectEnvelope(big.body, "PAYLOAD_TOO_LARGE");
    const res = await fetch(`${t.url}/cases/${deliberating}/vote`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "plaintiff_wins=true",
    });
    expect(res.status).toBe(415);
    expectEnvelope((await res.json()) as never, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("unknown routes are 404 NOT_FOUND and wrong methods 405 with Allow", async () => {
    const r = await t.get("/nope");
    expect(r.status).toBe(404);
    expectEnvelope(r.body, "NOT_FOUND");
    const m = await fetch(`${t.url}/cases/${deliberating}/vote`);
    expect(m.status).toBe(405);
    expect(m.headers.get("allow")).toBe("POST");
    expectEnvelope((await m.json()) as never, "METHOD_NOT_ALLOWED");
    const del = await fetch(`${t.url}/cases`, { method: "DELETE" });
    expect(del.status).toBe(405);
  });
});
