/**
 * The explorer's one script (served as /explorer/assets/live.js, bundled by esbuild): it follows
 * `/events` and, when the open page's case (or, on the other pages, the court) changes, fetches the
 * page again and swaps its `#live` region for the fresh one. The fresh HTML is docket's own,
 * rendered and escaped by the server; it is parsed inert (DOMParser runs no script) and moved in as
 * nodes. Party text is never assembled into markup here. It also counts deadlines down in chain time (never the wall clock).
 */
import { duration } from "./duration.js";

const body = document.body;
const types = (body.dataset.eventTypes ?? "").split(",").filter(Boolean);
const followed = body.dataset.liveCase;

/**
 * Chain time, as the server last told it: first the page's (`data-chain-now`, the latest block's
 * timestamp when it was drawn), then `/explorer/chain-time`, asked every few seconds while the page
 * shows a deadline. Never the wall clock: a dev chain's time moves only when a block is mined, and
 * a countdown that ran on Date.now() would pass a deadline the chain has not reached (or the reverse).
 */
let chainNow = 0;
/** Deadlines the page was drawn again for once passed (once each: a fresh page may still show one). */
const redrawnFor = new Set<number>();

function pageChainNow(): number {
  let now = 0;
  for (const el of document.querySelectorAll<HTMLElement>("[data-chain-now]"))
    now = Math.max(now, Number(el.dataset.chainNow) || 0);
  return now;
}

function tick(): void {
  chainNow = Math.max(chainNow, pageChainNow());
  let passed = false;
  for (const el of document.querySelectorAll<HTMLElement>("[data-deadline]")) {
    const at = Number(el.dataset.deadline);
    const d = at - chainNow;
    el.textContent = d >= 0 ? `in ${duration(d)}` : `overdue by ${duration(-d)}`;
    if (d < 0 && !redrawnFor.has(at)) {
      redrawnFor.add(at);
      passed = true;
    }
  }
  // A deadline the chain passed changes what may be done: the page is drawn again to say so.
  if (passed) schedule();
}

async function askChainTime(): Promise<void> {
  if (!document.querySelector("[data-deadline]")) return;
  try {
    const res = await fetch("/explorer/chain-time", { cache: "no-store" });
    if (!res.ok) return;
    const body = (await res.json()) as { chainTime?: number };
    if (typeof body.chainTime === "number" && body.chainTime > chainNow) {
      chainNow = body.chainTime;
      tick();
    }
  } catch {
    // Offline for a moment: the next ask tries again.
  }
}

let pending: ReturnType<typeof setTimeout> | undefined;
let running = false;

async function refresh(): Promise<void> {
  if (running) {
    schedule();
    return;
  }
  running = true;
  try {
    const res = await fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (!res.ok) return;
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const fresh = doc.getElementById("live");
    const current = document.getElementById("live");
    if (!fresh || !current) return;
    current.replaceWith(document.importNode(fresh, true));
    const status = document.getElementById("live-status");
    if (status) status.textContent = `Updated ${new Date().toLocaleTimeString()}`;
    tick();
  } finally {
    running = false;
  }
}

function schedule(): void {
  clearTimeout(pending);
  pending = setTimeout(() => void refresh(), 200);
}

function follow(): void {
  const url = followed ? `/events?case=${encodeURIComponent(followed)}` : "/events";
  const source = new EventSource(url);
  for (const type of types) source.addEventListener(type, schedule);
  // After a gap (docket restarted, events left its buffer) the page is read again.
  source.addEventListener("events.gap", schedule);
  const status = document.getElementById("live-status");
  source.addEventListener("open", () => {
    if (status && !status.textContent) status.textContent = "Live";
  });
}

tick();
setInterval(() => void askChainTime(), 3000);
if (typeof EventSource === "function") follow();
