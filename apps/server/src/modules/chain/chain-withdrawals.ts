import { createCustomCommon, Hardfork, Mainnet } from "@ethereumjs/common";
import { createLegacyTx } from "@ethereumjs/tx";
import { bytesToHex, hexToBytes } from "@ethereumjs/util";
import { encodeFunctionData, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import type { OperatorWithdrawalView as OperatorWithdrawalViewSchema } from "@candor/contract";
import type { z } from "zod";
import { AppError } from "../../http/app-error.ts";
import type { ChainNetworkConfig } from "./chain-deposits.ts";
import type { ChainRepository } from "./chain.repository.ts";

const transferAbi = [
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
] as const;

type OperatorWithdrawalView = z.infer<typeof OperatorWithdrawalViewSchema>;

/** The fields of a withdrawal record this side reads (the wallet module's row). */
interface WithdrawalRow {
  id: bigint;
  assetId: string;
  network: string;
  address: string;
  amount: bigint;
  status: string;
  txHash: string | null;
}

/** The wallet module's withdrawal steps this side drives (its WalletWithdrawals). */
export interface WithdrawalSteps {
  markSent(withdrawalId: string, operatorId: string, txHash: string): Promise<unknown>;
  complete(withdrawalId: string, operatorId: string | null): Promise<unknown>;
  operatorDetail(withdrawalId: string): Promise<OperatorWithdrawalView>;
}

export interface ChainWithdrawalsOptions {
  withdrawals: WithdrawalSteps;
  records: {
    byId(id: bigint): Promise<WithdrawalRow | undefined>;
    inStatus(status: "sent", limit: number): Promise<WithdrawalRow[]>;
  };
  repository: ChainRepository;
  networks: readonly ChainNetworkConfig[];
  /**
   * The operator's hot-wallet key on the local chain (CHAIN_MODE=local). Unset (rpc mode): the
   * operator pays out from their own custody and records the hash with `.../sent`; the watcher
   * still completes it once the payout is confirmed.
   */
  hotKey?: Hex;
  scaleOf: (assetId: string) => number;
  now: () => number;
  log?: (message: string, error?: unknown) => void;
}

/**
 * On-chain payouts of approved withdrawals: the operator's "broadcast" signs an ERC-20
 * `transfer` of exactly the withdrawal's amount to its address (never an `approve`), stores the
 * signed transaction, marks the withdrawal sent with its hash and broadcasts it; the watcher
 * completes a sent withdrawal once its transaction has the confirmations and pays exactly that
 * amount of the configured token to that address.
 */
export class ChainWithdrawals {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ChainWithdrawalsOptions) {}

  get canSign(): boolean {
    return this.options.hotKey !== undefined;
  }

  /** Signs (once per withdrawal), marks sent and broadcasts; one at a time (nonces). */
  broadcast(withdrawalId: string, operatorId: string) {
    const run = this.queue.then(() => this.broadcastNow(withdrawalId, operatorId));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async broadcastNow(withdrawalId: string, operatorId: string) {
    const { repository, records, withdrawals } = this.options;
    const row = await records.byId(BigInt(withdrawalId));
    if (!row || row.status === "requested") throw new AppError("withdrawal_not_found");
    const net = this.networkOf(row);
    if (!net || !this.options.hotKey) throw new AppError("withdraw_not_supported");
    let send = await repository.sendOf(row.id);
    if (!send) {
      if (row.status !== "approved") throw new AppError("withdrawal_state_invalid");
      const amount = this.tokenAmount(row, net);
      const key = this.options.hotKey;
      const nonce = await net.adapter.nonce(privateKeyToAddress(key));
      const common = createCustomCommon({ chainId: net.adapter.chainId }, Mainnet, {
        hardfork: Hardfork.Shanghai,
      });
      const tx = createLegacyTx(
        {
          nonce,
          gasPrice: await net.adapter.gasPrice(),
          gasLimit: 100_000n,
          to: net.token,
          value: 0n,
          data: encodeFunctionData({
            abi: transferAbi,
            functionName: "transfer",
            args: [row.address as Hex, amount],
          }),
        },
        { common },
      ).sign(hexToBytes(key));
      const signed = {
        txHash: bytesToHex(tx.hash()).toLowerCase() as Hex,
        raw: bytesToHex(tx.serialize()) as Hex,
        chainId: net.adapter.chainId,
      };
      await repository.saveSend({
        withdrawalId: row.id,
        ...signed,
        nonce,
        atMs: this.options.now(),
      });
      send = (await repository.sendOf(row.id))!;
    }
    if (row.status === "approved") {
      await withdrawals.markSent(String(row.id), operatorId, send.txHash);
    } else if (row.status !== "sent" || row.txHash !== send.txHash) {
      throw new AppError("withdrawal_state_invalid");
    }
    await this.rebroadcast(net, send.raw);
    return withdrawals.operatorDetail(String(row.id));
  }

  /** Completes sent withdrawals whose payout is confirmed; re-broadcasts stored ones not seen. */
  async pollSent(): Promise<void> {
    const { records, repository } = this.options;
    const heads = new Map<number, bigint>();
    for (const row of await records.inStatus("sent", 200)) {
      const net = this.networkOf(row);
      if (!net || row.txHash === null) continue;
      const chainId = net.adapter.chainId;
      if (!heads.has(chainId)) heads.set(chainId, await net.adapter.head());
      const head = heads.get(chainId)!;
      const receipt = await net.adapter.receipt(row.txHash as Hex);
      if (!receipt) {
        const send = await repository.sendOf(row.id);
        if (send && send.txHash === row.txHash) await this.rebroadcast(net, send.raw);
        continue;
      }
      if (!receipt.ok) continue; // reverted: the operator decides (nothing left the wallet)
      if (head - receipt.blockNumber + 1n < BigInt(net.confirmations)) continue;
      const paid = await net.adapter.tokenTransfers(
        net.token,
        receipt.blockNumber,
        receipt.blockNumber,
      );
      const expected = this.tokenAmount(row, net);
      const pays = paid.some(
        (t) =>
          t.txHash === row.txHash!.toLowerCase() &&
          t.to.toLowerCase() === row.address.toLowerCase() &&
          t.amount === expected,
      );
      if (!pays) {
        this.options.log?.(`withdrawal ${row.id}: ${row.txHash} does not pay its address`);
        continue;
      }
      await this.options.withdrawals.complete(String(row.id), null);
    }
  }

  private async rebroadcast(net: ChainNetworkConfig, raw: Hex): Promise<void> {
    try {
      await net.adapter.broadcast(raw);
    } catch (error) {
      // "already known" and the like: the watcher tries again while it is not mined.
      this.options.log?.("withdrawal broadcast failed", error);
    }
  }

  private networkOf(row: WithdrawalRow): ChainNetworkConfig | undefined {
    return this.options.networks.find(
      (n) => n.network === row.network && n.assetId === row.assetId,
    );
  }

  /** The withdrawal's amount in token units; refused unless exact. */
  private tokenAmount(row: WithdrawalRow, net: ChainNetworkConfig): bigint {
    const scale = this.options.scaleOf(row.assetId);
    if (net.tokenDecimals >= scale) return row.amount * 10n ** BigInt(net.tokenDecimals - scale);
    const unit = 10n ** BigInt(scale - net.tokenDecimals);
    if (row.amount % unit !== 0n) throw new AppError("withdraw_not_supported");
    return row.amount / unit;
  }
}
