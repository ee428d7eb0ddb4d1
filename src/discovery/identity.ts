import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** A package of server.json: how a client installs and runs docket itself (`npx docket mcp`, stdio). */
export interface ServerPackage {
  registryType: string;
  identifier: string;
  version: string;
  runtimeHint?: string;
  transport: { type: string };
  packageArguments?: { type: string; value?: string }[];
  environmentVariables?: { name: string; description?: string }[];
}

/** What server.json says docket is: the one place its name, title and description are written. */
export interface ServerIdentity {
  name: string;
  title: string;
  description: string;
  version: string;
  packages: ServerPackage[];
}

const root = dirname(createRequire(import.meta.url).resolve("docket/package.json"));

/**
 * docket's identity as the MCP Registry lists it: `server.json` at the package root (shipped in the
 * npm package, see package.json "files"), read once. The server card and the agent card both say it.
 */
export const identity: ServerIdentity = JSON.parse(readFileSync(join(root, "server.json"), "utf8"));

/** The namespace of docket's registry name (`io.github.docket` of `io.github.docket/docket`): its `_meta` keys. */
export const namespace = identity.name.split("/")[0] as string;
