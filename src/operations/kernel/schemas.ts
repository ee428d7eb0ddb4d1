import { LRUCache } from "lru-cache";
import { type Address, getAddress, isAddress } from "viem";
import { z } from "zod";
import { DocketError, type ErrorCode } from "../../errors/errors.js";

import { refProblem } from "../../evidence/cid.js";
import {
  ADDRESS_PATTERN,
  AMOUNT_PATTERN,
  CURSOR_PATTERN,
  EVIDENCE_REF_PATTERN,
  TX_HASH_PATTERN,
} from "../../formats.js";

/**
 * The checksummed form of a well-formed address, or false if its mixed case is not a valid EIP-55
 * checksum. The check hashes the address; the same few addresses come back on every request (a
 * case page read over and over), so answers are remembered, in one bounded cache.
 */
const checksums = new LRUCache<string, Address | false>({ max: 10_000 });
function checksummed(s: string): Address | false {
  let a = checksums.get(s);
  if (a === undefined) {
    a = isAddress(s, { strict: true }) ? getAddress(s) : false;
    checksums.set(s, a);
  }
  return a;
}

/**
 * An address written in one case (0x and lowercase or capital hex, or all in capitals, 0X too): its
 * lowercase form, which EIP-55 leaves unchecked. Any other spelling as it is.
 */
function oneCase(s: string): string {
  const hex = s.slice(2);
  const upper = hex === hex.toUpperCase();
  return (s.startsWith("0x") && (upper || hex === hex.toLowerCase())) || (s.startsWith("0X") && upper)
    ? s.toLowerCase()
    : s;
}

/** An account or contract address; mixed case must carry a valid EIP-55 checksum. Output is checksummed. */
export const address = (description: string) =>
  z
    .string()
    // People paste addresses with spaces around them and type them in capitals (as Etherscan takes
    // them): EIP-55 binds mixed case only, so a one-case address is read as its lowercase.
    .trim()
    .overwrite(oneCase)
    // The pattern before the length: a field's first issue names its code, and an address one digit
    // too long is as malformed (400 INVALID_ADDRESS) as one digit short.
    .regex(new RegExp(ADDRESS_PATTERN), { error: "must be a 0x-prefixed 20-byte hex address" })
    .max(42)
    .refine((s) => checksummed(s) !== false, {
      error: "address checksum is wrong (use all lowercase or the EIP-55 checksummed form)",
      params: { docketCode: "INVALID_ADDRESS" },
    })
    .transform((s) => checksummed(s) as Address)
    .describe(description)
    .meta({ example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });

/** A wei amount: a decimal integer string (JSON numbers cannot hold uint256). */
export const amount = (description: string) =>
  z
    .string()
    .max(78)
    .regex(new RegExp(AMOUNT_PATTERN), { error: 'must be a decimal integer string in wei, e.g. "100000000000000000"' })
    // zod runs refinements even after the regex fails: only judge what the regex accepted.
    .refine((s) => !/^[0-9]{1,78}$/.test(s) || BigInt(s) < 2n ** 256n, {
      error: "amount does not fit in uint256",
      params: { docketCode: "INVALID_INPUT" },
    })
    .describe(description)
    .meta({ example: "100000000000000000" });

/** 0x and 64 hex digits, refused with `error`: a transaction hash, a salt, a reference. */
const hex32 = (error: string) => (description: string) =>
  z.string().regex(new RegExp(TX_HASH_PATTERN), { error }).max(66).describe(description);

export const txHash = hex32("must be a 0x-prefixed 32-byte hex transaction hash");

/**
 * An evidence reference: an IPFS CID, `ipfs://<cid>` or `/ipfs/<cid>` (publish_evidence gives
 * one); anything else is 400 INVALID_INPUT with what is wrong with it.
 */
export const evidenceRef = (description: string) =>
  z
    .string()
    .regex(new RegExp(EVIDENCE_REF_PATTERN), {
      error: "must be an IPFS CID, ipfs://<cid> or /ipfs/<cid> (publish_evidence gives one)",
    })
    .max(128)
    .superRefine((s, ctx) => {
      if (!new RegExp(EVIDENCE_REF_PATTERN).test(s)) return;
      const r = refProblem(s);
      if (typeof r === "string") ctx.addIssue({ code: "custom", message: r, params: { docketCode: "INVALID_INPUT" } });
    })
    .describe(description)
    .meta({ example: "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e" });

/** A 32-byte value in hex (a vote's salt, a payment reference). */
export const bytes32 = hex32("must be 0x followed by 64 hex digits (32 bytes)");

/** The optional signer every write accepts: when given, the call is simulated as that account first. */
export const from = address(
  "Optional: the address that will sign. When given, docket simulates the call as this account first and answers CONTRACT_REVERT with the contract's reason instead of a transaction that would fail.",
).optional();

/** Output shape of every write. */
export const unsignedTxResponse = z.object({
  unsigned_tx: z.object({
    to: z.string().describe("Contract address"),
    value: z.string().describe("Wei to send, decimal string"),
    data: z.string().describe("Call data, 0x-prefixed hex"),
    chainId: z.number().int().describe("Chain to sign for"),
  }),
  instructions: z.string().describe("How to sign and broadcast it with your own wallet"),
});

export const paginationInput = {
  limit: z.number().int().min(1).max(100).default(20).describe("Page size, 1 to 100 (default 20)"),
  offset: z.number().int().min(0).max(1_000_000_000).default(0).describe("Items to skip (default 0)"),
};

/** Paging for a scan of the open cases, 100 a page unless asked: `limit` says what a page holds. */
export function scanPagination(limit: string) {
  return { limit: paginationInput.limit.default(100).describe(limit), offset: paginationInput.offset };
}

/** Keyset paging (a list of the index at any size): `limit`, and `cursor` as the last page's `nextCursor` gave it. */
export function keysetPagination(limit: string) {
  return {
    limit: paginationInput.limit.default(100).describe(limit),
    cursor: z
      .string()
      .max(64)
      .regex(new RegExp(CURSOR_PATTERN), "not a cursor: pass a page's nextCursor as it came")
      .optional()
      .describe("Where to read on: the previous page's `nextCursor`, as it came (none: the first page)"),
  };
}

/**
 * The code a value breaking one of the formats gets (validationError), by the format's pattern; any
 * other broken constraint is 422 VALIDATION_ERROR. OpenAPI reads it to know which fields can be 400.
 */
export const PATTERN_CODES: Readonly<Record<string, ErrorCode>> = {
  [ADDRESS_PATTERN]: "INVALID_ADDRESS",
  [AMOUNT_PATTERN]: "INVALID_INPUT",
  [TX_HASH_PATTERN]: "INVALID_INPUT",
  [EVIDENCE_REF_PATTERN]: "INVALID_INPUT",
  [CURSOR_PATTERN]: "INVALID_INPUT",
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const k of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/**
 * Maps zod issues to the documented codes: a missing required field is 400 MISSING_FIELD; a
 * malformed address 400 INVALID_ADDRESS; a malformed amount 400 INVALID_INPUT; a present field of
 * the wrong type or breaking a constraint 422 VALIDATION_ERROR.
 */
export function validationError(err: z.ZodError, input: unknown): DocketError {
  const issues = err.issues.map((i) => {
    const field = i.path.map(String).join(".") || "(body)";
    let code: ErrorCode = "VALIDATION_ERROR";
    const value = valueAt(input, i.path);
    if (i.code === "invalid_type" && value === undefined) code = "MISSING_FIELD";
    else if (i.code === "invalid_format" && "pattern" in i && PATTERN_CODES[String(i.pattern).slice(1, -1)])
      code = PATTERN_CODES[String(i.pattern).slice(1, -1)] as ErrorCode;
    else if (i.code === "custom" && i.params?.docketCode) code = i.params.docketCode as ErrorCode;
    return { field, code, message: i.message };
  });
  // One issue per field (the first), then the most basic problem first: missing, malformed, the rest.
  for (let k = issues.length - 1; k >= 0; k--) {
    const f = (issues[k] as { field: string }).field;
    if (issues.findIndex((x) => x.field === f) !== k) issues.splice(k, 1);
  }
  const rank: ErrorCode[] = ["MISSING_FIELD", "INVALID_ADDRESS", "INVALID_INPUT", "VALIDATION_ERROR"];
  issues.sort((a, b) => rank.indexOf(a.code) - rank.indexOf(b.code));
  const first = issues[0] ?? { field: "(body)", code: "VALIDATION_ERROR" as ErrorCode, message: "invalid input" };
  const lead =
    first.code === "MISSING_FIELD"
      ? `missing required field '${first.field}'`
      : `invalid '${first.field}': ${first.message}`;
  return new DocketError(first.code, lead, { issues });
}

/** A JSON Schema node, as zod writes it. */
export type JsonSchema = Record<string, unknown>;

/**
 * zod's JSON Schema of a schema, for OpenAPI 3.1 and MCP tools alike: without the `$schema`
 * dialect line (OpenAPI embeds schemas; Gemini's function declarations refuse it), and with
 * anything JSON Schema cannot say left open rather than thrown.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    // zod bounds every int by ±2^53; said in a schema, Swagger shows -9007199254740991 as the example
    // of a count or a time. Only bounds a schema sets itself are worth stating.
    override: ({ jsonSchema: s }) => {
      if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
      if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
    },
  }) as JsonSchema;
  return rest;
}
