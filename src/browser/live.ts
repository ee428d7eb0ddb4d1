/**
 * The explorer's one script (served as /explorer/assets/live.js, bundled by esbuild): it follows
 * `/events` and, when the open page's case (or, on the other pages, the court) changes, fetches the
 * page again and swaps its `#live` region for the fresh one. The fresh HTML is docket's own,
 * rendered and escaped by the server; it is parsed inert (DOMParser runs no script) and moved in as
 * nodes. Party text is never assembled into markup here. It also counts deadlines down in chain time.
 */
import { duration } from "./duration.js";

const body = document.body;
const types = (body.dataset.eventTypes ?? "").split(",").filter(Boolean);
const followed = body.dataset.liveCase;

/** When each countdown was first seen, so it counts from the chain time the server rendered it at. */
const seen = new WeakMap<HTMLElement, number>();

function tick(): void {
  for (const el of document.querySelectorAll<HTMLElement>("[data-deadline]")) {
    if (!seen.has(el)) seen.set(el, Date.now());
    const at = Number(el.dataset.deadline);
    const now = Number(el.dataset.chainNow) + (Date.now() - (seen.get(el) ?? Date.now())) / 1000;
    const d = at - now;
    el.textContent = d >= 0 ? `in ${duration(d)}` : `passed ${duration(-d)} ago`;
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
setInterval(tick, 1000);
if (typeof EventSource === "function") follow();
