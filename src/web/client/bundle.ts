import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const entry = fileURLToPath(new URL("./live.ts", import.meta.url));

let bundled: Promise<string> | undefined;

/** The explorer's live script, bundled once (esbuild, in memory) on first request. */
export function liveScript(): Promise<string> {
  bundled ??= build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    minify: true,
    target: "es2020",
    logLevel: "silent",
  }).then((r) => r.outputFiles[0]?.text ?? "");
  bundled.catch(() => {
    bundled = undefined;
  });
  return bundled;
}
