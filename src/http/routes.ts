import { DocketError } from "../errors/errors.js";
import type { Operation } from "../operations/kernel/operation.js";

/** A request's operation and its decoded path parameters. */
export interface RouteMatch {
  op: Operation;
  params: Record<string, string>;
}

/** A path segment of an operation's route: fixed text, or a `:name` parameter. */
type Segment = { text: string } | { param: string };

interface Route {
  op: Operation;
  segments: Segment[];
}

/**
 * The operation table as a router: paths split once into segments, matched segment by segment.
 * Express's own rules are kept: fixed segments are case-insensitive, one trailing slash is allowed,
 * a parameter is a non-empty segment and is percent-decoded; HEAD is served by the GET route.
 */
export class RouteTable {
  private readonly routes: Route[];
  /** The routes by method and number of segments, in table order: a request looks only at those that could match. */
  private readonly byShape = new Map<string, Route[][]>();

  constructor(readonly operations: readonly Operation[]) {
    this.routes = operations.map((op) => ({
      op,
      segments: op.http.path
        .split("/")
        .slice(1)
        .map((s) => (s.startsWith(":") ? { param: s.slice(1) } : { text: s.toLowerCase() })),
    }));
    for (const route of this.routes) {
      const method = route.op.http.method;
      const byLength = this.byShape.get(method) ?? [];
      this.byShape.set(method, byLength);
      const n = route.segments.length;
      const same = byLength[n] ?? [];
      byLength[n] = same;
      same.push(route);
    }
  }

  /**
   * The operation for this method and path (the path without its query). Undefined when none
   * matches; a path that matches with an undecodable parameter is refused with INVALID_INPUT.
   */
  match(method: string, path: string): RouteMatch | undefined {
    const want = method === "HEAD" ? "GET" : method;
    const parts = splitPath(path);
    if (!parts) return undefined;
    for (const route of this.byShape.get(want)?.[parts.length] ?? []) {
      const params = matchSegments(route.segments, parts);
      if (params) return { op: route.op, params };
    }
    return undefined;
  }

  /** The methods some route serves at this path (for 405 and its Allow header); empty when none. */
  allowed(path: string): string[] {
    const parts = splitPath(path);
    if (!parts) return [];
    const methods = new Set<string>();
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      let params: Record<string, string> | undefined;
      try {
        params = matchSegments(route.segments, parts);
      } catch {
        params = {};
      }
      if (!params) continue;
      if (route.op.http.method === "GET") methods.add("GET").add("HEAD");
      else methods.add(route.op.http.method);
    }
    return [...methods];
  }
}

/** "/a/b/" → ["a", "b"]; undefined for a path that is not absolute. */
function splitPath(path: string): string[] | undefined {
  if (!path.startsWith("/")) return undefined;
  const parts = path.split("/");
  parts.shift();
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as Segment;
    const part = parts[i] as string;
    if ("text" in seg) {
      if (part.toLowerCase() !== seg.text) return undefined;
    } else {
      if (part === "") return undefined;
      params[seg.param] = decodeParam(part);
    }
  }
  return params;
}

function decodeParam(part: string): string {
  if (!part.includes("%")) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    throw new DocketError("INVALID_INPUT", "the path is not valid percent-encoding");
  }
}
