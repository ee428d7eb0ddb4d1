import { LRUCache } from "lru-cache";
import type { Ctx, Operation, RequestInfo } from "../operations/kernel/operation.js";
import { cachedAnswer, type OperationResult, type Prepared, prepare, run } from "../operations/kernel/run.js";

/**
 * What a door knows of the caller's request beyond its input: the facts an operation may ask for
 * (`RequestInfo`). Each door says them its own way; the kernel makes them one `RequestInfo`.
 */
export interface Caller {
  transport: "http" | "mcp";
  /** The caller's headers (HTTP); none over MCP or from the explorer's own reads. */
  headers?: Record<string, string | undefined>;
  /** The resource's absolute URL, for payment requirements: worked out only if an operation reads it. */
  resourceUrl?: () => string;
  /** Over MCP: the x402 PaymentPayload the call carries in `_meta["x402/payment"]`. */
  payment?: unknown;
}

/** A door's own read of an operation, with no request behind it (a resource, the prompt, the explorer). */
const OWN_READ: Record<Caller["transport"], Caller> = {
  http: { transport: "http" },
  mcp: { transport: "mcp" },
};

/** Inputs remembered by a door at most, and the longest key remembered (longer ones are validated every time). */
const MEMO_ENTRIES = 10_000;
const MEMO_KEY_MAX = 256;

/**
 * The door kernel: the one way every door into docket runs an operation (the HTTP routes, MCP's
 * fast path and its tools, resources and prompt, the explorer). A door hands it the operation, the
 * raw input and the facts of the request; the kernel validates once (`prepare`, remembering the
 * input under a key the door chooses, such as a GET's URL), answers a read fresh in the
 * in-process cache synchronously (`cached`), and runs everything else through `operations/kernel/run.ts`
 * with the request's info built only then (`run`). Failures leave as DocketErrors, which each door
 * says its own way (an HTTP envelope, a tool error result, a JSON-RPC error, an error page).
 *
 * @example
 * const door = new DoorKernel(ctx);
 * const prepared = door.prepare(op, req.url, httpInput, req);
 * const r = door.cached(prepared) ?? door.run(op, prepared, { transport: "http", headers: req.headers });
 */
export class DoorKernel {
  /**
   * Validated inputs by the door's key: a repeated request skips parsing and validation. Bounded;
   * invalid inputs are not kept. Made on the first keyed request (an MCP server, built per stateless
   * request, makes a kernel it never asks to remember anything).
   */
  private memo?: LRUCache<string, Prepared>;

  constructor(readonly ctx: Ctx) {}

  /**
   * The request's input, `read(op, from)`, validated for `op` (docket's validation errors are
   * thrown) with its cache key. Given a `key` that names the input exactly (a GET's URL; a tool's
   * name and arguments), the result is remembered and the input is not even read on the next
   * request with that key. Inputs are never mutated, so one may serve any number of requests.
   * (`read` and `from` rather than a closure: nothing is allocated for a remembered request.)
   */
  prepare<F>(op: Operation, key: string | undefined, read: (op: Operation, from: F) => unknown, from: F): Prepared {
    if (key === undefined) return prepare(op, read(op, from));
    this.memo ??= new LRUCache<string, Prepared>({ max: MEMO_ENTRIES });
    let prepared = this.memo.get(key);
    if (prepared === undefined) {
      prepared = prepare(op, read(op, from));
      if (key.length <= MEMO_KEY_MAX) this.memo.set(key, prepared);
    }
    return prepared;
  }

  /** A read's answer when it is fresh in the in-process cache, synchronously; undefined otherwise. */
  cached(prepared: Prepared): OperationResult | undefined {
    return cachedAnswer(prepared, this.ctx);
  }

  /** Runs a prepared request: at once on a cache hit, else through the cache or the handler (a promise). */
  run(op: Operation, prepared: Prepared, caller: Caller): OperationResult | Promise<OperationResult> {
    return run(op, prepared, this.ctx, requestInfo(caller));
  }

  /** `prepare` then `run`, always as a promise: for a door with raw input and no hurry (a resource, a page). */
  async call(op: Operation, raw: unknown, caller: Caller | Caller["transport"]): Promise<OperationResult> {
    return this.run(op, prepare(op, raw), typeof caller === "string" ? OWN_READ[caller] : caller);
  }
}

/** The operation of `operations` named `name`: doors find operations by name, never by a route. */
export function operationNamed(operations: readonly Operation[], name: string): Operation | undefined {
  return operations.find((o) => o.name === name);
}

/** The caller's facts as the operations read them; the resource URL stays lazy. */
function requestInfo(caller: Caller): RequestInfo {
  const info: RequestInfo = { transport: caller.transport, headers: caller.headers ?? {} };
  if (caller.resourceUrl) Object.defineProperty(info, "resourceUrl", { get: caller.resourceUrl, enumerable: true });
  if (caller.payment !== undefined) info.payment = caller.payment;
  return info;
}
