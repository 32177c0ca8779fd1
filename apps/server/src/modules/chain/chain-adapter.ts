import { getAddress, type Hex } from "viem";

/** An EIP-1193 style request function: a JSON-RPC node, or the in-process local chain. */
export interface Eip1193Like {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>;
}

/** A log as JSON-RPC returns it. */
export interface RpcLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  transactionHash: Hex;
  logIndex: Hex;
  removed: boolean;
}

/** One token transfer to an address, as a chain adapter reports it. */
export interface TokenTransfer {
  token: Hex;
  from: Hex;
  /** Checksummed (EIP-55). */
  to: Hex;
  amount: bigint;
  blockNumber: bigint;
  blockHash: Hex;
  txHash: Hex;
  logIndex: number;
}

/** What the deposit watcher and the withdrawal sender need from one chain. */
export interface ChainAdapter {
  readonly chainId: number;
  /** The newest block number. */
  head(): Promise<bigint>;
  /** The hash of block `number` on the current chain; undefined when there is none. */
  blockHash(number: bigint): Promise<Hex | undefined>;
  /** Transfers of `token` in blocks [from, to] (any recipient; the caller filters). */
  tokenTransfers(token: Hex, from: bigint, to: bigint): Promise<TokenTransfer[]>;
  /** A mined transaction's block and outcome; undefined while unknown or unmined. */
  receipt(txHash: Hex): Promise<{ blockNumber: bigint; blockHash: Hex; ok: boolean } | undefined>;
  /** The next nonce of `address` (pending included). */
  nonce(address: Hex): Promise<bigint>;
  gasPrice(): Promise<bigint>;
  /** Broadcasts a signed transaction; its hash. */
  broadcast(raw: Hex): Promise<Hex>;
}

/** keccak256("Transfer(address,address,uint256)"). */
export const transferTopic =
  "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef" as const;

/**
 * The EVM adapter: ERC-20 `Transfer` logs and receipts over JSON-RPC (`eth_getLogs`,
 * `eth_getBlockByNumber`, `eth_getTransactionReceipt`, `eth_sendRawTransaction`). The same code
 * reads a real node (through `httpRpc`) and the in-process local chain.
 */
export class EvmChainAdapter implements ChainAdapter {
  constructor(
    readonly chainId: number,
    private readonly rpc: Eip1193Like,
  ) {}

  async head(): Promise<bigint> {
    return BigInt((await this.rpc.request({ method: "eth_blockNumber" })) as string);
  }

  async blockHash(number: bigint): Promise<Hex | undefined> {
    const block = (await this.rpc.request({
      method: "eth_getBlockByNumber",
      params: [`0x${number.toString(16)}`, false],
    })) as { hash: Hex } | null;
    return block ? (block.hash.toLowerCase() as Hex) : undefined;
  }

  async tokenTransfers(token: Hex, from: bigint, to: bigint): Promise<TokenTransfer[]> {
    const logs = (await this.rpc.request({
      method: "eth_getLogs",
      params: [
        {
          address: token,
          fromBlock: `0x${from.toString(16)}`,
          toBlock: `0x${to.toString(16)}`,
          topics: [transferTopic],
        },
      ],
    })) as RpcLog[];
    const out: TokenTransfer[] = [];
    for (const log of logs) {
      // A standard Transfer has two indexed addresses and the amount as data; anything else
      // (ERC-721's three topics, a malformed log) is not a deposit.
      if (log.removed || log.topics.length !== 3 || log.data.length !== 66) continue;
      out.push({
        token: log.address.toLowerCase() as Hex,
        from: topicAddress(log.topics[1]!),
        to: topicAddress(log.topics[2]!),
        amount: BigInt(log.data),
        blockNumber: BigInt(log.blockNumber),
        blockHash: log.blockHash.toLowerCase() as Hex,
        txHash: log.transactionHash.toLowerCase() as Hex,
        logIndex: Number(BigInt(log.logIndex)),
      });
    }
    return out;
  }

  async receipt(txHash: Hex) {
    const receipt = (await this.rpc.request({
      method: "eth_getTransactionReceipt",
      params: [txHash],
    })) as { blockNumber: Hex; blockHash: Hex; status: Hex } | null;
    if (!receipt || receipt.blockNumber === null) return undefined;
    return {
      blockNumber: BigInt(receipt.blockNumber),
      blockHash: receipt.blockHash.toLowerCase() as Hex,
      ok: BigInt(receipt.status) === 1n,
    };
  }

  async nonce(address: Hex): Promise<bigint> {
    return BigInt(
      (await this.rpc.request({
        method: "eth_getTransactionCount",
        params: [address, "pending"],
      })) as string,
    );
  }

  async gasPrice(): Promise<bigint> {
    return BigInt((await this.rpc.request({ method: "eth_gasPrice" })) as string);
  }

  async broadcast(raw: Hex): Promise<Hex> {
    const hash = (await this.rpc.request({
      method: "eth_sendRawTransaction",
      params: [raw],
    })) as Hex;
    return hash.toLowerCase() as Hex;
  }
}

/** JSON-RPC over HTTP for a real node (CHAIN_RPC_URL). */
export function httpRpc(url: string, timeoutMs = 10_000): Eip1193Like {
  let id = 0;
  return {
    async request(args) {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: ++id,
          method: args.method,
          params: args.params ?? [],
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = (await response.json()) as { result?: unknown; error?: { message: string } };
      if (body.error) throw new Error(`${args.method}: ${body.error.message}`);
      return body.result;
    },
  };
}

function topicAddress(topic: Hex): Hex {
  return getAddress(`0x${topic.slice(26)}`);
}
