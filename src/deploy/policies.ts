import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CID } from "multiformats/cid";
import * as raw from "multiformats/codecs/raw";
import { sha256 } from "multiformats/hashes/sha2";

/** The policy documents' directory, next to this module (bin/docket.js carries it into the build). */
const policiesDir = fileURLToPath(new URL("./policies", import.meta.url));

/** A court policy file's bytes (`file` is a name in src/deploy/policies/). */
export function readPolicy(file: string): Uint8Array {
  return readFileSync(join(policiesDir, file));
}

/** The CID a court records for a policy: a raw CIDv1 (base32) of its bytes' sha2-256, as the evidence store gives for a file up to 256 KiB. */
export async function policyCid(bytes: Uint8Array): Promise<string> {
  return CID.create(1, raw.code, await sha256.digest(bytes)).toString();
}
