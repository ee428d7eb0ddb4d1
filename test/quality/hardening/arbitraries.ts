import fc from "fast-check";
import { CID } from "multiformats/cid";
import * as Digest from "multiformats/hashes/digest";
import { type Address, getAddress, toHex } from "viem";
import type { z } from "zod";
import type { Operation } from "../../../src/operations/kernel/operation.js";

/**
 * Generators of malformed (and some valid) docket inputs, derived from the operations' own zod
 * schemas, so an operation added to the registry is fuzzed without touching these tests.
 */

/** Fixed seed, so every run sends the same inputs; FUZZ_SEED replays another, FUZZ_SCALE scales the runs. */
export const SEED = Number(process.env.FUZZ_SEED ?? 7_020_707);
const SCALE = Math.max(0.01, Number(process.env.FUZZ_SCALE ?? 1));
export const scaled = (n: number) => Math.max(1, Math.round(n * SCALE));

/** Addresses (and evidence) the seeded dev chain gives a meaning to. */
export interface World {
  cases: Address[];
  accounts: Address[];
  contracts: Address[];
  /** Evidence references the seed filed, all published to docket's store. */
  cids: string[];
}

/**
 * A long string that prints short: fast-check reports counterexamples with `toStringMethod`, and
 * JSON.stringify (over HTTP and MCP alike) sends the real thing.
 */
export class Huge {
  constructor(
    readonly length: number,
    readonly unit: string,
  ) {}
  toJSON(): string {
    return this.unit.repeat(Math.ceil(this.length / this.unit.length)).slice(0, this.length);
  }
  [fc.toStringMethod](): string {
    return `Huge(${this.length} x ${JSON.stringify(this.unit)})`;
  }
}

// ---------------------------------------------------------------- fields, from the schemas

export type FieldKind =
  | "boolean"
  | "number"
  | "addressList"
  | "address"
  | "txHash"
  | "amount"
  | "cid"
  | "string"
  | "unknown";

export interface FieldInfo {
  name: string;
  kind: FieldKind;
  optional: boolean;
  inPath: boolean;
}

const SAMPLE_ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const SAMPLE_CID = "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e";
const accepts = (schema: z.ZodType, v: unknown) => {
  try {
    return schema.safeParse(v).success;
  } catch {
    return false;
  }
};

/** What kind of value a field takes, found by asking its schema about a few probes. */
function kindOf(schema: z.ZodType): FieldKind {
  if (accepts(schema, true)) return "boolean";
  if (accepts(schema, 20)) return "number";
  if (accepts(schema, [SAMPLE_ADDRESS, SAMPLE_ADDRESS, SAMPLE_ADDRESS])) return "addressList";
  const text = !accepts(schema, "hello");
  if (text && accepts(schema, SAMPLE_CID)) return "cid";
  if (text && accepts(schema, SAMPLE_ADDRESS)) return "address";
  if (text && accepts(schema, `0x${"ab".repeat(32)}`)) return "txHash";
  if (text && accepts(schema, "1000")) return "amount";
  if (accepts(schema, "hello")) return "string";
  return "unknown";
}

export function pathParams(op: Operation): string[] {
  return [...op.http.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);
}

/** The operation's input fields: kind, optionality and whether the path carries it. */
export function fieldsOf(op: Operation): FieldInfo[] {
  const inPath = new Set(pathParams(op));
  return Object.entries(op.input.shape as Record<string, z.ZodType>).map(([name, schema]) => ({
    name,
    kind: kindOf(schema),
    optional: accepts(schema, undefined),
    inPath: inPath.has(name),
  }));
}

// ---------------------------------------------------------------- valid values

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => toHex(b));

export function validAddress(w: World): fc.Arbitrary<string> {
  const random = bytes(20).chain((hex) => fc.constantFrom(hex, getAddress(hex)));
  return fc.oneof(
    { arbitrary: fc.constantFrom(...w.cases), weight: 3 },
    { arbitrary: fc.constantFrom(...w.accounts), weight: 3 },
    { arbitrary: fc.constantFrom(...w.contracts), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        "0x0000000000000000000000000000000000000000",
        "0x0000000000000000000000000000000000000001",
        "0x0000000000000000000000000000000000000009",
        "0xffffffffffffffffffffffffffffffffffffffff",
      ),
      weight: 1,
    },
    { arbitrary: random, weight: 2 },
  );
}

/** An IPFS CID (v1 raw or dag-pb, or v0) of a random sha2-256 digest: well-formed, published nowhere. */
const unknownCid = fc
  .tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom("raw", "dag-pb", "v0"))
  .map(([hash, form]) => {
    const digest = Digest.create(0x12, hash);
    if (form === "v0") return CID.createV0(digest).toString();
    return CID.createV1(form === "raw" ? 0x55 : 0x70, digest).toString();
  });

/** An evidence reference: one the seed published (bare or as ipfs:// or /ipfs/), or one nobody did. */
export function validCid(w: World): fc.Arbitrary<string> {
  const seeded = fc.constantFrom(...w.cids);
  return fc.oneof(
    { arbitrary: seeded, weight: 4 },
    { arbitrary: seeded.map((c) => (c.startsWith("ipfs://") ? c : `ipfs://${c}`)), weight: 1 },
    { arbitrary: seeded.map((c) => `/ipfs/${c.replace(/^ipfs:\/\//, "")}`), weight: 1 },
    { arbitrary: unknownCid, weight: 3 },
  );
}

/** References that name no CID: cut, grown, respelled, wrapped in a URL or a path, or no CID at all. */
export function badCid(w: World): fc.Arbitrary<string> {
  const cid = validCid(w).map((c) => c.replace(/^(ipfs:\/\/|\/ipfs\/)/, ""));
  return fc.oneof(
    fc.tuple(cid, fc.integer({ min: 1, max: 20 })).map(([c, n]) => c.slice(0, -n)),
    fc.tuple(cid, fc.constantFrom("a", "0", "!", " ", "é", "\u0000")).map(([c, x]) => `${c}${x}`),
    cid.map((c) => c.toUpperCase().replace(/^B/, "b")),
    cid.map((c) => `https://ipfs.io/ipfs/${c}`),
    cid.map((c) => `ipfs://${c}/file.txt`),
    cid.map((c) => `/ipns/${c}`),
    cid.map((c) => ` ${c}`),
    cid.map((c) => `${c}?x=1`),
    cid.map((c) => `ipfs://ipfs://${c}`),
    cid.map((c) => c.repeat(3)),
    fc.constantFrom("", "ipfs://", "/ipfs/", "bafy", "Qm", "b", "z", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
  );
}

const validAmount = fc.oneof(
  fc.constantFrom("0", "1", "1000", "10000000000000000", "100000000000000000", "1000000000000000000"),
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String),
);

function validValue(kind: FieldKind, w: World): fc.Arbitrary<unknown> {
  switch (kind) {
    case "boolean":
      return fc.boolean();
    case "number":
      return fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 1_000_000_000 }));
    case "addressList":
      return fc.array(validAddress(w), { minLength: 3, maxLength: 5 });
    case "address":
      return validAddress(w);
    case "txHash":
      return bytes(32);
    case "amount":
      return validAmount;
    case "cid":
      return validCid(w);
    case "string":
      return fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------- malformed values

/** An address with the case of one of its letters flipped: valid hex, wrong EIP-55 checksum. */
export function wrongChecksum(w: World): fc.Arbitrary<string> {
  return fc
    .tuple(validAddress(w), fc.nat())
    .filter(([a]) => /[a-fA-F]/.test(a.slice(2)))
    .map(([a, n]) => {
      const c = getAddress(a);
      const letters = [...c.slice(2)].map((ch, i) => (/[a-fA-F]/.test(ch) ? i + 2 : -1)).filter((i) => i >= 0);
      const at = letters[n % letters.length] as number;
      const ch = c[at] as string;
      const flipped = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
      return c.slice(0, at) + flipped + c.slice(at + 1);
    })
    .filter((s) => s !== s.toLowerCase() && s !== getAddress(s));
}

const hexChars = fc.constantFrom(..."0123456789abcdefABCDEF");
const hex = (min: number, max: number) => fc.string({ unit: hexChars, minLength: min, maxLength: max });

export function badHex(w: World): fc.Arbitrary<string> {
  return fc.oneof(
    hex(0, 39).map((h) => `0x${h}`),
    hex(41, 80).map((h) => `0x${h}`),
    hex(40, 40).map((h) => h),
    // A capital 0X prefix: taken only when the whole address is in one case (then it reads as lowercase).
    hex(40, 40)
      .filter((h) => h !== h.toLowerCase() && h !== h.toUpperCase())
      .map((h) => `0X${h}`),
    hex(40, 40).map((h) => `0x0x${h.slice(2)}`),
    fc
      .tuple(hex(39, 39), fc.constantFrom("g", "z", "G", " ", "-", "\u0000", "é", "０", "\u200b"), fc.nat(39))
      .map(([h, bad, i]) => `0x${h.slice(0, i)}${bad}${h.slice(i)}`),
    // (Spaces around an address, and one spelled all in capitals, are taken: the address schema trims them and reads one case as lowercase.)
    validAddress(w).map((a) => `${a.slice(0, 20)} ${a.slice(20)}`),
    bytes(32),
    fc.constantFrom("0x", "0", "", "x", "0xZZ00000000000000000000000000000000000000", "0x-1", "0x1e18"),
  );
}

/** Strings that look like numbers to a human and to no parser docket should have. */
export const nanish = fc.constantFrom(
  "NaN",
  "nan",
  "Infinity",
  "-Infinity",
  "undefined",
  "null",
  "true",
  "false",
  "[]",
  "{}",
  "-1",
  "-0",
  "+1",
  "1.5",
  "1.",
  ".5",
  "1e18",
  "1E3",
  "0x10",
  "0b11",
  "1_000",
  " 1",
  "1 ",
  "",
  "٣",
  "１",
  "1e309",
  "9".repeat(79),
  (2n ** 256n).toString(),
  `${"1".padEnd(78, "0")}0`,
);

const numbersBad = fc.oneof(
  fc.constantFrom(-1, -0, 0, 1.5, 0.1, 101, 1e9 + 1, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308, -1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.double(), // NaN and the infinities become null in JSON
  fc.integer({ min: -1e6, max: -1 }),
);

const hugeString = fc
  .tuple(
    fc.constantFrom(100, 1_000, 5_000, 20_000, 70_000),
    fc.constantFrom("a", "0", "é", "😀", "\u0000", "0x", "\\", '"', "\ud800"),
  )
  .map(([n, u]) => new Huge(n, u));

const oddStrings = fc.oneof(
  fc.string({ maxLength: 30, unit: "binary" }),
  fc.string({ maxLength: 30, unit: "grapheme" }),
  fc.constantFrom("../../etc/passwd", "<script>alert(1)</script>", "' OR 1=1 --", "$" + "{7*7}", "%s%n", "\r\n\r\n"),
);

/** Any JSON value of the wrong shape: the types docket does not take for the field. */
const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  numbersBad,
  oddStrings,
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.constantFrom({ __proto__: null }, { toString: "x" }, [[[[[]]]]], JSON.parse('{"__proto__":{"x":1}}')),
);

/** A wrong value for a field of this kind: wrong types, and near misses of the right type. */
export function badValue(kind: FieldKind, w: World): fc.Arbitrary<unknown> {
  const nearMiss: fc.Arbitrary<unknown>[] = [];
  switch (kind) {
    case "address":
      nearMiss.push(badHex(w), wrongChecksum(w), wrongChecksum(w));
      break;
    case "addressList":
      nearMiss.push(
        fc.array(validAddress(w), { maxLength: 2 }),
        fc.array(validAddress(w), { minLength: 6, maxLength: 12 }),
        fc.array(fc.oneof(validAddress(w), badHex(w), wrongChecksum(w), wrongType), { minLength: 3, maxLength: 5 }),
        validAddress(w),
      );
      break;
    case "txHash":
      nearMiss.push(
        badHex(w),
        hex(63, 63).map((h) => `0x${h}`),
        hex(65, 65).map((h) => `0x${h}`),
      );
      break;
    case "amount":
      nearMiss.push(nanish, nanish, numbersBad);
      break;
    case "cid":
      nearMiss.push(badCid(w), badCid(w), badHex(w));
      break;
    case "number":
      nearMiss.push(numbersBad, numbersBad, nanish);
      break;
    case "boolean":
      nearMiss.push(fc.constantFrom("true", "false", 0, 1, "yes", "TRUE", [], {}));
      break;
    case "string":
      nearMiss.push(fc.constant(""), hugeString, hugeString);
      break;
    default:
      break;
  }
  return fc.oneof(...nearMiss, wrongType, hugeString);
}

// ---------------------------------------------------------------- inputs (argument objects)

export type Mutation =
  | { drop: string }
  | { set: string; value: unknown }
  | { extra: string; value: unknown }
  | { replace: unknown };

const extraKey = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "", " ", "from", "FROM", "0"),
);

/**
 * The operation's fields as an argument object: a valid-looking base (optional fields sometimes
 * left out) and 0 to 3 mutations (a field dropped, set to a bad value, an extra field, or the whole
 * object replaced by another JSON value). `pathFields` says whether path parameters belong in it
 * (MCP: yes; an HTTP body: no).
 */
export function inputArb(
  op: Operation,
  w: World,
  opts: { pathFields: boolean; mutations?: { min: number; max: number } },
): fc.Arbitrary<{ base: Record<string, unknown>; mutations: Mutation[] }> {
  const fields = fieldsOf(op).filter((f) => opts.pathFields || !f.inPath);
  const base = fc.record(
    Object.fromEntries(
      fields.map((f) => [
        f.name,
        f.optional ? fc.option(validValue(f.kind, w), { nil: undefined }) : validValue(f.kind, w),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, unknown>>;
  const names = fields.map((f) => f.name);
  const field = names.length > 0 ? fc.constantFrom(...names) : fc.constant("address");
  const kindOfField = (name: string) => fields.find((f) => f.name === name)?.kind ?? "unknown";
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { arbitrary: field.map((name) => ({ drop: name })), weight: 3 },
    {
      arbitrary: field.chain((name) => badValue(kindOfField(name), w).map((value) => ({ set: name, value }))),
      weight: 8,
    },
    {
      arbitrary: fc.tuple(extraKey, fc.jsonValue({ maxDepth: 2 })).map(([k, v]) => ({ extra: k, value: v })),
      weight: 2,
    },
    {
      arbitrary: fc
        .oneof(
          fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
          fc.string(),
          fc.double(),
          fc.boolean(),
          fc.constant(null),
        )
        .map((v) => ({ replace: v })),
      weight: 1,
    },
  );
  const { min, max } = opts.mutations ?? { min: 0, max: 3 };
  return fc.record({ base, mutations: fc.array(mutation, { minLength: min, maxLength: max }) });
}

/** The argument object (or other JSON value) a base and its mutations make. */
export function applyMutations(base: Record<string, unknown>, mutations: Mutation[]): unknown {
  let out: unknown = Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined));
  for (const m of mutations) {
    if ("replace" in m) {
      out = m.replace;
      continue;
    }
    if (out === null || typeof out !== "object" || Array.isArray(out)) continue;
    const o = out as Record<string, unknown>;
    // defineProperty, so a key named __proto__ is a field like any other (as JSON.parse makes it).
    if ("drop" in m) delete o[m.drop];
    else
      Object.defineProperty(o, "set" in m ? m.set : m.extra, {
        value: m.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

// ---------------------------------------------------------------- HTTP requests

/** A path segment: `enc` is percent-encoded on the way (the server decodes it back), `raw` goes as is. */
export type Segment = { enc: string } | { raw: string };

export interface HttpCase {
  op: string;
  method: string;
  params: Record<string, Segment>;
  /** A change to the path beyond the parameters. */
  pathMut: string | null;
  query: string | null;
  contentType: string | null;
  encoding: string | null;
  payment: string | null;
  body: { json: unknown } | { raw: string } | { huge: Huge; json: boolean } | null;
  chunked: boolean;
}

/** encodeURIComponent, minus its URIError on lone surrogates. */
export function encode(s: string): string {
  return encodeURIComponent(
    s.replace(/[\ud800-\udfff]/g, (c, i: number, all: string) => {
      const code = c.charCodeAt(0);
      const next = all.charCodeAt(i + 1);
      const prev = all.charCodeAt(i - 1);
      if (code < 0xdc00 && next >= 0xdc00 && next <= 0xdfff) return c;
      if (code >= 0xdc00 && prev >= 0xd800 && prev < 0xdc00) return c;
      return "\ufffd";
    }),
  );
}

/** A path parameter's segment: an address, or for a parameter that takes a CID, a reference. */
export function segmentArb(w: World, kind: FieldKind = "address"): fc.Arbitrary<Segment> {
  const cid = kind === "cid";
  return fc.oneof(
    { arbitrary: (cid ? validCid(w) : validAddress(w)).map((enc) => ({ enc })), weight: 4 },
    { arbitrary: (cid ? badCid(w) : wrongChecksum(w)).map((enc) => ({ enc })), weight: 2 },
    { arbitrary: badHex(w).map((enc) => ({ enc })), weight: 2 },
    { arbitrary: fc.string({ maxLength: 20, unit: "binary" }).map((enc) => ({ enc })), weight: 1 },
    {
      arbitrary: fc
        // Encoded, at most ~7 kB: with the rest of the request under Node's 16 kB header limit, whose
        // bare 431 comes from Node's HTTP parser before docket sees the request.
        .tuple(fc.constantFrom(50, 500, 1_200), fc.constantFrom("a", "0", "%", "é", "/"))
        .map(([n, u]) => ({ enc: u.repeat(n) })),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom(
          "%",
          "%ZZ",
          "%E0%A4%A",
          "%C0%AF",
          "%00",
          "%2e%2e",
          "..",
          ".",
          "%2F",
          "0x%ZZ",
          "%u0041",
          "%F0%9F%98",
          "%%",
          "~",
          "*",
          ";x=1",
          "0x70997970C51812dc3A010C7d01b50e0d17dc79C8;a",
          "0x70997970C51812dc3A010C7d01b50e0d17dc79C8%00",
        )
        .map((raw) => ({ raw })),
      weight: 2,
    },
  );
}

const queryArb = fc.oneof(
  fc.constantFrom(
    "limit=1&limit=2",
    "limit[]=1",
    "limit[0]=1&limit[1]=2",
    "limit[a]=1",
    "offset[]=",
    "limit=",
    "limit",
    "=1",
    "&&&",
    "limit=%",
    "limit=%ZZ",
    "limit=1e2",
    "limit=0x10",
    "limit=%201",
    "limit=1.0",
    "limit=2.5",
    "limit=-0",
    "limit=NaN",
    "limit=Infinity",
    "limit=007",
    "offset=99999999999999999999999999",
    "offset=-1",
    "__proto__=1&__proto__=2",
    "constructor=x",
    "hasOwnProperty=1",
    "plaintiff_wins=true",
    "from=0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    "address=0x0000000000000000000000000000000000000001",
    "a=b=c",
    "%E2%82%AC=%E2%82%AC",
    "?",
    "#frag",
  ),
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom("limit", "offset", "seed", "stake", "from", "x"), fc.string({ maxLength: 8 })),
        fc.oneof(nanish, fc.string({ maxLength: 12, unit: "binary" }), fc.integer().map(String)),
      ),
      { minLength: 1, maxLength: 5 },
    )
    .map((kv) => kv.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&")),
  fc.constantFrom(500, 2_500).map((n) => `limit=${"9".repeat(n)}`),
);

const jsonTypes = ["application/json", "application/json; charset=utf-8"];
const contentTypeArb = fc.oneof(
  { arbitrary: fc.constantFrom(...jsonTypes), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      "APPLICATION/JSON",
      "application/vnd.api+json",
      "application/merge-patch+json",
      "application/json; charset=utf-16",
      "application/json; charset=latin1",
      "application/json; charset=nope",
      "application/jsonx",
      "application/json-seq",
      "text/json",
      "text/plain",
      "text/html",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/octet-stream",
      "*/*",
      "",
      ";;;",
      "application/",
    ),
    weight: 3,
  },
  { arbitrary: fc.constant(null), weight: 1 },
);

const badJson = fc.constantFrom(
  "{",
  "}",
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  "NaN",
  "undefined",
  '{"a":1}{"b":2}',
  '{"a":1} x',
  "\ufeff{",
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  "[1,2",
  "\u0000",
  "tru",
  "01",
  '{"a" 1}',
  '{"\\ud800":1',
);

/** Raw JSON text docket parses: duplicates, huge and tiny numbers, deep nesting, escapes. */
const oddJsonText = fc.constantFrom(
  '{"plaintiff_wins":true,"plaintiff_wins":"x"}',
  '{"limit":1e999,"amount":1e999,"address":1e999}',
  '{"amount":123456789012345678901234567890123456789012345678901234567890123456789012345678901}',
  '{"address":"\\u0030x70997970C51812dc3A010C7d01b50e0d17dc79C8"}',
  `{"name":"${"\\ud83d".repeat(10)}","address":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}`,
  `{"judges":${"[".repeat(5000)}${"]".repeat(5000)}}`,
  `{"a":${'{"a":'.repeat(3000)}1${"}".repeat(3000)}}`,
  '{"__proto__":{"plaintiff_wins":true,"amount":"1","name":"x","judges":[]}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
);

const bodyArb = (inputJson: fc.Arbitrary<unknown>): fc.Arbitrary<HttpCase["body"]> =>
  fc.oneof(
    { arbitrary: inputJson.map((json) => ({ json })), weight: 14 },
    { arbitrary: badJson.map((raw) => ({ raw })), weight: 2 },
    { arbitrary: oddJsonText.map((raw) => ({ raw })), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(65_537, 100_000, 300_000, 1_000_000), fc.constantFrom("a", "{", "é", "0"), fc.boolean())
        .map(([n, u, json]) => ({ huge: new Huge(n, u), json })),
      weight: 1,
    },
    { arbitrary: fc.constant(null), weight: 1 },
  );

const paymentArb = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.base64String({ maxLength: 60 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v)).toString("base64")),
  bytes(32).map((txHash) =>
    Buffer.from(
      JSON.stringify({ x402Version: 1, scheme: "exact", network: "eip155:31337", payload: { txHash } }),
    ).toString("base64"),
  ),
  fc.constant("A".repeat(5_000)),
);

const pathMutArb = fc.constantFrom(
  "trailing-slash",
  "double-slash",
  "dot-dot",
  "dot",
  "upper",
  "encoded-slash",
  "extra-segment",
  "semicolon",
  "unicode",
  "long-tail",
  "fragment",
  "backslash",
);

/** `arb` one time in `every`, else null (fc.option's `freq` is the odds of nil, the other way round). */
const sometimes = <T>(arb: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary: fc.constant(null), weight: every - 1 }, { arbitrary: arb, weight: 1 });

/** One HTTP request aimed at `op`'s route: some well-formed, most not. */
export function httpCaseArb(op: Operation, w: World): fc.Arbitrary<HttpCase> {
  const kinds = new Map(fieldsOf(op).map((f) => [f.name, f.kind]));
  const params = Object.fromEntries(pathParams(op).map((p) => [p, segmentArb(w, kinds.get(p))]));
  const isPost = op.http.method === "POST";
  const method = fc.oneof(
    { arbitrary: fc.constant(op.http.method), weight: 20 },
    { arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"), weight: 2 },
  );
  const input = inputArb(op, w, { pathFields: false }).map(({ base, mutations }) => applyMutations(base, mutations));
  return fc.record({
    op: fc.constant(op.name),
    method,
    params: fc.record(params) as fc.Arbitrary<Record<string, Segment>>,
    pathMut: sometimes(pathMutArb, 8),
    query: sometimes(queryArb, isPost ? 6 : 2),
    contentType: isPost ? contentTypeArb : sometimes(contentTypeArb, 4),
    encoding: sometimes(fc.constantFrom("gzip", "deflate", "br", "identity", "bogus", "gzip, gzip"), 25),
    payment: op.name === "file_case" ? sometimes(paymentArb, 3) : fc.constant(null),
    body: isPost ? bodyArb(input) : sometimes(bodyArb(input), 10),
    chunked: fc.boolean(),
  });
}

/** The raw request for a case: method, path (with query) and headers, and the body's bytes. */
export function render(
  c: HttpCase,
  path: string,
): { method: string; path: string; headers: Record<string, string>; body?: Buffer } {
  let p = path.replace(/:([A-Za-z_]+)/g, (_, k: string) => {
    const s = c.params[k];
    if (!s) return "";
    return "enc" in s ? encode(s.enc) : s.raw;
  });
  switch (c.pathMut) {
    case "trailing-slash":
      p = `${p}/`;
      break;
    case "double-slash":
      p = p.replace(/\//g, "//");
      break;
    case "dot-dot":
      p = `${p}/../${p.split("/").pop() ?? ""}`;
      break;
    case "dot":
      p = `/.${p}`;
      break;
    case "upper":
      p = p.toUpperCase();
      break;
    case "encoded-slash":
      p = p.replace(/\//g, "%2F");
      break;
    case "extra-segment":
      p = `${p}/x`;
      break;
    case "semicolon":
      p = `${p};jsessionid=1`;
      break;
    case "unicode":
      p = `${p}/${encode("ünï😀\u202e")}`;
      break;
    case "long-tail":
      p = `${p}/${"z".repeat(3_000)}`;
      break;
    case "fragment":
      p = `${p}#x`;
      break;
    case "backslash":
      p = p.replace(/\//g, "%5C");
      break;
    default:
      break;
  }
  if (!p.startsWith("/")) p = `/${p}`;
  if (c.query !== null) p = `${p}?${c.query}`;
  const headers: Record<string, string> = {};
  if (c.contentType !== null) headers["content-type"] = c.contentType;
  if (c.encoding !== null) headers["content-encoding"] = c.encoding;
  if (c.payment !== null) headers["x-payment"] = c.payment;
  let body: Buffer | undefined;
  if (c.body !== null && c.method !== "HEAD") {
    if ("raw" in c.body) body = Buffer.from(c.body.raw);
    else if ("huge" in c.body) {
      const s = c.body.huge.toJSON();
      body = Buffer.from(c.body.json ? JSON.stringify({ address: SAMPLE_ADDRESS, name: s }) : s);
    } else body = Buffer.from(JSON.stringify(c.body.json) ?? "null");
  }
  if (body && !c.chunked) headers["content-length"] = String(body.length);
  if (body && c.chunked) headers["transfer-encoding"] = "chunked";
  return { method: c.method, path: p, headers, body };
}

// ---------------------------------------------------------------- MCP's JSON-RPC envelope itself

/** JSON text nested `depth` levels (arrays, objects or both), built as text: no recursion to make it. */
export function nestedText(depth: number, kind: "array" | "object" | "mixed", leaf = "0"): string {
  let open = "";
  let close = "";
  for (let i = 0; i < depth; i++) {
    const obj = kind === "object" || (kind === "mixed" && i % 2 === 1);
    open += obj ? '{"a":' : "[";
    close = (obj ? "}" : "]") + close;
  }
  return `${open}${leaf}${close}`;
}

/** A JSON value as text: any type, shallow or nested from a few levels to 10,000. */
export function hostileValueText(): fc.Arbitrary<string> {
  const deep = fc
    .tuple(
      fc.constantFrom(8, 63, 64, 65, 200, 1_000, 10_000),
      fc.constantFrom("array", "object", "mixed") as fc.Arbitrary<"array" | "object" | "mixed">,
    )
    .map(([d, k]) => nestedText(d, k));
  return fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "null"), weight: 4 },
    {
      arbitrary: fc.constantFrom(
        "null",
        "true",
        "-0",
        "1e400",
        "-1e-400",
        "123456789012345678901234567890",
        "9007199254740993",
        '""',
        '"\\u0000"',
        '"\\ud800"',
        "[]",
        "{}",
        '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
      ),
      weight: 3,
    },
    { arbitrary: deep, weight: 3 },
    { arbitrary: fc.constantFrom(100_000, 1_000_000).map((n) => JSON.stringify("x".repeat(n))), weight: 1 },
  );
}

/** MCP method names, real ones and not. */
const methodText = fc.oneof(
  fc
    .constantFrom(
      "initialize",
      "notifications/initialized",
      "ping",
      "tools/list",
      "tools/call",
      "resources/list",
      "resources/read",
      "resources/subscribe",
      "resources/templates/list",
      "prompts/list",
      "prompts/get",
      "completion/complete",
      "logging/setLevel",
      "subscriptions/listen",
      "notifications/cancelled",
      "rpc.discover",
      "",
      "tools/call ",
      "TOOLS/CALL",
    )
    .map((m) => JSON.stringify(m)),
  fc.string({ maxLength: 20 }).map((m) => JSON.stringify(m)),
);

/**
 * A hostile JSON-RPC envelope as the text POSTed to an MCP door: every member (jsonrpc, id, method,
 * params, and inside a tools/call the name and the arguments) of any type and any depth, members
 * missing or extra, single or batched. The depths reach 10,000 levels.
 */
export function hostileEnvelopeArb(toolNames: readonly string[]): fc.Arbitrary<string> {
  const value = hostileValueText();
  const member = (name: string, text: fc.Arbitrary<string>) =>
    fc.option(
      text.map((t) => `${JSON.stringify(name)}:${t}`),
      { nil: undefined, freq: 4 },
    );
  const jsonrpc = fc.oneof(fc.constant('"2.0"'), fc.constant('"1.0"'), value);
  const id = fc.oneof(
    fc.integer().map(String),
    fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
    value,
  );
  const method = fc.oneof({ arbitrary: methodText, weight: 3 }, { arbitrary: value, weight: 1 });
  const name = fc.oneof(
    fc.constantFrom(...toolNames).map((n) => JSON.stringify(n)),
    value,
  );
  const callParams = fc
    .tuple(member("name", name), member("arguments", value), member("_meta", value))
    .map((ms) => `{${ms.filter(Boolean).join(",")}}`);
  const params = fc.oneof(callParams, value);
  const one = fc
    .tuple(
      member("jsonrpc", jsonrpc),
      member("id", id),
      member("method", method),
      member("params", params),
      member("x", value),
    )
    .map((ms) => `{${ms.filter(Boolean).join(",")}}`);
  return fc.oneof(
    { arbitrary: one, weight: 8 },
    { arbitrary: fc.array(one, { minLength: 1, maxLength: 3 }).map((a) => `[${a.join(",")}]`), weight: 1 },
    { arbitrary: value, weight: 1 },
  );
}
