import type { WithdrawNetwork } from "@candor/contract";
import { formatAmount, getAssets, isOpen, parseAmount, type Amount } from "@candor/kernel";
import { bytesToHex, publicToAddress } from "@ethereumjs/util";
import { getAddress, type Hex } from "viem";
import { HDKey } from "viem/accounts";
import { submit, type EngineSubmitQuery } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { ChainAdapter, TokenTransfer } from "./chain-adapter.ts";
import type { ChainDepositRow, ChainRepository } from "./chain.repository.ts";

/** One network deposits are accepted on. */
export interface ChainNetworkConfig {
  network: WithdrawNetwork;
  adapter: ChainAdapter;
  /** The token contract (lower-case) and its decimals. */
  token: Hex;
  tokenDecimals: number;
  assetId: string;
  /** Blocks on top of the transfer's block, the transfer's own included (default 12). */
  confirmations: number;
  /** Below this (whole units) a transfer is recorded but not credited. */
  minimum: string;
  /** True for the in-process local chain: shown so nobody takes it for a real network. */
  testChain: boolean;
  /** Blocks per `eth_getLogs` call (default 2,000). */
  scanChunk?: number;
}

export interface ChainDepositsOptions {
  engine: EngineSubmitQuery;
  repository: ChainRepository;
  /** The operator's extended public key (xpub): watch-only, deposit addresses are its children. */
  xpub: string;
  networks: readonly ChainNetworkConfig[];
  now: () => number;
}

/** Who a deposit address is for. */
export interface ChainDepositSession {
  ownerId: string;
  mode: "real" | "demo";
  demoOnly: boolean;
}

/** Child indexes are unhardened 31-bit numbers: user ids above that get no address. */
const indexMax = 2n ** 31n - 1n;

/**
 * Crypto deposits (spec recharge, rechargeList): each real user's address per network is the
 * child (index = user id) of the operator's xpub, so the server holds no private key for it;
 * the watcher reads `Transfer` logs of the configured token to those addresses, waits the
 * configured confirmations and credits through the kernel's `credit_deposit` exactly once
 * (unique by chain, transaction hash and log index; see `creditConfirmed`).
 */
export class ChainDeposits {
  private readonly root: HDKey;
  private readonly running = new Map<number, Promise<void>>();

  constructor(private readonly options: ChainDepositsOptions) {
    this.root = HDKey.fromExtendedKey(options.xpub);
    if (this.root.privateKey) throw new Error("CHAIN_XPUB must be a public key (xpub), not xprv");
  }

  /** The derived address of user `index` (EIP-55). */
  addressAt(index: bigint): Hex {
    if (index < 0n || index > indexMax) throw new AppError("internal_error");
    const child = this.root.deriveChild(Number(index));
    return getAddress(bytesToHex(publicToAddress(child.publicKey!, true)));
  }

  /** The user's deposit address on every configured network, recorded for the watcher. */
  async addresses(session: ChainDepositSession) {
    requireReal(session);
    const items = [];
    for (const net of this.options.networks) {
      const index = BigInt(session.ownerId);
      const address = await this.options.repository.saveAddress({
        ownerId: session.ownerId,
        network: net.network,
        index,
        address: this.addressAt(index).toLowerCase(),
        atMs: this.options.now(),
      });
      items.push({
        network: net.network,
        chainId: net.adapter.chainId,
        testChain: net.testChain,
        asset: net.assetId,
        token: getAddress(net.token),
        address: getAddress(address),
        minimum: net.minimum,
        confirmations: net.confirmations,
      });
    }
    return { items };
  }

  /** The user's deposits, newest first, with their confirmations. */
  async list(session: ChainDepositSession, limit: number) {
    requireReal(session);
    const rows = await this.options.repository.ofOwner(session.ownerId, limit);
    const heads = new Map<number, bigint | undefined>();
    for (const net of this.options.networks) {
      heads.set(net.adapter.chainId, await net.adapter.head().catch(() => undefined));
    }
    return {
      items: rows.map((row) => {
        const net = this.options.networks.find((n) => n.adapter.chainId === row.chainId);
        const head = heads.get(row.chainId);
        const seen = head === undefined ? 0n : head - row.blockNumber + 1n;
        const required = net?.confirmations ?? 0;
        return {
          depositId: String(row.id),
          network: row.network as WithdrawNetwork,
          asset: row.assetId,
          amount: formatAmount(row.creditAmount as Amount, this.scaleOf(row.assetId)),
          txHash: row.txHash,
          logIndex: row.logIndex,
          state: row.state === "crediting" ? ("confirming" as const) : row.state,
          confirmations:
            row.state === "credited" || row.state === "below_minimum"
              ? required
              : Math.max(0, Math.min(required, Number(seen))),
          confirmationsRequired: required,
          postingSeq: row.postingSeq === null ? null : String(row.postingSeq),
          seenAtMs: row.seenAtMs,
          creditedAtMs: row.creditedAtMs,
        };
      }),
    };
  }

  /** One round on every network (the poller calls this; tests call it directly). */
  async pollAll(): Promise<void> {
    for (const net of this.options.networks) await this.poll(net);
  }

  /** One round on one network; rounds of one network never overlap. */
  poll(net: ChainNetworkConfig): Promise<void> {
    const chainId = net.adapter.chainId;
    const previous = this.running.get(chainId);
    if (previous) return previous;
    const run = this.round(net).finally(() => this.running.delete(chainId));
    this.running.set(chainId, run);
    return run;
  }

  private async round(net: ChainNetworkConfig): Promise<void> {
    const { repository } = this.options;
    const chainId = net.adapter.chainId;
    const head = await net.adapter.head();
    const cursor = (await repository.cursor(chainId)) ?? -1n;
    // Re-read the unconfirmed depth every round: a reorganisation inside it changes the logs.
    let from = cursor - BigInt(net.confirmations) + 1n;
    if (from < 0n) from = 0n;
    if (cursor > head) from = 0n; // a chain that went back (a fresh local chain): read it again
    const chunk = BigInt(net.scanChunk ?? 2_000);
    for (let start = from; start <= head; start += chunk) {
      const end = start + chunk - 1n < head ? start + chunk - 1n : head;
      const transfers = await net.adapter.tokenTransfers(net.token, start, end);
      await this.record(net, transfers);
    }
    await repository.setCursor(chainId, head);
    await this.settle(net, head);
  }

  /** Records transfers of the configured token to known deposit addresses; others are ignored. */
  private async record(net: ChainNetworkConfig, transfers: TokenTransfer[]): Promise<void> {
    const wanted = transfers.filter((t) => t.token === net.token.toLowerCase());
    const owners = await this.options.repository.ownersOf(net.network, [
      ...new Set(wanted.map((t) => t.to.toLowerCase())),
    ]);
    const scale = this.scaleOf(net.assetId);
    const minimum = parseAmount(net.minimum, scale);
    for (const transfer of wanted) {
      const ownerId = owners.get(transfer.to.toLowerCase());
      if (ownerId === undefined || transfer.amount <= 0n) continue;
      const creditAmount = toAssetUnits(transfer.amount, net.tokenDecimals, scale);
      const below = !minimum.ok || creditAmount < minimum.value || creditAmount === 0n;
      await this.options.repository.recordSeen({
        network: net.network,
        chainId: net.adapter.chainId,
        txHash: transfer.txHash,
        logIndex: transfer.logIndex,
        ownerId,
        address: transfer.to.toLowerCase(),
        token: transfer.token,
        assetId: net.assetId,
        amount: transfer.amount,
        creditAmount,
        blockNumber: transfer.blockNumber,
        blockHash: transfer.blockHash,
        state: below ? "below_minimum" : "confirming",
        seenAtMs: this.options.now(),
      });
    }
  }

  /** Drops what a reorganisation removed; credits what has its confirmations. */
  private async settle(net: ChainNetworkConfig, head: bigint): Promise<void> {
    const { repository } = this.options;
    for (const row of await repository.open(net.adapter.chainId)) {
      if (row.state === "crediting") {
        await this.credit(row);
        continue;
      }
      const hash = await net.adapter.blockHash(row.blockNumber);
      if (hash !== row.blockHash) {
        await repository.drop(row.id);
        continue;
      }
      if (head - row.blockNumber + 1n < BigInt(net.confirmations)) continue;
      if (await repository.claim(row.id)) await this.credit({ ...row, state: "crediting" });
    }
  }

  /**
   * Credits a claimed deposit with command id `chain_deposit:<chain>:<tx>:<log>`. A crash
   * between the claim and the kernel's answer leaves it 'crediting'; the next round submits the
   * same command again, which the kernel answers as a duplicate within its idempotency window,
   * and the statement read model (a line with that command id) answers after it.
   */
  private async credit(row: ChainDepositRow): Promise<void> {
    const commandId = `chain_deposit:${row.chainId}:${row.txHash}:${row.logIndex}`;
    const earlier = await this.options.repository.postingOfCommand(commandId);
    if (earlier !== undefined) {
      await this.options.repository.credited(row.id, earlier, this.options.now());
      return;
    }
    if (!this.options.engine.query((s) => isOpen(s, row.ownerId, "real"))) return;
    const applied = await submit(this.options.engine, {
      type: "credit_deposit",
      id: commandId,
      ownerId: row.ownerId,
      mode: "real",
      assetId: row.assetId,
      amount: row.creditAmount,
      reference: `${row.network}:${row.txHash}:${row.logIndex}`,
      operatorId: null,
    });
    if (!applied.result.ok) return; // left 'crediting'; retried next round
    await this.options.repository.credited(
      row.id,
      applied.result.value.postingSeq,
      applied.command.atMs,
    );
  }

  private scaleOf(assetId: string): number {
    const asset = this.options.engine.query((s) => getAssets(s)).find((a) => a.assetId === assetId);
    return asset?.scale ?? 0;
  }
}

/**
 * Token units → the asset's units, rounding down: digits finer than the asset's scale cannot
 * be credited (and are not: the user is credited what the ledger can hold, never more).
 */
export function toAssetUnits(amount: bigint, tokenDecimals: number, scale: number): bigint {
  if (scale >= tokenDecimals) return amount * 10n ** BigInt(scale - tokenDecimals);
  return amount / 10n ** BigInt(tokenDecimals - scale);
}

function requireReal(session: ChainDepositSession): void {
  if (session.demoOnly || session.mode === "demo") {
    throw new AppError("demo_deposit_not_allowed");
  }
}
