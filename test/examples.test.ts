import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestDocket } from "./support/docket.js";

const run = promisify(execFile);

/** The README's curl walk-through signs with examples/sign.ts: it must keep working. */
describe("examples/sign.ts", () => {
  let t: TestDocket;
  beforeAll(async () => {
    t = await TestDocket.start();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("signs and broadcasts a vote piped from docket, and the vote shows", async () => {
    const caseAddr = t.devnet.seed?.cases.find((c) => c.state === "Deliberating")?.address as string;
    const before = (await t.get(`/cases/${caseAddr}`)).body.case;
    const judge = before.judges[1] as string;
    const account = t.devnet.accounts.find((a) => a.address === judge);
    const res = await fetch(`${t.url}/cases/${caseAddr}/vote`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ plaintiff_wins: true, from: judge }),
    });
    const child = run("npx", ["tsx", "examples/sign.ts"], {
      env: { ...process.env, PRIVATE_KEY: account?.privateKey, DOCKET_URL: t.url },
    });
    child.child.stdin?.end(await res.text());
    const { stdout } = await child;
    expect(JSON.parse(stdout)).toMatchObject({ status: "success" });
    const after = (await t.get(`/cases/${caseAddr}`)).body.case;
    expect(after.votesForPlaintiff).toBe(before.votesForPlaintiff + 1);
  });
});
