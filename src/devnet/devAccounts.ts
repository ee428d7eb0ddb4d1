import { type Address, type Hex, toHex } from "viem";
import { type HDAccount, mnemonicToAccount } from "viem/accounts";
import { DEV_ACCOUNT_COUNT, DEV_MNEMONIC } from "./anvil.js";

export type DevRole = "court" | "party" | "judge" | "job party" | "free";

export interface DevAccount {
  index: number;
  role: DevRole;
  /** Agent name the seed registers, when the account is a registered agent. */
  name?: string;
  address: Address;
  /** Public, well-known dev-chain key (from the standard test mnemonic). */
  privateKey: Hex;
  account: HDAccount;
}

const partyNames = [
  "atlas-logistics",
  "borealis-data",
  "cobalt-trading",
  "delta-freight",
  "ember-analytics",
  "fjord-escrow",
];
const judgeNames = [
  "arbiter-aster",
  "arbiter-birch",
  "arbiter-cirrus",
  "arbiter-dahlia",
  "arbiter-elm",
  "arbiter-fern",
  "arbiter-gale",
  "arbiter-heron",
];

/** Which mnemonic index plays which part in the seeded demo (docs/dev-chain.md lists the same). */
export function roleOf(index: number): { role: DevRole; name?: string } {
  if (index === 0) return { role: "court" };
  if (index >= 1 && index <= 6) return { role: "party", name: partyNames[index - 1] };
  if (index >= 7 && index <= 14) return { role: "judge", name: judgeNames[index - 7] };
  // The seeded ERC-8183 jobs' client and provider (src/devnet/seedJobs.ts).
  if (index === 20) return { role: "job party", name: "kestrel-research" };
  if (index === 21) return { role: "job party", name: "lumen-labs" };
  return { role: "free" };
}

export function devAccount(index: number): DevAccount {
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
  const key = account.getHdKey().privateKey;
  if (!key) throw new Error("dev account has no private key");
  return { index, ...roleOf(index), address: account.address, privateKey: toHex(key), account };
}

export function devAccounts(count = DEV_ACCOUNT_COUNT): DevAccount[] {
  return Array.from({ length: count }, (_, i) => devAccount(i));
}
