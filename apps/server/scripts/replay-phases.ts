// Where a W9 replay's CPU time goes, phase by phase (open, read + decode, kernel apply, engine
// start as a whole, invariants, state hash): `npx tsx apps/server/scripts/replay-phases.ts`.
// Writes the W9 stream's journal once, live through the engine, then measures REPS restarts.
import type { Command } from "@candor/kernel";
import { kernelPort } from "../src/engine/kernel-port.ts";
import { tradingStream } from "./replay-bench.ts";
import { cpuMs, replayScratch } from "./replay-scratch.ts";

const { openJournal, engineOn, runLive, remove } = replayScratch("replay-phases");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  const stream = tradingStream(Number(process.env.BENCH_ORDERS ?? 20_000));
  const liveCpu = process.cpuUsage();
  const liveHash = await runLive(stream);
  const liveMs = cpuMs(liveCpu);
  const phases: Record<string, number[]> = {};
  const note = (name: string, ms: number) => (phases[name] ??= []).push(ms);
  for (let rep = 0; rep < Number(process.env.REPS ?? 6); rep++) {
    let t = process.cpuUsage();
    const journal = await openJournal();
    note("open", cpuMs(t));
    t = process.cpuUsage();
    const commands: Command[] = [];
    for await (const run of journal.readRuns!(1n)) {
      for (const record of run) commands.push(kernelPort.decodeCommand(record.payload));
    }
    note("read+decode", cpuMs(t));
    await journal.close();
    t = process.cpuUsage();
    const bare = kernelPort.createState();
    for (const command of commands) kernelPort.apply(bare, command);
    note("apply", cpuMs(t));
    t = process.cpuUsage();
    kernelPort.checkInvariants(bare);
    note("invariants", cpuMs(t));
    t = process.cpuUsage();
    const hash = kernelPort.stateHash(bare);
    note("stateHash", cpuMs(t));
    if (hash !== liveHash) throw new Error("hash differs");
    t = process.cpuUsage();
    const engine = await engineOn();
    const started = await engine.start();
    note("open+Engine.start", cpuMs(t));
    await engine.stop();
    if (started.stateHash !== liveHash) throw new Error("replay hash differs");
  }
  const out: Record<string, number> = { commands: stream.length, liveCpuMs: Math.round(liveMs) };
  for (const [name, xs] of Object.entries(phases)) out[name] = Math.round(median(xs) * 10) / 10;
  console.log(JSON.stringify(out));
} finally {
  remove();
}
