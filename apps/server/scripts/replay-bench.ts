// W9 of `npm run bench -- journal`: replaying a journal against applying the same stream live.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Engine } from "../src/engine/engine.ts";
import { kernelPort, type CandorCommand } from "../src/engine/kernel-port.ts";
import { openFileJournal } from "../src/journal/file-journal.ts";
import { fileSnapshotStore } from "../src/journal/snapshot-store.ts";

/** A deterministic trading stream: set-up, deposits, then limit orders that often cross. */
export function tradingStream(orders: number): CandorCommand[] {
  const commands: CandorCommand[] = [
    { type: "define_asset", id: "a-usdt", assetId: "USDT", scale: 6, amountMax: null },
    { type: "define_asset", id: "a-btc", assetId: "BTC", scale: 8, amountMax: null },
    {
      type: "define_market",
      id: "m-btc",
      marketId: "BTCUSDT",
      baseAssetId: "BTC",
      quoteAssetId: "USDT",
      instrumentId: null,
      priceStep: "0.01",
      lotSize: "0.0001",
      quantityLotsMin: 1,
      quantityLotsMax: 1_000_000,
      feeBpsMaker: 10,
      feeBpsTaker: 10,
      priceBandBps: 500,
      levelsPerSideMax: null,
      ordersPerBookMax: null,
    },
    { type: "set_market_session", id: "open", marketId: "BTCUSDT", open: true },
  ];
  const users = 100;
  for (let u = 0; u < users; u++) {
    const ownerId = String(100_001 + u);
    commands.push({ type: "open_accounts", id: `o${u}`, ownerId, mode: "real" });
    for (const [assetId, amount] of [
      ["USDT", 10_000_000_000_000n],
      ["BTC", 100_000_000_000n],
    ] as const) {
      commands.push({
        type: "credit_deposit",
        id: `d${u}${assetId}`,
        ownerId,
        mode: "real",
        assetId,
        amount,
        reference: `r${u}${assetId}`,
        operatorId: null,
      });
    }
  }
  let random = 12_345;
  const next = () => {
    random = (random * 1_103_515_245 + 12_345) % 2_147_483_648;
    return random / 2_147_483_648;
  };
  for (let i = 0; i < orders; i++) {
    const buy = next() < 0.5;
    commands.push({
      type: "place_order",
      id: `p${i}`,
      ownerId: String(100_001 + Math.floor(next() * users)),
      mode: "real",
      marketId: "BTCUSDT",
      side: buy ? "buy" : "sell",
      orderType: "limit",
      timeInForce: "gtc",
      // Around 50,000.00 USDT, buys a little lower than sells so about a third cross.
      priceTicks: 5_000_000 + Math.floor(next() * 200) - (buy ? 120 : 0),
      quantityLots: 1 + Math.floor(next() * 20),
      quoteAmount: null,
    });
  }
  return commands;
}

/** Live: submit through the engine (journal + fsync + apply) with `concurrency` clients. */
export async function replayBench(options: { orders: number; concurrency: number }) {
  const scratch = mkdtempSync(path.join(tmpdir(), "candor-bench-replay-"));
  try {
    const stream = tradingStream(options.orders);
    const journal = await openFileJournal({
      directory: path.join(scratch, "journal"),
      onFatal: (error) => {
        throw error;
      },
    });
    const engine = new Engine({
      kernel: kernelPort,
      journal,
      snapshots: fileSnapshotStore({ directory: path.join(scratch, "snapshots") }),
      snapshotEvery: 0,
      clockTickMs: 0,
    });
    await engine.start();
    let index = 0;
    const liveStartNs = process.hrtime.bigint();
    const client = async () => {
      while (index < stream.length) {
        const command = stream[index++]!;
        await engine.submit(command);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, client));
    const liveSeconds = Number(process.hrtime.bigint() - liveStartNs) / 1e9;
    const liveHash = engine.stateHash();
    await engine.stop();

    const reopened = await openFileJournal({
      directory: path.join(scratch, "journal"),
      onFatal: (error) => {
        throw error;
      },
    });
    const replayStartNs = process.hrtime.bigint();
    const state = kernelPort.createState();
    let replayed = 0;
    for await (const record of reopened.read(1n)) {
      kernelPort.apply(state, kernelPort.decodeCommand(record.payload));
      replayed += 1;
    }
    const replaySeconds = Number(process.hrtime.bigint() - replayStartNs) / 1e9;
    await reopened.close();
    if (kernelPort.stateHash(state) !== liveHash) throw new Error("replay hash differs from live");
    return {
      commands: replayed,
      liveCommandsPerSecond: replayed / liveSeconds,
      replayCommandsPerSecond: replayed / replaySeconds,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
