import { type LookupAddress, lookup, Resolver } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Whether `ip` is an address docket never delivers to without WEBHOOKS_ALLOW_PRIVATE: anything
 * outside ipaddr.js's `unicast` range (loopback, private, link-local where cloud metadata lives,
 * carrier NAT, unique local, multicast, reserved, unspecified...). An IPv4-mapped IPv6 address is
 * judged as the IPv4 address it maps; what does not parse is refused.
 */
export function isPrivateAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  const parsed = ipaddr.process(ip);
  return parsed.range() !== "unicast";
}

/** The error a refused connection fails with. */
export class PrivateAddressError extends Error {
  override name = "PrivateAddressError";
  readonly code = "EWEBHOOKPRIVATE";
}

/**
 * Every address `hostname` resolves to: through the system's resolver (getaddrinfo, as any
 * connection would), or through the DNS servers the operator named (WEBHOOKS_DNS_SERVERS), asked for
 * A and AAAA records.
 */
export async function resolveHost(hostname: string, servers?: readonly string[]): Promise<LookupAddress[]> {
  if (!servers || servers.length === 0) {
    return new Promise((resolve, reject) =>
      lookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
    );
  }
  const r = new Resolver({ timeout: 3_000, tries: 2 });
  r.setServers([...servers]);
  const ask = (family: 4 | 6) =>
    new Promise<LookupAddress[]>((resolve, reject) => {
      const done = (err: NodeJS.ErrnoException | null, found: string[]) => {
        if (err && err.code !== "ENODATA" && err.code !== "ENOTFOUND") return reject(err);
        resolve((found ?? []).map((address) => ({ address, family })));
      };
      if (family === 4) r.resolve4(hostname, done);
      else r.resolve6(hostname, done);
    });
  const found = [...(await ask(4)), ...(await ask(6))];
  if (found.length === 0) {
    throw Object.assign(new Error(`${hostname} does not resolve`), { code: "ENOTFOUND" });
  }
  return found;
}

/**
 * A DNS lookup for an HTTP agent that refuses a name resolving to a private address (any of them,
 * when it has several): the check is on the addresses the socket connects to, after resolution, so
 * a name that resolved to a public address at registration and to loopback now (DNS rebinding) is
 * refused. A URL naming an IP literal is never looked up: check it with `isPrivateAddress` first.
 */
export function guardedLookup(allowPrivate: boolean, servers?: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname, servers).then(
      (all) => {
        const addresses = options.family ? all.filter((a) => a.family === options.family) : all;
        const refused = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
        if (refused) {
          const e = new PrivateAddressError(`${hostname} resolves to ${refused.address}, a private address`);
          return callback(e as NodeJS.ErrnoException, "", 0);
        }
        const first = addresses[0];
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        if (!first) return callback(new Error(`${hostname} has no address`) as NodeJS.ErrnoException, "", 0);
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
}
