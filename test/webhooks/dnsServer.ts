import { createSocket, type Socket } from "node:dgram";
import type { AddressInfo } from "node:net";

/**
 * A DNS server on loopback (UDP) for the rebinding test: it answers an A query for any name with the
 * address `answer` gives for that query's count (the first lookup, the second...), and an AAAA
 * query with no record. Just enough of RFC 1035 for c-ares (node's dns.Resolver) to read it.
 */
export class DnsServer {
  readonly asked: string[] = [];
  private constructor(
    private readonly socket: Socket,
    readonly server: string,
  ) {}

  static async start(answer: (name: string, nth: number) => string): Promise<DnsServer> {
    const socket = createSocket("udp4");
    let self: DnsServer | undefined;
    socket.on("message", (query, from) => {
      const { name, end, type } = question(query);
      let answers = Buffer.alloc(0);
      if (type === 1) {
        self?.asked.push(name);
        const nth = self?.asked.filter((n) => n === name).length ?? 1;
        const ip = answer(name, nth).split(".").map(Number);
        answers = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4, ...ip]);
      }
      const header = Buffer.alloc(12);
      query.copy(header, 0, 0, 2);
      header.writeUInt16BE(0x8180, 2);
      header.writeUInt16BE(1, 4);
      header.writeUInt16BE(answers.length > 0 ? 1 : 0, 6);
      socket.send(Buffer.concat([header, query.subarray(12, end), answers]), from.port, from.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
    self = new DnsServer(socket, `127.0.0.1:${(socket.address() as AddressInfo).port}`);
    return self;
  }

  close(): void {
    this.socket.close();
  }
}

/** The query's name, where its question ends, and its type. */
function question(q: Buffer): { name: string; end: number; type: number } {
  const labels: string[] = [];
  let i = 12;
  while ((q[i] ?? 0) > 0) {
    const n = q[i] as number;
    labels.push(q.subarray(i + 1, i + 1 + n).toString("ascii"));
    i += n + 1;
  }
  i += 1;
  return { name: labels.join(".").toLowerCase(), end: i + 4, type: q.readUInt16BE(i) };
}
