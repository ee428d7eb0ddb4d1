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
    sortable();
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

/**
 * The list tables sort by any column (progressive: without JavaScript a list is in the order the
 * server gives, newest first): each header becomes a button that sorts the rows on this page by its
 * column, ascending, then descending on a second press; `aria-sort` says which. A cell's
 * `data-sort` is its value (a number where it has one), else its text; an empty value sorts last.
 * A live refresh keeps the order chosen.
 */
let sorted: { table: number; col: number; dir: 1 | -1 } | undefined;

function sortable(): void {
  const tables = [...document.querySelectorAll<HTMLTableElement>("table.list")];
  tables.forEach((table, t) => {
    const heads = [...(table.tHead?.rows[0]?.cells ?? [])];
    heads.forEach((th, col) => {
      if (th.querySelector("button")) return;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.textContent = th.textContent ?? "";
      th.replaceChildren(button);
      button.addEventListener("click", () => {
        const dir = sorted?.table === t && sorted.col === col ? (-sorted.dir as 1 | -1) : 1;
        sorted = { table: t, col, dir };
        applySort();
      });
    });
  });
  applySort();
}

function applySort(): void {
  if (!sorted) return;
  const { col, dir } = sorted;
  const table = document.querySelectorAll<HTMLTableElement>("table.list")[sorted.table];
  const body = table?.tBodies[0];
  if (!table || !body) return;
  const key = (r: HTMLTableRowElement) => {
    const cell = r.cells[col];
    return (cell?.dataset.sort ?? cell?.textContent ?? "").trim();
  };
  const rows = [...body.rows];
  const numeric = rows.every((r) => key(r) === "" || Number.isFinite(Number(key(r))));
  rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1;
    return dir * (numeric ? Number(x) - Number(y) : x.localeCompare(y));
  });
  body.append(...rows);
  [...(table.tHead?.rows[0]?.cells ?? [])].forEach((th, i) => {
    if (i === col) th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    else th.removeAttribute("aria-sort");
  });
}

tick();
sortable();
setInterval(() => void askChainTime(), 3000);
if (typeof EventSource === "function") follow();
