import { pino } from "pino";

/** Logs go to stderr, always: stdout belongs to the MCP stdio transport and to `devnet`'s KEY=value lines. */
export function makeLogger(level: string) {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination(2));
}

export type Logger = ReturnType<typeof makeLogger>;
