import { policyCid, readPolicy } from "../deploy/policies.js";
import { publishEvidence } from "../evidence/document.js";
import type { EvidencePublisher } from "../evidence/store.js";
import { barChart, png } from "./png.js";

/**
 * The seeded cases' evidence: what each side would really hand a court (the agreement, a receipt,
 * a record of the delivery or of its absence, messages, images), published through docket's store
 * at seed time. Records are JSON with a `record` kind ("receipt", "delivery"), so a judge (the
 * reference judge agent's default rule among them) can weigh what they say.
 */
export interface SeedItem {
  name: string;
  description: string;
  mediaType: "text/markdown" | "text/plain" | "application/json" | "image/png";
  body: string | Uint8Array;
}

/** A case's evidence: what the plaintiff files with the claim, then what each side adds. */
export interface CasePack {
  /** What the plaintiff claims, in the filing. */
  claim: string;
  filing: SeedItem;
  plaintiff?: SeedItem[];
  defendant?: SeedItem[];
}

const agreement = (title: string, terms: string[]): SeedItem => ({
  name: `Agreement: ${title}`,
  description: `The agreement both parties accepted: ${title}.`,
  mediaType: "text/markdown",
  body: [`# Agreement: ${title}`, "", ...terms.map((t, i) => `${i + 1}. ${t}`), "", "Accepted by both parties."].join(
    "\n",
  ),
});

const record = (name: string, description: string, value: Record<string, unknown>): SeedItem => ({
  name,
  description,
  mediaType: "application/json",
  body: JSON.stringify(value, null, 2),
});

const receipt = (amount: string, what: string, paidAt: string) =>
  record("Payment receipt", `Receipt for ${what}.`, { record: "receipt", amount, for: what, paidAt });

const delivery = (item: string, due: string, delivered: boolean, meetsTerms: boolean, notes: string) =>
  record(delivered ? `Delivery record: ${item}` : `Record of non-delivery: ${item}`, notes, {
    record: "delivery",
    item,
    due,
    delivered,
    meetsTerms,
    notes,
  });

const messages = (name: string, lines: string[]): SeedItem => ({
  name,
  description: "Messages between the parties, as exported from their chat.",
  mediaType: "text/plain",
  body: lines.join("\n"),
});

/** A photo stand-in: a dented crate (brown box, dark gash). */
const cratePhoto = png(48, 32, (x, y) => {
  const gash = Math.abs(y - 12 - (x - 20) / 2) < 1.5 && x > 14 && x < 34;
  if (gash) return [30, 20, 10];
  return x > 6 && x < 42 && y > 4 && y < 28 ? [150, 100, 50] : [220, 220, 220];
});

/** Each seeded case's evidence, by the case's seed label. */
export const SEED_EVIDENCE: Record<string, CasePack> = {
  defaulted: {
    claim: "Shipment of 40 pallets never picked up; carrier kept the deposit.",
    filing: agreement("carriage of 40 pallets", [
      "The carrier picks up 40 pallets at the shipper's dock on 3 March.",
      "The shipper pays a deposit of 0.5 ETH, refundable if no pick-up happens.",
    ]),
  },
  dismissed: {
    claim: "Trading bot executed orders outside the agreed risk limits.",
    filing: agreement("automated trading within risk limits", [
      "The bot never holds a position above 5% of the account.",
      "Every order outside the limits is the operator's loss to bear.",
    ]),
    plaintiff: [
      record("Trade log, 12 May", "Three orders of 9% of the account each.", {
        record: "trade-log",
        orders: [{ size: "9%" }, { size: "9%" }, { size: "9%" }],
      }),
    ],
  },
  "resolved, settled": {
    claim: "Escrow released before the analytics report was delivered.",
    filing: agreement("analytics report before escrow release", [
      "The analyst delivers the Q2 analytics report by 30 June.",
      "The escrow is released only once the report is delivered.",
    ]),
    plaintiff: [
      receipt("2 ETH", "the Q2 analytics report, paid into escrow", "2026-06-01"),
      delivery(
        "Q2 analytics report",
        "2026-06-30",
        false,
        false,
        "No report was ever sent; the escrow was released on 2 July anyway.",
      ),
    ],
    defendant: [
      messages("Chat, 2 July", ["analyst: escrow is out, thanks", "client: where is the report?", "analyst: soon"]),
    ],
  },
  appealed: {
    claim: "Data feed delivered with a 6-hour lag against a 5-minute SLA.",
    filing: agreement("market data feed with a 5-minute SLA", [
      "Quotes reach the client within 5 minutes of the exchange.",
      "Clause 4: lag caused by an exchange outage does not count against the SLA.",
    ]),
    plaintiff: [
      {
        name: "Latency chart, 14 April",
        description: "Feed lag per hour; red bars are past the 5-minute SLA.",
        mediaType: "image/png",
        body: barChart([0.1, 0.1, 0.2, 0.9, 1, 1, 0.95, 0.9, 0.2, 0.1], 0.3),
      },
      delivery("market data feed", "continuous", true, false, "Quotes arrived up to 6 hours late on 14 April."),
    ],
    defendant: [
      delivery(
        "market data feed",
        "continuous",
        true,
        true,
        "The exchange was down from 03:00 to 09:00 on 14 April (its status page); clause 4 excludes that lag.",
      ),
    ],
  },
  "resolved, appeal window open": {
    claim: "Invoice for 12 GPU-hours disputed as double-billed.",
    filing: receipt("0.24 ETH", "12 GPU-hours, invoice 1042", "2026-05-02"),
    plaintiff: [receipt("0.24 ETH", "12 GPU-hours, invoice 1043", "2026-05-03")],
    defendant: [
      delivery(
        "24 GPU-hours in two jobs",
        "2026-05-03",
        true,
        true,
        "Invoices 1042 and 1043 bill two separate jobs (job ids a1f and b7c), 12 GPU-hours each; both ran.",
      ),
    ],
  },
  deliberating: {
    claim: "Model fine-tune delivered without the agreed evaluation report.",
    filing: agreement("model fine-tune with an evaluation report", [
      "The provider fine-tunes the model on the client's data.",
      "The delivery includes an evaluation report on the agreed benchmark.",
    ]),
    plaintiff: [
      receipt("1 ETH", "fine-tune with evaluation report", "2026-04-01"),
      delivery(
        "evaluation report",
        "2026-04-20",
        false,
        false,
        "The weights arrived on 20 April with no evaluation report.",
      ),
    ],
    defendant: [
      messages("Chat, 21 April", ["client: the report?", "provider: next week, the weights are what matters"]),
    ],
  },
  "deliberating, commit phase, one vote committed": {
    claim: "Shopping agent bought 300 GPU-hours at twice the mandate's price cap.",
    filing: agreement("purchasing mandate for a shopping agent", [
      "The agent buys GPU-hours for the principal.",
      "It never pays more than 2 USD per GPU-hour.",
    ]),
    plaintiff: [
      receipt("1.2 ETH", "300 GPU-hours at 4 USD per GPU-hour", "2026-05-02"),
      delivery("GPU-hours within the price cap", "2026-05-02", true, false, "Bought at twice the mandate's cap."),
    ],
    defendant: [
      messages("Agent log, 2 May", ["agent: no offer under the cap", "agent: bought at market to meet the deadline"]),
    ],
  },
  "deliberating, reveal phase, one vote revealed": {
    claim: "Translation memory delivered with 30% machine output, against the terms.",
    filing: agreement("human translation of a 20,000-segment memory", [
      "Every segment is translated by a human translator.",
      "Machine output is not accepted.",
    ]),
    plaintiff: [
      delivery(
        "translation memory",
        "2026-03-15",
        true,
        false,
        "A QA sample of 500 segments found 30% unedited machine output.",
      ),
    ],
    defendant: [messages("Chat, 16 March", ["translator: we post-edited everything", "client: 150 of 500 are raw MT"])],
  },
  active: {
    claim: "Freight insurance claim refused on a technicality.",
    filing: agreement("freight insurance for crate 88-A", [
      "Damage in transit is paid out in full.",
      "Claims are filed within 30 days of delivery.",
    ]),
    plaintiff: [
      {
        name: "Photo of crate 88-A",
        description: "The crate as delivered: the side is split.",
        mediaType: "image/png",
        body: cratePhoto,
      },
      receipt("0.1 ETH", "premium for crate 88-A", "2026-02-01"),
      delivery("insurance payout", "2026-03-30", false, false, "The claim was filed on day 29 and refused."),
    ],
    defendant: [
      messages("Claim desk", ["insurer: claim received on day 31, refused", "shipper: the upload log shows day 29"]),
    ],
  },
  summoned: {
    claim: "Escrow agent withheld funds after both sides confirmed delivery.",
    filing: messages("Delivery confirmations", [
      "buyer: received, all good",
      "seller: confirmed delivered",
      "escrow agent: funds held pending review",
    ]),
  },
};

/** Publishes one item and its ERC-1497 document; answers the document's CID (what a party files). */
export async function publishSeedItem(store: EvidencePublisher, item: SeedItem): Promise<string> {
  const bytes = typeof item.body === "string" ? new TextEncoder().encode(item.body) : item.body;
  const e = await publishEvidence(store, bytes, item.mediaType, { name: item.name, description: item.description });
  return e.document.cid;
}

/**
 * Publishes policy files (names in src/deploy/policies/) as text/markdown evidence, and insists each
 * gets the CID the court records for it (`policyCid`), so a judge reads what the court points at.
 */
export async function publishPolicies(store: EvidencePublisher, files: readonly string[]): Promise<void> {
  for (const file of files) {
    const bytes = readPolicy(file);
    const published = await store.publish(bytes, "text/markdown");
    const recorded = await policyCid(bytes);
    if (published.cid.toString() !== recorded) {
      throw new Error(`policy ${file}: published as ${published.cid}, but the court records ${recorded}`);
    }
  }
}
