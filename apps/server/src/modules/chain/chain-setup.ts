import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Hex } from "viem";
import { generatePrivateKey, HDKey, privateKeyToAddress } from "viem/accounts";
import type { Config } from "../../config.ts";
import { EvmChainAdapter, httpRpc } from "./chain-adapter.ts";
import type { ChainDeposits, ChainNetworkConfig } from "./chain-deposits.ts";
import type { ChainWithdrawals } from "./chain-withdrawals.ts";
import { LocalChain, localChainId } from "./local/local-chain.ts";

/** Test tokens (6 decimals) the local hot wallet starts with: 10 million. */
const localHotWalletFloat = 10_000_000n * 1_000_000n;

/** The chain module's settings: deposit addresses, networks, watcher and payouts. */
export interface ChainModuleSettings {
  /** The operator's extended public key; deposit addresses are its children (index = user id). */
  xpub: string;
  networks: readonly ChainNetworkConfig[];
  /** Watcher period, ms (default 4,000; 0: only when called, as tests do). */
  pollMs?: number;
  /** The operator's hot-wallet key (CHAIN_MODE=local only): approved withdrawals are paid from it. */
  hotKey?: `0x${string}`;
  /** Receives the watcher once built (tests drive its rounds). */
  onDeposits?: (deposits: ChainDeposits) => void;
  /** Receives the payout side once built (tests drive its rounds). */
  onPayouts?: (payouts: ChainWithdrawals) => void;
}

/** What `serve` hands the app, and the local chain when there is one (for the dev faucet). */
export interface ChainSetup {
  settings: ChainModuleSettings;
  local?: LocalChain;
  /** The operator's hot wallet key on the local chain (withdrawals are sent from it). */
  localHotKey?: Hex;
}

/**
 * Builds the chain settings from the configuration. "rpc": one network read from a node, deposit
 * addresses from the operator's xpub (the private root stays in the operator's custody, see
 * docs/security.md). "local": an in-process chain whose custody root is a file under DATA_DIR
 * standing in for that custody (the server reads only its xpub for deposits).
 */
export async function chainSetup(config: Config, dataDir: string): Promise<ChainSetup | undefined> {
  if (config.CHAIN_MODE === "off") return undefined;
  if (config.CHAIN_MODE === "rpc") {
    if (!config.CHAIN_RPC_URL || !config.CHAIN_ID || !config.CHAIN_TOKEN || !config.CHAIN_XPUB) {
      throw new Error("CHAIN_MODE=rpc needs CHAIN_RPC_URL, CHAIN_ID, CHAIN_TOKEN and CHAIN_XPUB");
    }
    return {
      settings: {
        xpub: config.CHAIN_XPUB,
        pollMs: config.CHAIN_POLL_MS,
        networks: [
          {
            network: config.CHAIN_NETWORK,
            adapter: new EvmChainAdapter(config.CHAIN_ID, httpRpc(config.CHAIN_RPC_URL)),
            token: config.CHAIN_TOKEN.toLowerCase() as Hex,
            tokenDecimals: config.CHAIN_TOKEN_DECIMALS,
            assetId: "USDT",
            confirmations: config.CHAIN_CONFIRMATIONS ?? 12,
            minimum: config.CHAIN_DEPOSIT_MINIMUM,
            testChain: false,
          },
        ],
      },
    };
  }
  const custody = localCustody(dataDir);
  // A fresh chain each start (it lives in memory): fresh faucet and hot keys, so no transaction
  // of an earlier run repeats with the same hash.
  const hotKey = generatePrivateKey();
  const local = await LocalChain.start({ faucetKey: generatePrivateKey(), fundedKeys: [hotKey] });
  // The hot wallet's payout float: valueless test tokens, minted at start.
  await local.mint(privateKeyToAddress(hotKey), localHotWalletFloat);
  return {
    local,
    localHotKey: hotKey,
    settings: {
      hotKey,
      xpub: custody.publicExtendedKey,
      pollMs: config.CHAIN_POLL_MS,
      networks: [
        {
          network: config.CHAIN_NETWORK,
          adapter: new EvmChainAdapter(localChainId, local),
          token: local.token,
          tokenDecimals: 6,
          assetId: "USDT",
          confirmations: config.CHAIN_CONFIRMATIONS ?? 3,
          minimum: config.CHAIN_DEPOSIT_MINIMUM,
          testChain: true,
        },
      ],
    },
  };
}

/** The local chain's custody root: created once under DATA_DIR/local-chain (mode 0600). */
function localCustody(dataDir: string): HDKey {
  const dir = path.join(dataDir, "local-chain");
  const file = path.join(dir, "custody-root.txt");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const root = HDKey.fromMasterSeed(randomBytes(32));
    writeFileSync(file, `${root.privateExtendedKey}\n`, { mode: 0o600, flag: "wx" });
  }
  return HDKey.fromExtendedKey(readFileSync(file, "utf8").trim());
}
