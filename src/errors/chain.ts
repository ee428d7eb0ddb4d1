import {
  type Abi,
  BaseError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  decodeErrorResult,
  type Hex,
  HttpRequestError,
  InsufficientFundsError,
  InternalRpcError,
  RpcRequestError,
  TimeoutError,
} from "viem";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi, docketArbitratorAbi } from "../chain/abi/generated.js";
import { DocketError } from "./errors.js";

/** Every court error, so a revert from any of our contracts decodes wherever it surfaces. */
export const courtErrorsAbi = [
  ...caseFactoryAbi,
  ...courtRegistryAbi,
  ...disputeCaseAbi,
  ...docketArbitratorAbi,
].filter((x) => x.type === "error") as Abi;

/** "NotAssignedJudge" -> "not assigned judge" */
function humanize(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
    .toLowerCase();
}

function jsonable(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return v.map(jsonable);
  return v;
}

function argsOf(abiName: string, args: readonly unknown[] | undefined): Record<string, unknown> {
  const item = courtErrorsAbi.find((x) => x.type === "error" && x.name === abiName);
  const out: Record<string, unknown> = {};
  if (item?.type !== "error" || !args) return out;
  item.inputs.forEach((input, i) => {
    out[input.name || `arg${i}`] = jsonable(args[i]);
  });
  return out;
}

/** Revert data as raw hex, found anywhere in a viem error chain. */
function revertData(err: BaseError): Hex | undefined {
  let data: Hex | undefined;
  err.walk((e) => {
    const d = (e as { data?: unknown }).data;
    if (typeof d === "string" && d.startsWith("0x") && d.length >= 10) data = d as Hex;
    else if (d && typeof d === "object" && typeof (d as { data?: unknown }).data === "string") {
      data = (d as { data: Hex }).data;
    }
    return false;
  });
  return data;
}

/**
 * Wraps a failed chain call once, at the operation boundary: a revert becomes CONTRACT_REVERT with
 * the contract's reason; anything else reaching the node becomes RPC_ERROR.
 */
export function wrapChainError(err: unknown, context: Record<string, unknown> = {}): DocketError {
  if (err instanceof DocketError) return err;
  if (err instanceof BaseError) {
    // No code at the address (a wrong address, or a chain without that contract): not the node failing.
    if (err.walk((e) => e instanceof ContractFunctionZeroDataError)) {
      const call = err.walk(
        (e) => e instanceof ContractFunctionExecutionError,
      ) as ContractFunctionExecutionError | null;
      const address = call?.contractAddress;
      return new DocketError(
        "RPC_ERROR",
        `no contract answers at ${address ?? "the called address"}: it holds no code on this chain (a wrong address, or a contract this chain does not have); the node itself answered`,
        { reason: "NoContract", ...(address ? { address } : {}), ...context },
        { cause: err },
      );
    }
    const reverted = err.walk(
      (e) => e instanceof ContractFunctionRevertedError,
    ) as ContractFunctionRevertedError | null;
    // viem reads any JSON-RPC -32603 ("internal error") answer to an eth_call as a possible revert,
    // since some nodes report reverts that way. One without revert data that does not say "revert"
    // is the node failing (overloaded, broken, a proxy in between), not the contract refusing.
    const rpc = err.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
    const said = String(rpc?.details ?? "");
    const hasData = reverted?.raw !== undefined && reverted.raw !== "0x";
    if (reverted && !hasData && rpc?.code === InternalRpcError.code && !/revert/i.test(said)) {
      return new DocketError("RPC_ERROR", `the chain node could not be read: ${said.slice(0, 200)}`, undefined, {
        cause: err,
      });
    }
    let name = reverted?.data?.errorName;
    let args = reverted?.data?.args as readonly unknown[] | undefined;
    let reasonText = reverted?.reason;
    if (!name && !reasonText) {
      const raw = revertData(err);
      if (raw) {
        try {
          const decoded = decodeErrorResult({ abi: courtErrorsAbi, data: raw });
          name = decoded.errorName;
          args = decoded.args as readonly unknown[] | undefined;
        } catch {
          // not one of ours
        }
      }
    }
    if (name === "Error" && args?.[0] !== undefined) {
      reasonText = String(args[0]);
      name = undefined;
    }
    if (name || reasonText || reverted || /revert/i.test(err.shortMessage)) {
      const reason = name ?? reasonText ?? "execution reverted";
      const details: Record<string, unknown> = {
        reason,
        message: name ? humanize(name) : reason,
        ...(name ? { args: argsOf(name, args) } : {}),
        ...context,
      };
      // The caller's choice does not hold against the chain (issue #31): the court it named cannot
      // seat a panel beyond the parties, so the arbitrator refuses the dispute before its fee.
      if (name === "CourtCannotSeatPanel") {
        return new DocketError(
          "VALIDATION_ERROR",
          `the court cannot seat this dispute's panel: ${details.message}`,
          details,
          {
            cause: err,
          },
        );
      }
      return new DocketError("CONTRACT_REVERT", `the contract refused the call: ${details.message}`, details, {
        cause: err,
      });
    }
    // The signer (`from`) cannot pay value + gas: the caller's input does not hold against the chain, as
    // a stake below the minimum does not; nothing is wrong with the node.
    if (err.walk((e) => e instanceof InsufficientFundsError)) {
      return new DocketError(
        "VALIDATION_ERROR",
        "the signer's balance cannot pay this transaction's value plus gas",
        { reason: "InsufficientFunds", ...context },
        { cause: err },
      );
    }
    if (err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof RpcRequestError)) {
      return new DocketError("RPC_ERROR", `the chain node could not be read: ${err.shortMessage}`, undefined, {
        cause: err,
      });
    }
    return new DocketError("RPC_ERROR", `chain call failed: ${err.shortMessage}`, undefined, { cause: err });
  }
  return new DocketError("INTERNAL_ERROR", "unexpected server error", undefined, { cause: err });
}
