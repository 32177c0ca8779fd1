import { createBlock } from "@ethereumjs/block";
import { createCustomCommon, Hardfork, Mainnet, type Common } from "@ethereumjs/common";
import { createLegacyTx, createTxFromRLP, type TypedTransaction } from "@ethereumjs/tx";
import {
  bytesToHex,
  createAccount,
  createAddressFromPrivateKey,
  createAddressFromString,
  hexToBytes,
  type Address,
} from "@ethereumjs/util";
import { createVM, runTx, type VM } from "@ethereumjs/vm";
import { encodeFunctionData, keccak256, type Hex } from "viem";
import type { Eip1193Like, RpcLog } from "../chain-adapter.ts";
import { testTokenBytecode } from "./test-token.bytecode.ts";

/** The chain id of the local chain (the usual id of a development chain). */
export const localChainId = 31337;

const tokenAbi = [
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [],
  },
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

interface LocalReceipt {
  transactionHash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  status: 0 | 1;
  logs: RpcLog[];
  contractAddress: Hex | null;
}

interface LocalBlock {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  timestamp: bigint;
  /** State after the block, to return to on a reorganisation. */
  stateRoot: Uint8Array;
  receipts: LocalReceipt[];
}

const gasPrice = 1_000_000_000n;
const ether = 10n ** 18n;

/**
 * An in-process EVM chain (@ethereumjs/vm) for tests and `npm start` without a node: one block
 * per transaction (or `mine`), a test ERC-20 deployed by the faucet key, reorganisations on
 * request, and the few JSON-RPC methods the EVM adapter uses, answered through `request`.
 * It is a stand-in for a real network: nothing on it has value.
 */
export class LocalChain implements Eip1193Like {
  private readonly blocks: LocalBlock[] = [];
  private readonly nonces = new Map<string, bigint>();
  private salt = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** The test token's address once `start` deployed it. */
  token: Hex = "0x0000000000000000000000000000000000000000";

  private constructor(
    private readonly vm: VM,
    private readonly common: Common,
    private readonly faucetKey: Uint8Array,
  ) {}

  /** A chain whose genesis funds `fundedKeys` (and the faucet) with ether for gas. */
  static async start(options: { faucetKey: Hex; fundedKeys?: Hex[] }): Promise<LocalChain> {
    const common = createCustomCommon({ chainId: localChainId }, Mainnet, {
      hardfork: Hardfork.Shanghai,
    });
    const vm = await createVM({ common });
    const chain = new LocalChain(vm, common, hexToBytes(options.faucetKey));
    for (const key of [options.faucetKey, ...(options.fundedKeys ?? [])]) {
      await chain.fund(createAddressFromPrivateKey(hexToBytes(key)));
    }
    chain.blocks.push({
      number: 0n,
      hash: blockHash(0n, zeroHash, 0, []),
      parentHash: zeroHash,
      timestamp: 0n,
      stateRoot: await vm.stateManager.getStateRoot(),
      receipts: [],
    });
    const deployed = await chain.sendSigned(options.faucetKey, { data: testTokenBytecode });
    const receipt = chain.receipt(deployed);
    if (!receipt?.contractAddress || receipt.status !== 1) throw new Error("token not deployed");
    chain.token = receipt.contractAddress;
    return chain;
  }

  get head(): bigint {
    return this.blocks[this.blocks.length - 1]!.number;
  }

  /** Mints test tokens from the faucet (minter) to `to`; the transaction hash. */
  async mint(to: Hex, amount: bigint): Promise<Hex> {
    return this.sendSigned(bytesToHex(this.faucetKey), {
      to: this.token,
      data: encodeFunctionData({ abi: tokenAbi, functionName: "mint", args: [to, amount] }),
    });
  }

  /** An ERC-20 `transfer` of exactly `amount` signed by `key`; the transaction hash. */
  async transferToken(key: Hex, to: Hex, amount: bigint, token: Hex = this.token): Promise<Hex> {
    return this.sendSigned(key, {
      to: token,
      data: encodeFunctionData({ abi: tokenAbi, functionName: "transfer", args: [to, amount] }),
    });
  }

  /** Deploys another copy of the test token (a "wrong token" for tests); its address. */
  async deployOtherToken(): Promise<Hex> {
    const hash = await this.sendSigned(bytesToHex(this.faucetKey), { data: testTokenBytecode });
    return this.receipt(hash)!.contractAddress!;
  }

  /** Mints `count` empty blocks. */
  async mine(count = 1): Promise<void> {
    await this.serial(async () => {
      for (let i = 0; i < count; i++) await this.seal([]);
    });
  }

  /**
   * Replaces the last `depth` blocks by `depth + 1` empty ones with other hashes: their
   * transactions are gone, as after a reorganisation that dropped them.
   */
  async reorg(depth: number): Promise<void> {
    await this.serial(async () => {
      if (depth <= 0 || depth >= this.blocks.length) throw new Error("bad reorg depth");
      this.blocks.splice(this.blocks.length - depth, depth);
      await this.vm.stateManager.setStateRoot(this.blocks[this.blocks.length - 1]!.stateRoot);
      this.nonces.clear();
      this.salt++;
      for (let i = 0; i <= depth; i++) await this.seal([]);
    });
  }

  /** The token balance of `owner` (a read of the `balanceOf` mapping through a call). */
  async balanceOf(owner: Hex, token: Hex = this.token): Promise<bigint> {
    const data = `0x70a08231${owner.slice(2).toLowerCase().padStart(64, "0")}` as Hex;
    const result = await this.vm.evm.runCall({
      to: createAddressFromString(token),
      data: hexToBytes(data),
      gasLimit: 1_000_000n,
    });
    return BigInt(bytesToHex(result.execResult.returnValue));
  }

  async request(args: { method: string; params?: readonly unknown[] }): Promise<unknown> {
    const params = args.params ?? [];
    switch (args.method) {
      case "eth_chainId":
        return `0x${localChainId.toString(16)}`;
      case "eth_blockNumber":
        return quantity(this.head);
      case "eth_getBlockByNumber": {
        const tag = params[0] as string;
        const number = tag === "latest" ? this.head : BigInt(tag);
        const block = this.blocks.find((b) => b.number === number);
        return block
          ? {
              number: quantity(block.number),
              hash: block.hash,
              parentHash: block.parentHash,
              timestamp: quantity(block.timestamp),
            }
          : null;
      }
      case "eth_getLogs":
        return this.logs(params[0] as LogFilter);
      case "eth_getTransactionReceipt": {
        const receipt = this.receipt(params[0] as Hex);
        return receipt
          ? {
              transactionHash: receipt.transactionHash,
              blockNumber: quantity(receipt.blockNumber),
              blockHash: receipt.blockHash,
              status: receipt.status === 1 ? "0x1" : "0x0",
              logs: receipt.logs,
              contractAddress: receipt.contractAddress,
            }
          : null;
      }
      case "eth_getTransactionCount":
        return quantity(await this.nonceOf(createAddressFromString(params[0] as string)));
      case "eth_gasPrice":
        return quantity(gasPrice);
      case "eth_sendRawTransaction": {
        const tx = createTxFromRLP(hexToBytes(params[0] as Hex), { common: this.common });
        return this.serial(() => this.include(tx));
      }
      default:
        throw new Error(`local chain: ${args.method} is not supported`);
    }
  }

  private receipt(hash: Hex): LocalReceipt | undefined {
    for (const block of this.blocks) {
      const found = block.receipts.find((r) => r.transactionHash === hash.toLowerCase());
      if (found) return found;
    }
    return undefined;
  }

  private logs(filter: LogFilter): RpcLog[] {
    const from = filter.fromBlock === undefined ? 0n : BigInt(filter.fromBlock);
    const to = filter.toBlock === undefined ? this.head : BigInt(filter.toBlock);
    const addresses =
      filter.address === undefined
        ? undefined
        : (Array.isArray(filter.address) ? filter.address : [filter.address]).map((a) =>
            a.toLowerCase(),
          );
    const out: RpcLog[] = [];
    for (const block of this.blocks) {
      if (block.number < from || block.number > to) continue;
      for (const receipt of block.receipts) {
        for (const log of receipt.logs) {
          if (addresses && !addresses.includes(log.address)) continue;
          const topics = filter.topics ?? [];
          const matches = topics.every((wanted, i) => {
            if (wanted === null || wanted === undefined) return true;
            const options = Array.isArray(wanted) ? wanted : [wanted];
            return options.some((t) => t.toLowerCase() === log.topics[i]);
          });
          if (matches) out.push(log);
        }
      }
    }
    return out;
  }

  private async sendSigned(key: Hex, tx: { to?: Hex; data: Hex }): Promise<Hex> {
    return this.serial(async () => {
      const keyBytes = hexToBytes(key);
      const from = createAddressFromPrivateKey(keyBytes);
      const signed = createLegacyTx(
        {
          nonce: await this.nonceOf(from),
          gasPrice,
          gasLimit: 3_000_000n,
          ...(tx.to ? { to: tx.to } : {}),
          data: tx.data,
        },
        { common: this.common },
      ).sign(keyBytes);
      return this.include(signed);
    });
  }

  private async include(tx: TypedTransaction): Promise<Hex> {
    const hash = bytesToHex(tx.hash()).toLowerCase() as Hex;
    if (this.receipt(hash)) return hash;
    const expected = await this.nonceOf(tx.getSenderAddress());
    if (tx.nonce !== expected) throw new Error(`nonce ${tx.nonce} is not the next (${expected})`);
    await this.seal([tx]);
    return hash;
  }

  /** Runs `txs` in a new block on top of the head and appends it. */
  private async seal(txs: TypedTransaction[]): Promise<void> {
    const parent = this.blocks[this.blocks.length - 1]!;
    const number = parent.number + 1n;
    const timestamp = parent.timestamp + 12n;
    const block = createBlock(
      {
        header: {
          number,
          timestamp,
          gasLimit: 30_000_000n,
          baseFeePerGas: 7n,
        },
      },
      { common: this.common },
    );
    const hashes = txs.map((tx) => bytesToHex(tx.hash()).toLowerCase() as Hex);
    const hash = blockHash(number, parent.hash, this.salt, hashes);
    const receipts: LocalReceipt[] = [];
    let logIndex = 0;
    for (const [i, tx] of txs.entries()) {
      const result = await runTx(this.vm, { tx, block, skipHardForkValidation: true });
      const sender = tx.getSenderAddress().toString().toLowerCase();
      this.nonces.set(sender, tx.nonce + 1n);
      const failed = result.execResult.exceptionError !== undefined;
      const logs: RpcLog[] = failed
        ? []
        : (result.execResult.logs ?? []).map(([address, topics, data]) => ({
            address: bytesToHex(address).toLowerCase() as Hex,
            topics: topics.map((t) => bytesToHex(t).toLowerCase() as Hex),
            data: bytesToHex(data) as Hex,
            blockNumber: quantity(number),
            blockHash: hash,
            transactionHash: hashes[i]!,
            logIndex: quantity(BigInt(logIndex++)),
            removed: false,
          }));
      receipts.push({
        transactionHash: hashes[i]!,
        blockNumber: number,
        blockHash: hash,
        status: failed ? 0 : 1,
        logs,
        contractAddress: result.createdAddress
          ? (result.createdAddress.toString().toLowerCase() as Hex)
          : null,
      });
    }
    this.blocks.push({
      number,
      hash,
      parentHash: parent.hash,
      timestamp,
      stateRoot: await this.vm.stateManager.getStateRoot(),
      receipts,
    });
  }

  private async nonceOf(address: Address): Promise<bigint> {
    const key = address.toString().toLowerCase();
    const known = this.nonces.get(key);
    if (known !== undefined) return known;
    const account = await this.vm.stateManager.getAccount(address);
    return account?.nonce ?? 0n;
  }

  private async fund(address: Address): Promise<void> {
    await this.vm.stateManager.putAccount(address, createAccount({ balance: 1000n * ether }));
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

interface LogFilter {
  fromBlock?: string;
  toBlock?: string;
  address?: string | string[];
  topics?: (string | string[] | null)[];
}

const zeroHash = `0x${"0".repeat(64)}` as Hex;

function quantity(value: bigint): Hex {
  return `0x${value.toString(16)}`;
}

function blockHash(number: bigint, parent: Hex, salt: number, txs: Hex[]): Hex {
  const text = `${number}|${parent}|${salt}|${txs.join(",")}`;
  return keccak256(new TextEncoder().encode(text));
}
