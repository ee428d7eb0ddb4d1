import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  type ContractFunctionName,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import type { ContractCall } from "../chain/client.js";

/**
 * Signs and sends transactions as one account and waits for them to be mined. The seed and the
 * tests use it; the server never does (it holds no key).
 */
export class Actor {
  readonly wallet;
  constructor(
    readonly account: Account,
    readonly chain: Chain,
    readonly reader: PublicClient,
  ) {
    this.wallet = createWalletClient({
      account,
      chain,
      transport: http(chain.rpcUrls.default.http[0], { retryCount: 0 }),
    });
  }

  get address(): Address {
    return this.account.address;
  }

  async write<const abi extends Abi, name extends ContractFunctionName<abi, "payable" | "nonpayable">>(
    req: ContractCall<abi, name>,
  ): Promise<TransactionReceipt> {
    // biome-ignore lint/suspicious/noExplicitAny: viem's overloads cannot follow the generic here
    const hash = await this.wallet.writeContract(req as any);
    return this.mined(hash);
  }

  /** Sends a raw `{ to, value, data }`, as a wallet does with docket's unsigned_tx. */
  async send(tx: { to: Address; value?: bigint | string; data?: Hex }): Promise<TransactionReceipt> {
    const hash = await this.wallet.sendTransaction({
      account: this.account,
      chain: this.chain,
      to: tx.to,
      value: tx.value === undefined ? undefined : BigInt(tx.value),
      data: tx.data,
    });
    return this.mined(hash);
  }

  /**
   * Waits for the receipt by asking for it (not by watching for a next block, which never comes
   * when an automining dev chain has already mined the transaction).
   */
  async mined(hash: Hex, timeoutMs = 30_000): Promise<TransactionReceipt> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const receipt = await this.reader.getTransactionReceipt({ hash }).catch(() => undefined);
      if (receipt) {
        if (receipt.status !== "success") {
          const tx = await this.reader.getTransaction({ hash });
          throw new Error(`transaction ${hash} reverted (gas used ${receipt.gasUsed} of ${tx.gas})`);
        }
        return receipt;
      }
      if (Date.now() > end) throw new Error(`transaction ${hash} was not mined within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
