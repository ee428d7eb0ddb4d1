import { describe, expect, it } from "vitest";
import { DocketError } from "../../src/errors/errors.js";
import {
  decodePaymentHeader,
  decodePaymentResponse,
  encodeBase64Json,
  encodePaymentHeader,
  encodePaymentResponse,
  networkOf,
} from "../../src/payments/x402.js";

/** The x402 v1 header codec, without a chain. */
describe("x402 headers", () => {
  const hash = `0x${"Ab".repeat(32)}` as const;

  it("names chains as x402 v1 does, and any other by CAIP-2", () => {
    expect(networkOf(8453)).toBe("base");
    expect(networkOf(84532)).toBe("base-sepolia");
    expect(networkOf(31337)).toBe("eip155:31337");
    expect(networkOf(1)).toBe("eip155:1");
  });

  it("X-PAYMENT round-trips; the hash comes back lowercase; CAIP-2 is accepted for a named chain", () => {
    const header = encodePaymentHeader(hash, 31337);
    expect(JSON.parse(Buffer.from(header, "base64").toString())).toEqual({
      x402Version: 1,
      scheme: "exact",
      network: "eip155:31337",
      payload: { txHash: hash },
    });
    expect(decodePaymentHeader(header, 31337)).toEqual({ txHash: hash.toLowerCase(), network: "eip155:31337" });
    const caip = encodeBase64Json({
      x402Version: 1,
      scheme: "exact",
      network: "eip155:8453",
      payload: { txHash: hash },
    });
    expect(decodePaymentHeader(caip, 8453).network).toBe("eip155:8453");
    expect(decodePaymentHeader(encodePaymentHeader(hash, 8453), 8453).network).toBe("base");
    // URL-safe base64 is accepted too.
    const withNote = {
      x402Version: 1,
      scheme: "exact",
      network: "eip155:31337",
      payload: { txHash: hash },
      note: "~~~???>>>",
    };
    const urlSafe = Buffer.from(JSON.stringify(withNote)).toString("base64url");
    expect(urlSafe).toMatch(/[-_]/);
    expect(decodePaymentHeader(urlSafe, 31337).txHash).toBe(hash.toLowerCase());
  });

  it("refuses anything else with PAYMENT_MALFORMED", () => {
    const bad = [
      "",
      "a".repeat(5000),
      "not base64!",
      Buffer.from("{").toString("base64"),
      encodeBase64Json(null),
      encodeBase64Json({ x402Version: 1, scheme: "exact", network: "eip155:31337", payload: {} }),
      encodeBase64Json({ x402Version: 1, scheme: "exact", network: "eip155:1", payload: { txHash: hash } }),
    ];
    for (const h of bad) {
      let caught: unknown;
      try {
        decodePaymentHeader(h, 31337);
      } catch (err) {
        caught = err;
      }
      expect(caught, h.slice(0, 40)).toBeInstanceOf(DocketError);
      expect((caught as DocketError).code).toBe("PAYMENT_MALFORMED");
      expect((caught as DocketError).status).toBe(400);
    }
  });

  it("X-PAYMENT-RESPONSE round-trips", () => {
    const s = {
      success: true,
      transaction: hash,
      network: "eip155:31337",
      payer: "0x0000000000000000000000000000000000000001",
    };
    expect(decodePaymentResponse(encodePaymentResponse(s))).toEqual(s);
  });
});
