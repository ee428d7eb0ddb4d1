import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One delivery as a receiver saw it: its headers' id, whether its signature verified, its body. */
export interface Delivery {
  id: string;
  verified: boolean;
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: a delivery's data is whatever its type carries.
  data: any;
  /** What the receiver answered. */
  answered: number | "hung";
}

/** How the receiver answers: as a working endpoint, down (503), or never (the request hangs). */
export type Mode = "up" | "down" | "hang";

/**
 * A webhook receiver as an agent would run one: an HTTP server on loopback that checks every
 * delivery with the standardwebhooks library and the secret it was given (a delivery that does not
 * verify is refused 401), echoes a `webhook.verify` challenge, and keeps what it took. Its mode says
 * whether it answers; `seen` holds every delivery it was sent, `taken` those it answered 2xx.
 */
export class Receiver {
  secret = "whsec_AAAA";
  mode: Mode = "up";
  readonly seen: Delivery[] = [];
  private readonly hung: ServerResponse[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    let self: Receiver | undefined;
    const server = createServer((req, res) => void self?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    self = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
    return self;
  }

  /** The deliveries answered 2xx but the challenge (a repeat of one webhook-id counted once), in order. */
  get taken(): Delivery[] {
    const ids = new Set<string>();
    return this.seen.filter(
      (d) => d.answered === 200 && d.type !== "webhook.verify" && !ids.has(d.id) && ids.add(d.id),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = "";
    for await (const c of req) raw += c;
    let verified = false;
    try {
      new Webhook(this.secret).verify(raw, req.headers as Record<string, string>);
      verified = true;
    } catch {}
    const body = JSON.parse(raw) as { type: string; data: unknown };
    const d: Delivery = {
      id: String(req.headers["webhook-id"]),
      verified,
      type: body.type,
      data: body.data,
      answered: 200,
    };
    this.seen.push(d);
    if (!verified) {
      d.answered = 401;
      res.writeHead(401).end();
      return;
    }
    if (this.mode === "hang") {
      d.answered = "hung";
      this.hung.push(res);
      return;
    }
    if (this.mode === "down") {
      d.answered = 503;
      res.writeHead(503).end("down");
      return;
    }
    if (body.type === "webhook.verify") {
      res.end((body.data as { challenge: string }).challenge);
      return;
    }
    res.writeHead(200).end("ok");
  }

  async close(): Promise<void> {
    for (const r of this.hung) r.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
