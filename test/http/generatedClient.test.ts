import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import createClient from "openapi-fetch";
import { type Address, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { TestDocket } from "../support/docket.js";
import type { paths } from "./generated/docket.js";

const run = promisify(execFile);

/**
 * A client generated from the served /openapi.json, as docs/api.md says (openapi-typescript for the
 * types, openapi-fetch for the calls), files a paid case end to end: the 402, the fee paid as it says
 * by a dev wallet, the retry with X-PAYMENT, the filing signed and broadcast, the case read back.
 * `./generated/docket.d.ts` is what openapi-typescript makes of the served document (checked below;
 * `npx vitest run test/http/generatedClient.test.ts -u` rewrites it), so `npm run check` type-checks
 * this file against the document as served.
 */
describe("a client generated from /openapi.json files a paid case", () => {
  let t: TestDocket;
  let dir: string;
  const PLAINTIFF = 16;
  const DEFENDANT = 18;

  beforeAll(async () => {
    t = await TestDocket.shared();
    dir = await mkdtemp(join(tmpdir(), "docket-client-"));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the committed types are what `npx openapi-typescript <docket>/openapi.json` generates", async () => {
    const out = join(dir, "docket.d.ts");
    await run("node_modules/.bin/openapi-typescript", [`${t.url}/openapi.json`, "-o", out]);
    await expect(await readFile(out, "utf8")).toMatchFileSnapshot("./generated/docket.d.ts");
  });

  it("POST /cases: 402, pay as accepts[0] says, retry with X-PAYMENT, sign the filing, read the case", async () => {
    const doc = (await t.get("/openapi.json")).body as { servers: { url: string }[] };
    const client = createClient<paths>({ baseUrl: doc.servers[0]?.url });
    const body = {
      plaintiff: t.address(PLAINTIFF),
      defendant: t.address(DEFENDANT),
      claimDescription: `Generated client's claim ${Date.now()}`,
      evidenceIpfsHash: "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
    };

    const first = await client.POST("/cases", { body });
    expect(first.response.status).toBe(402);
    const required = first.error;
    if (!required || !("accepts" in required)) throw new Error(`no payment requirements: ${JSON.stringify(required)}`);
    expect(required.x402Version).toBe(1);
    // No proof was refused: no v1 error reason; docket's code is in its envelope.
    expect(required.error).toBeUndefined();
    expect(required.docketError.code).toBe("PAYMENT_REQUIRED");
    const [terms] = required.accepts;
    if (!terms) throw new Error("accepts is empty");
    expect(terms.payTo).toBe(t.chain.factory);
    expect(terms.extra.unsigned_tx.value).toBe(terms.maxAmountRequired);

    // The dev wallet pays exactly as told, and the proof is the payment's hash, as X-PAYMENT says.
    const paid = await t.actor(PLAINTIFF).send(terms.extra.unsigned_tx as { to: Address; value: string; data: Hex });
    expect(paid.status).toBe("success");
    const proof = {
      x402Version: 1,
      scheme: terms.scheme,
      network: terms.network,
      payload: { txHash: paid.transactionHash },
    };
    const xPayment = Buffer.from(JSON.stringify(proof)).toString("base64");

    const second = await client.POST("/cases", { body, params: { header: { "X-PAYMENT": xPayment } } });
    expect(second.response.status, JSON.stringify(second.error)).toBe(200);
    const filing = second.data;
    if (!filing || !("unsigned_tx" in filing)) throw new Error("no filing transaction");
    expect(filing.payment).toMatchObject({ txHash: paid.transactionHash, payer: body.plaintiff });
    const settlement = JSON.parse(
      Buffer.from(second.response.headers.get("X-PAYMENT-RESPONSE") ?? "", "base64").toString(),
    );
    expect(settlement).toMatchObject({ success: true, transaction: paid.transactionHash });

    const receipt = await t.actor(PLAINTIFF).send(filing.unsigned_tx as { to: Address; value: string; data: Hex });
    const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
    if (!filed) throw new Error("no CaseFiled in the filing's receipt");

    const read = await client.GET("/cases/{address}", { params: { path: { address: filed.args.caseAddr } } });
    expect(read.response.status).toBe(200);
    expect(read.data?.case).toMatchObject({
      address: filed.args.caseAddr,
      state: "Summoned",
      plaintiff: body.plaintiff,
      defendant: body.defendant,
      claimDescription: body.claimDescription,
      evidenceIpfsHash: body.evidenceIpfsHash,
    });

    // The same proof again: the generated client sees the declared 409.
    const again = await client.POST("/cases", { body, params: { header: { "X-PAYMENT": xPayment } } });
    expect(again.response.status).toBe(409);
    const conflict = again.error?.error;
    expect(typeof conflict === "object" && conflict.code).toBe("PAYMENT_ALREADY_USED");
  });
});
