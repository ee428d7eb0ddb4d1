import { formatEther, formatUnits } from "viem";
import { duration } from "../browser/duration.js";

/** How the explorer writes values for people; the templates call these (their output is escaped too). */
export const fmt = {
  /** Wei (decimal string or bigint) as ETH. */
  eth(wei: string | bigint): string {
    return `${formatEther(typeof wei === "bigint" ? wei : BigInt(wei))} ETH`;
  },
  /** A token amount in its smallest unit, with its decimals and symbol: "25 dUSD". */
  token(units: string | bigint, t: { decimals: number; symbol: string }): string {
    return `${formatUnits(typeof units === "bigint" ? units : BigInt(units), t.decimals)} ${t.symbol}`;
  },
  /** "1 vote", "3 votes". */
  count(n: number, word: string, words = `${word}s`): string {
    return `${n} ${n === 1 ? word : words}`;
  },
  /** A case's outcome in plain words: who won, and how. */
  outcome(c: { state: string; outcome: string | null }): string | null {
    if (c.state === "Defaulted") return "Plaintiff won by default (the defendant never answered)";
    if (c.outcome === "PlaintiffWon") return "Plaintiff won";
    if (c.outcome === "DefendantWon") return "Defendant won";
    if (c.outcome === "Dismissed" || c.state === "Dismissed") return "Dismissed (stakes refunded)";
    return null;
  },
  /** A court parameter's name for people (an unknown one keeps its own). */
  label(key: string): string {
    return PARAM_LABELS[key] ?? key;
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
  /** A court parameter by its name's convention: wei amounts, basis points, seconds, counts, yes/no. */
  param(key: string, v: unknown): string {
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (key === "jumpPanelSize" && v === 0) return "none (appeals stay in this court)";
    if (typeof v === "number" && /PanelSize$/.test(key)) return fmt.count(v, "judge");
    if (typeof v === "string" && /^\d+$/.test(v) && /(stake|bond|fee)$/i.test(key)) return fmt.eth(v);
    if (typeof v === "number" && /bps$/i.test(key)) return fmt.bps(v);
    if (typeof v === "number" && /(window|period)$/i.test(key)) return duration(v);
    return String(v);
  },
  /** A media type as people name the kind of file. */
  mediaType(t: string): string {
    return MEDIA[t] ?? t;
  },
  bytes(n: number): string {
    if (n < 1024) return `${n} B`;
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
    return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  },
};

/** Court parameters by their API names, as the court page labels them. */
const PARAM_LABELS: Record<string, string> = {
  minJudgeStake: "Minimum judge stake",
  minPartyStake: "Minimum party stake",
  appealBond: "Appeal bond",
  courtFeeBps: "Court fee (of the pot)",
  judgeRewardBps: "Judges' share of the fee",
  responseWindow: "Time to answer",
  deliberationPeriod: "Time to deliberate",
  appealWindow: "Time to appeal",
  hiddenVotes: "Hidden votes (commit, then reveal)",
  commitPeriod: "Time to commit a vote",
  revealPeriod: "Time to reveal a vote",
  panelSize: "Panel",
  appealPanelSize: "Appeal panel",
  jumpPanelSize: "Panel when an appeal moves up",
  parameters: "Parameters",
};

const MEDIA: Record<string, string> = {
  "application/pdf": "PDF",
  "image/png": "PNG image",
  "image/jpeg": "JPEG image",
  "image/webp": "WebP image",
  "text/plain": "text",
  "text/markdown": "Markdown text",
  "application/json": "JSON",
};
