import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disputeCaseAbi } from "../../src/chain/abi/generated.js";
import { loadConfig } from "../../src/config.js";
import { png } from "../../src/devnet/png.js";
import { rawCid } from "../../src/evidence/cid.js";
import { type Docket, startServer } from "../../src/server.js";
import { externalChainEnv, TestDocket } from "../support/index.js";

const MAX = 300_000;

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
type Json = any;
const json = async (r: Response): Promise<Json> => r.json();

/**
 * Evidence over HTTP, against a docket on its own seeded dev chain: publish (raw body, multipart,
 * JSON), read back byte for byte with the headers that keep user bytes inert in a browser, the
 * limits (size, media type, uploads per minute), references refused at every door, and a case's
 * evidence read in one call after a party submits what it published (signed and mined).
 */
describe("evidence over HTTP", () => {
  let t: TestDocket;
  let limited: Docket;
  const upload = (body: string | Uint8Array, type: string, url = t.url, query = "") =>
    fetch(`${url}/evidence${query}`, { method: "POST", headers: { "content-type": type }, body });

  beforeAll(async () => {
    t = await TestDocket.shared({ EVIDENCE_MAX_BYTES: String(MAX) });
    limited = await startServer(loadConfig(externalChainEnv(t.devnet, { EVIDENCE_UPLOADS_PER_MINUTE: "2" })));
  });
  afterAll(async () => {
    await Promise.all([t?.close(), limited?.close()]);
  });

  it("a text upload answers its CID (raw leaf: sha2-256 of the bytes) and its ERC-1497 document; the same bytes, the same CID", async () => {
    const r = await upload(
      "Parcel 7 never arrived.",
      "text/plain; charset=utf-8",
      t.url,
      "?name=Statement&description=Mine",
    );
    expect(r.status).toBe(200);
    const body = await json(r);
    const cid = rawCid("Parcel 7 never arrived.").toString();
    expect(body).toMatchObject({ cid, uri: `ipfs://${cid}`, size: 23, mediaType: "text/plain" });
    expect(body.document.content).toEqual({
      name: "Statement",
      description: "Mine",
      fileURI: `/ipfs/${cid}`,
      fileHash: cid,
      fileTypeExtension: "txt",
      mediaType: "text/plain",
      size: 23,
    });
    const doc = await fetch(`${t.url}/evidence/${body.document.cid}`);
    expect(await json(doc)).toEqual(body.document.content);
    const again = await json(
      await upload("Parcel 7 never arrived.", "text/plain", t.url, "?name=Statement&description=Mine"),
    );
    expect(again).toEqual(body);
  });

  it("a PNG (multipart) and a two-chunk file (raw body) come back byte-identical, with ETag = CID and immutable caching", async () => {
    const image = png(16, 16, (x, y) => [x * 16, y * 16, 128]);
    const form = new FormData();
    form.append("file", new Blob([image], { type: "image/png" }), "photo.png");
    form.append("name", "Photo");
    const r = await fetch(`${t.url}/evidence`, { method: "POST", body: form });
    expect(r.status).toBe(200);
    const { cid, mediaType } = await json(r);
    expect(mediaType).toBe("image/png");
    const back = await fetch(`${t.url}/evidence/${cid}`);
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer())).toEqual(image);
    expect(back.headers.get("content-type")).toBe("image/png");
    expect(back.headers.get("etag")).toBe(`"${cid}"`);
    expect(back.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(back.headers.get("content-disposition")).toBeNull();

    // Over one 256 KiB chunk: a UnixFS DAG (dag-pb root, raw leaves), not a raw block.
    const big = Buffer.from("0123456789abcdef".repeat(17_000));
    const b = await json(await upload(big, "text/plain"));
    expect(b.cid).toMatch(/^bafybei/);
    expect(b.cid).not.toBe(rawCid(big).toString());
    const bigBack = await fetch(`${t.url}/evidence/ipfs%3A%2F%2F${b.cid}`);
    expect(Buffer.from(await bigBack.arrayBuffer())).toEqual(big);
  });

  it("an HTML upload is refused (415); HTML bytes sent as text/plain are served inert: text/plain, nosniff, a sandboxing CSP", async () => {
    const html = "<html><script>alert(document.cookie)</script></html>";
    const refused = await upload(html, "text/html");
    expect(refused.status).toBe(415);
    expect((await json(refused)).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const { cid } = await json(await upload(html, "text/plain"));
    const r = await fetch(`${t.url}/evidence/${cid}`);
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    // Anything but plain text and images is an attachment.
    // (A JSON body is the JSON form of the input: a JSON file goes as `content`, base64 or multipart.)
    const data = (await t.post("/evidence", { content: '{"a":1}', mediaType: "application/json" })).body;
    const j = await fetch(`${t.url}/evidence/${data.cid}`);
    expect(j.headers.get("content-disposition")).toBe(`attachment; filename="${data.cid}"`);
    // A PDF opens in the browser, sandboxed, named as a PDF.
    const pdf = await json(
      await upload(Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"), "application/pdf"),
    );
    const p = await fetch(`${t.url}/evidence/${pdf.cid}`);
    expect(p.headers.get("content-type")).toBe("application/pdf");
    expect(p.headers.get("content-disposition")).toBe(`inline; filename="${pdf.cid}.pdf"`);
    expect(p.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    // Bytes that are not what they claim to be are refused too.
    expect((await upload(Buffer.from([0, 1, 2, 3]), "image/png")).status).toBe(415);
  });

  it("an upload over EVIDENCE_MAX_BYTES is 413, however it is sent", async () => {
    const big = Buffer.alloc(MAX + 1, 0x61);
    const raw = await upload(big, "text/plain");
    expect(raw.status).toBe(413);
    expect((await json(raw)).error.code).toBe("PAYLOAD_TOO_LARGE");
    const form = new FormData();
    form.append("file", new Blob([big], { type: "text/plain" }), "big.txt");
    expect((await fetch(`${t.url}/evidence`, { method: "POST", body: form })).status).toBe(413);
    expect((await t.post("/evidence", { contentBase64: big.toString("base64"), mediaType: "text/plain" })).status).toBe(
      413,
    );
  });

  it("uploads per client are limited (EVIDENCE_UPLOADS_PER_MINUTE): the third is 429", async () => {
    expect((await upload("one", "text/plain", limited.url)).status).toBe(200);
    expect((await upload("two", "text/plain", limited.url)).status).toBe(200);
    const third = await upload("three", "text/plain", limited.url);
    expect(third.status).toBe(429);
    expect((await json(third)).error.code).toBe("RATE_LIMITED");
  });

  it("a reference that is not a CID is 400 INVALID_INPUT wherever one is taken", async () => {
    const active = t.devnet.seed?.cases.find((c) => c.label === "active")?.address as Address;
    const bad = [
      "hello world <script>",
      "bafy-x",
      "https://evil.example/evidence.png",
      `ipfs://${rawCid("x")}/secret`,
      "bafkreinotacidatalldecodingfails00000000000000000000000000",
    ];
    for (const ref of bad) {
      const filing = await t.post("/cases", {
        plaintiff: t.address(1),
        defendant: t.address(2),
        claimDescription: "x",
        evidenceIpfsHash: ref,
      });
      const submit = await t.post(`/cases/${active}/evidence`, { evidenceIpfsHash: ref });
      const read = await t.get(`/evidence/${encodeURIComponent(ref)}`);
      for (const [what, r] of [
        ["file_case", filing],
        ["submit_evidence", submit],
        ["get_evidence", read],
      ] as const) {
        expect(r.status, `${what} ${ref}`).toBe(400);
        expect(r.body.error.code, `${what} ${ref}`).toBe("INVALID_INPUT");
      }
    }
    // A well-formed CID nobody published: 404, not an error of docket's.
    const missing = await t.get(`/evidence/${rawCid("nobody published this")}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("EVIDENCE_NOT_FOUND");
  });

  it("an item that cannot be read says why: a CID nobody published is not found, a reference that is no CID is invalid", async () => {
    // Filed straight on chain (the contract checks only the length), so docket never saw either.
    const c = await t.fileOnChain(15, 16, "A claim whose evidence was never published.");
    await t.write(`/cases/${c}/respond`, { from: t.address(16) }, 16);
    await t.actor(16).write({
      address: c,
      abi: disputeCaseAbi,
      functionName: "submitEvidence",
      args: ["see the attached email"],
    });
    const { evidence } = (await t.get(`/cases/${c}/evidence`)).body;
    expect(evidence[0]).toMatchObject({
      filing: true,
      cid: rawCid("A claim whose evidence was never published.").toString(),
      available: false,
      unavailable: { reason: "not-found" },
    });
    expect(evidence[1]).toMatchObject({
      role: "defendant",
      reference: "see the attached email",
      cid: null,
      available: false,
      unavailable: { reason: "invalid-reference" },
    });
  });

  it("a party publishes, submits the CID (signed, mined) and get_case_evidence shows it after the filing, with the text framed as its data", async () => {
    const active = t.devnet.seed?.cases.find((c) => c.label === "active")?.address as Address;
    const before = (await t.get(`/cases/${active}/evidence`)).body.evidence;
    const published = await t.post("/evidence", {
      content: "The crate was dented before pick-up: see the carrier's own log.",
      mediaType: "text/plain",
      name: "Carrier log",
    });
    const defendant = (await t.get(`/cases/${active}`)).body.case.defendant as Address;
    const index = t.devnet.accounts.findIndex((a) => a.address === defendant);
    await t.write(
      `/cases/${active}/evidence`,
      { evidenceIpfsHash: published.body.document.uri, from: defendant },
      index,
    );
    const { evidence } = (await t.get(`/cases/${active}/evidence`)).body;
    expect(evidence).toHaveLength(before.length + 1);
    expect(evidence[0]).toMatchObject({ filing: true, role: "plaintiff", available: true });
    const last = evidence.at(-1);
    expect(last).toMatchObject({
      filing: false,
      role: "defendant",
      submitter: defendant,
      reference: published.body.document.uri,
      cid: published.body.document.cid,
      available: true,
      mediaType: "application/json",
    });
    expect(last.document.file).toMatchObject({ cid: published.body.cid, mediaType: "text/plain", available: true });
    expect(last.document.file.text).toContain("The crate was dented before pick-up");
    expect(last.document.file.text).toMatch(/^\[evidence [0-9a-f]{24} begins: quoted from the defendant/);
    // Every seeded item of this case is readable, and the image is served by link.
    const image = evidence.find(
      (e: { document?: { file?: { mediaType?: string } } }) => e.document?.file?.mediaType === "image/png",
    );
    expect(image.document.file.text).toBeUndefined();
    expect((await fetch(`${t.url}${image.document.file.link}`)).headers.get("content-type")).toBe("image/png");
    for (const e of evidence) expect(e.available, JSON.stringify(e)).toBe(true);
  });
});
