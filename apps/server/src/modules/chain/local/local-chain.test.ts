import { describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { EvmChainAdapter } from "../chain-adapter.ts";
import { LocalChain, localChainId } from "./local-chain.ts";

describe("the local chain through the EVM adapter", () => {
  it("reports token transfers, receipts and reorganisations", async () => {
    const faucet = generatePrivateKey();
    const alice = generatePrivateKey();
    const chain = await LocalChain.start({ faucetKey: faucet, fundedKeys: [alice] });
    const adapter = new EvmChainAdapter(localChainId, chain);
    const aliceAddress = privateKeyToAddress(alice);
    const bob = privateKeyToAddress(generatePrivateKey());
    await chain.mint(aliceAddress, 5_000_000n);
    const sent = await chain.transferToken(alice, bob, 1_250_000n);
    expect(await chain.balanceOf(bob)).toBe(1_250_000n);
    const head = await adapter.head();
    const transfers = await adapter.tokenTransfers(chain.token, 0n, head);
    expect(transfers.map((t) => [t.to, t.amount])).toEqual([
      [aliceAddress, 5_000_000n],
      [bob, 1_250_000n],
    ]);
    const receipt = await adapter.receipt(sent);
    expect(receipt).toMatchObject({ blockNumber: head, ok: true });
    expect(await adapter.blockHash(head)).toBe(receipt!.blockHash);
    await chain.reorg(1);
    expect(await adapter.receipt(sent)).toBeUndefined();
    expect(await chain.balanceOf(bob)).toBe(0n);
    expect(await adapter.head()).toBe(head + 1n);
    expect(await adapter.blockHash(head)).not.toBe(receipt!.blockHash);
  }, 30_000);
});
