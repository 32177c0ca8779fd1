// W9 of `npm run bench -- journal`: replaying a journal against applying the same stream live.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Engine } from "../src/engine/engine.ts";
import type { Command } from "@candor/kernel";
import { kernelPort, type CandorCommand } from "../src/engine/kernel-port.ts";
import { openFileJournal } from "../src/journal/file-journal.ts";
import type { Journal } from "../src/journal/journal.ts";
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

/** CPU seconds (user + system, all threads) of this process since `start`. */
function cpuSeconds(start: NodeJS.CpuUsage) {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/** One round of W9: the stream live through the engine, then its journal replayed. */
export interface ReplayRound {
  commands: number;
  liveCommandsPerSecond: number;
  replayCommandsPerSecond: number;
  /** Commands per CPU second (the process's user + system time), less sensitive to other load. */
  liveCommandsPerCpuSecond: number;
  replayCommandsPerCpuSecond: number;
  /** The same without the final state hash and invariant check (a fixed cost per start). */
  replayRecordsCommandsPerSecond: number;
  replayRecordsCommandsPerCpuSecond: number;
  /** Wall time of the final state hash and invariant check, in ms. */
  finalCheckMs: number;
  /** The kernel's `apply` alone on the decoded stream: the ceiling of replay. */
  applyOnlyCommandsPerSecond: number;
  applyOnlyCommandsPerCpuSecond: number;
}

/**
 * Live: submit through the engine (journal + fsync + apply) with `concurrency` clients. Replay:
 * the engine's start-up path (`Engine.start` on the reopened journal, no snapshot), which is
 * what a restart or a standby runs; the state hash must equal the live one.
 */
export async function replayBench(options: {
  orders: number;
  concurrency: number;
}): Promise<ReplayRound> {
  const scratch = mkdtempSync(path.join(tmpdir(), "candor-bench-replay-"));
  const openJournal = () =>
    openFileJournal({
      directory: path.join(scratch, "journal"),
      onFatal: (error) => {
        throw error;
      },
    });
  const engineOn = (journal: Journal, snapshots: string) =>
    new Engine({
      kernel: kernelPort,
      journal,
      snapshots: fileSnapshotStore({ directory: path.join(scratch, snapshots) }),
      snapshotEvery: 0,
      clockTickMs: 0,
    });
  try {
    const stream = tradingStream(options.orders);
    const engine = engineOn(await openJournal(), "snapshots-live");
    await engine.start();
    let index = 0;
    const liveCpu = process.cpuUsage();
    const liveStartNs = process.hrtime.bigint();
    const client = async () => {
      while (index < stream.length) {
        const command = stream[index++]!;
        await engine.submit(command);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, client));
    const liveSeconds = Number(process.hrtime.bigint() - liveStartNs) / 1e9;
    const liveCpuSeconds = cpuSeconds(liveCpu);
    const liveHash = engine.stateHash();
    await engine.stop();

    // A restart: open (which checks every frame), then Engine.start (read, check, decode, apply,
    // then one state hash and invariant check of the whole state).
    const replayCpu = process.cpuUsage();
    const replayStartNs = process.hrtime.bigint();
    const replaying = engineOn(await openJournal(), "snapshots-replay");
    const { replayed, stateHash } = await replaying.start();
    const replaySeconds = Number(process.hrtime.bigint() - replayStartNs) / 1e9;
    const replayCpuSeconds = cpuSeconds(replayCpu);
    // The final check once more on its own: a fixed cost per start, not per command.
    const checkCpu = process.cpuUsage();
    const checkStartNs = process.hrtime.bigint();
    // (The kernel's hash, not `replaying.stateHash()`, which returns the hash `start` kept.)
    const replayedState = replaying.query((state) => state);
    kernelPort.checkInvariants(replayedState);
    kernelPort.stateHash(replayedState);
    const checkSeconds = Number(process.hrtime.bigint() - checkStartNs) / 1e9;
    const checkCpuSeconds = cpuSeconds(checkCpu);
    // The ceiling: the kernel alone applying the already decoded commands to a fresh state (no
    // journal, no decode, no engine). Replay cannot beat it; its ratio to live bounds W9.
    const commands: Command[] = [];
    for await (const record of (await openJournal()).read(1n)) {
      commands.push(kernelPort.decodeCommand(record.payload));
    }
    const applyCpu = process.cpuUsage();
    const applyStartNs = process.hrtime.bigint();
    const bare = kernelPort.createState();
    for (const command of commands) kernelPort.apply(bare, command);
    const applySeconds = Number(process.hrtime.bigint() - applyStartNs) / 1e9;
    const applyCpuSeconds = cpuSeconds(applyCpu);
    await replaying.stop();
    if (stateHash !== liveHash) throw new Error("replay hash differs from live");
    if (kernelPort.stateHash(bare) !== liveHash) throw new Error("kernel-only hash differs");
    return {
      commands: replayed,
      liveCommandsPerSecond: replayed / liveSeconds,
      replayCommandsPerSecond: replayed / replaySeconds,
      liveCommandsPerCpuSecond: replayed / liveCpuSeconds,
      replayCommandsPerCpuSecond: replayed / replayCpuSeconds,
      replayRecordsCommandsPerCpuSecond: replayed / (replayCpuSeconds - checkCpuSeconds),
      replayRecordsCommandsPerSecond: replayed / (replaySeconds - checkSeconds),
      finalCheckMs: checkSeconds * 1000,
      applyOnlyCommandsPerSecond: replayed / applySeconds,
      applyOnlyCommandsPerCpuSecond: replayed / applyCpuSeconds,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
