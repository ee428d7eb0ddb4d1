import { pino } from "pino";
import { loadConfig } from "../../src/config.js";
import { type Docket, startServer } from "../../src/server.js";
import { type Api, request, TEST_INDEX } from "./docket.js";

export interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

/** One docket replica on an external chain, with the log lines it wrote (info and up). */
export interface Replica {
  readonly url: string;
  readonly docket: Docket;
  readonly logs: LogLine[];
  get(path: string): Promise<Api>;
  post(path: string, body: unknown): Promise<Api>;
  /** Log lines at warn (40) or above whose message matches. */
  warnings(re: RegExp): LogLine[];
  close(): Promise<void>;
}

/** Starts docket as it would run in production against an external chain, logging into memory. */
export async function startReplica(env: Record<string, string>): Promise<Replica> {
  const logs: LogLine[] = [];
  const log = pino(
    { level: "info", base: undefined },
    {
      write: (line: string) => {
        logs.push(JSON.parse(line) as LogLine);
      },
    },
  );
  const docket = await startServer(
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "info",
      RATE_LIMIT_PER_MINUTE: "0",
      EVENT_POLL_MS: "0",
      ...TEST_INDEX,
      ...env,
    }),
    { log, graceMs: 1_000 },
  );
  return {
    url: docket.url,
    docket,
    logs,
    get: (path) => request(docket, path),
    post: (path, body) => request(docket, path, body),
    warnings: (re) => logs.filter((l) => l.level >= 40 && re.test(l.msg)),
    close: () => docket.close(),
  };
}
