import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** The browser scripts of src/browser, by name. */
export type ClientScript = "live" | "caseApp";

const bundled = new Map<ClientScript, Promise<string>>();

/** A browser script bundled (esbuild, in memory, minified) on first use and kept. */
export function clientScript(name: ClientScript): Promise<string> {
  let js = bundled.get(name);
  if (!js) {
    js = build({
      entryPoints: [fileURLToPath(new URL(`./${name}.ts`, import.meta.url))],
      bundle: true,
      write: false,
      format: "iife",
      minify: true,
      target: "es2020",
      logLevel: "silent",
    }).then((r) => r.outputFiles[0]?.text ?? "");
    // A failed build is tried again on the next request.
    js.catch(() => bundled.delete(name));
    bundled.set(name, js);
  }
  return js;
}
