import { formatEther } from "viem";
import { duration } from "../browser/duration.js";

/** How the explorer writes values for people; the templates call these (their output is escaped too). */
export const fmt = {
  /** Wei (decimal string or bigint) as ETH. */
  eth(wei: string | bigint): string {
    return `${formatEther(typeof wei === "bigint" ? wei : BigInt(wei))} ETH`;
  },
  /** Unix seconds (chain time) as a UTC date and time. */
  time(unix: number): string {
    return `${new Date(unix * 1000).toISOString().slice(0, 19).replace("T", " ")} UTC`;
  },
  /** Unix seconds as the machine-readable value of a `<time>` element. */
  iso(unix: number): string {
    return new Date(unix * 1000).toISOString();
  },
  /** Seconds from now to `at`, in chain time: "in 3m 20s" or "4m ago". */
  until(at: number, now: number): string {
    const d = at - now;
    const span = duration(Math.abs(d));
    return d >= 0 ? `in ${span}` : `${span} ago`;
  },
  /** An address cut for a narrow screen; the full one stays in the link and its title. */
  short(address: string): string {
    return address.length > 14 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;
  },
  bps(bps: number): string {
    return `${bps / 100}%`;
  },
  /** A court parameter by its name's convention: wei amounts, basis points, seconds; anything else as it is. */
  param(key: string, v: unknown): string {
    if (typeof v === "string" && /^\d+$/.test(v) && /(stake|bond|fee)$/i.test(key)) return fmt.eth(v);
    if (typeof v === "number" && /bps$/i.test(key)) return fmt.bps(v);
    if (typeof v === "number" && /(window|period)$/i.test(key)) return duration(v);
    return String(v);
  },
  bytes(n: number): string {
    if (n < 1024) return `${n} B`;
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
    return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  },
};
