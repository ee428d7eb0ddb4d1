/** An IPFS Pinning Service API endpoint (https://ipfs.github.io/pinning-services-api-spec/). */
export interface PinningService {
  url: string;
  token: string;
}

/**
 * Asks the pinning service to pin `cid` (`POST /pins`), so the IPFS network keeps it beyond docket's
 * own store. `origins` are where the service may fetch it from (docket's own trustless gateway
 * cannot be dialled as a multiaddr, so it is left to the service's own discovery when empty).
 */
export async function pin(service: PinningService, cid: string, name: string, timeoutMs: number): Promise<void> {
  const res = await fetch(`${service.url.replace(/\/+$/, "")}/pins`, {
    method: "POST",
    headers: { Authorization: `Bearer ${service.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ cid, name }),
    redirect: "error",
    signal: AbortSignal.timeout(timeoutMs),
  });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`pinning service answered HTTP ${res.status} for ${cid}`);
}
