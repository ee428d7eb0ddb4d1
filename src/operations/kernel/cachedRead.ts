import type { Ctx } from "./operation.js";

/**
 * A chain read several operations share (court parameters, the court tree), cached under `key` for
 * `ttl` seconds. Cached values must be JSON, so bigints travel tagged.
 */
export async function cachedRead<T>(ctx: Ctx, key: string, ttl: number, load: () => Promise<T>): Promise<T> {
  const r = await ctx.cache.wrap(
    key,
    () => ttl,
    async () => serialize(await load()),
  );
  return deserialize(r.value) as T;
}

function serialize(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? { $big: x.toString() } : x)));
}
function deserialize(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v), (_k, x) => (x && typeof x === "object" && "$big" in x ? BigInt(x.$big) : x));
}
