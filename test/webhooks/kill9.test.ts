import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../../src/devnet/devAccounts.js";
import * as kit from "../contracts/helpers.js";
import { chainEnv, type DocketProcess, spawnDocket, until } from "../support/index.js";
import { Receiver } from "./receiver.js";

/**
 * kill -9 in the middle of a delivery (docs/webhooks.md#retries): `node bin/docket.js start` on a
 * chain of its own (anvil's chain id: http deliveries allowed), its index and its webhooks on PGlite
 * in a directory, delivering to a real receiver that holds the requests open without answering; the
 * docket is killed with SIGKILL while one is in flight and started again on the same directory. Every
 * delivery arrives (the one cut short again, with the same webhook-id, so the receiver can drop the
 * repeat), and those of cases filed after the restart too.
 */
describe("webhooks survive kill -9 mid-delivery", () => {
  let c: kit.CourtDeployment;
  let dir: string;
  let rx: Receiver;
  let docket: DocketProcess | undefined;
  const owner = devAccount(1);

  beforeAll(async () => {
    c = await kit.bootCourt(kit.P);
    expect(kit.actor(c, 1).account.address).toBe(owner.address);
    dir = mkdtempSync(join(tmpdir(), "docket-hooks-kill9-"));
    rx = await Receiver.start();
  }, 120_000);
  afterAll(async () => {
    await docket?.stop();
    await rx?.close();
    await c?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({
    ...chainEnv(c.devnet),
    INDEX_DIR: dir,
    LOG_LEVEL: "error",
    EVENT_POLL_MS: "100",
    WEBHOOKS_POLL_MS: "100",
    WEBHOOKS_ALLOW_PRIVATE: "true",
  });

  async function signed(url: string) {
    const nonce = (await (await fetch(`${url}/webhooks/nonce?address=${owner.address}`)).json()) as { message: string };
    return { message: nonce.message, signature: await owner.account.signMessage({ message: nonce.message }) };
  }
  async function post(url: string, path: string, body: unknown) {
    const r = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as { id: string; secret: string; status: string } };
  }
  const file = (i: number) =>
    kit.fileCase(c, kit.actor(c, 1), kit.actor(c, 2).account.address, { claim: `case ${i}: never delivered` });

  it("loses no delivery, and repeats the one cut short under its webhook-id", async () => {
    docket = await spawnDocket(env());
    const made = await post(docket.url, "/webhooks", { ...(await signed(docket.url)), url: rx.url, reminders: [] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    rx.secret = made.body.secret;
    const verified = await post(docket.url, `/webhooks/${made.body.id}/verify`, await signed(docket.url));
    expect(verified.body.status, JSON.stringify(verified.body)).toBe("active");

    // The receiver takes requests and never answers; docket dies with one in flight.
    rx.mode = "hang";
    const before: string[] = [];
    for (let i = 0; i < 3; i++) before.push((await file(i)).caseAddr);
    await until("a delivery in flight", async () => rx.seen.some((d) => d.answered === "hung"), 30_000);
    const cut = rx.seen.filter((d) => d.answered === "hung").map((d) => d.id);
    docket.proc.kill("SIGKILL");
    await new Promise<void>((r) =>
      docket?.proc.exitCode !== null || docket?.proc.signalCode !== null ? r() : docket?.proc.once("exit", () => r()),
    );

    rx.mode = "up";
    docket = await spawnDocket(env());
    const after: string[] = [];
    for (let i = 3; i < 5; i++) after.push((await file(i)).caseAddr);
    const filed = () => new Set(rx.taken.filter((d) => d.type === "case.filed").map((d) => d.data.case as string));
    await until(
      "every case's filing delivered",
      async () => [...before, ...after].every((a) => filed().has(a)),
      60_000,
    );
    // Nothing sent is lost: every delivery the receiver was sent, it took in the end.
    await until(
      "every delivery taken",
      async () => {
        const taken = new Set(rx.taken.map((d) => d.id));
        return rx.seen.filter((d) => d.type !== "webhook.verify").every((d) => taken.has(d.id));
      },
      30_000,
    );
    // The one cut short came again, under the same webhook-id, and verified.
    for (const id of cut) {
      const again = rx.seen.filter((d) => d.id === id);
      expect(again.length).toBeGreaterThanOrEqual(2);
      expect(again.some((d) => d.answered === 200 && d.verified)).toBe(true);
    }
    expect(rx.seen.every((d) => d.verified)).toBe(true);
  }, 240_000);
});
