#!/usr/bin/env node
// Runs docket's TypeScript sources through tsx, so there is no build step between clone and use.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

register();
await import(pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "..", "src", "cli.ts")).href);
