import { policyCid, readPolicy } from "../devnet/policies.js";
import { devChildCourts } from "../devnet/terms.js";
import type { Court } from "./court.js";

/** The dev world's policy files: the General court's and each child court's (src/devnet/policies/). */
const DEV_POLICY_FILES = ["general.md", ...devChildCourts.map((c) => c.policyFile)];

let devPolicies: Promise<Map<string, string>> | undefined;

/** The dev world's policy texts by CID, computed once from their files. */
function devPolicyTexts(): Promise<Map<string, string>> {
  devPolicies ??= Promise.all(
    DEV_POLICY_FILES.map(async (file): Promise<[string, string]> => {
      const bytes = readPolicy(file);
      return [await policyCid(bytes), Buffer.from(bytes).toString("utf8")];
    }),
  ).then((entries) => new Map(entries));
  return devPolicies;
}

/**
 * The text of a court's policy document, by its CID; undefined when docket cannot read it. On the
 * embedded dev chain the policies are the files it published them from. This is the one place a
 * policy is fetched: point it at the evidence store (`GET /evidence/{cid}`'s content) to read
 * policies published anywhere.
 */
export async function readPolicyText(court: Court, cid: string): Promise<string | undefined> {
  if (!court.devnet) return undefined;
  return (await devPolicyTexts()).get(cid);
}
