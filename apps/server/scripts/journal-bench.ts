// `npm run bench -- journal`: W5 (group commit against a raw write+fdatasync loop) and, once the
// engine exists, W9 (replay against live apply). One JSON line per workload.
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openFileJournal } from "../src/journal/file-journal.ts";
import { percentile } from "../src/journal/journal.ts";
import { closedLoop } from "./closed-loop.ts";

const payloadBytes = Number(process.env.BENCH_PAYLOAD_BYTES ?? 100);
const records = Number(process.env.BENCH_RECORDS ?? 200_000);
const inFlightMax = 4_000;
const rounds = 3;
/**
 * Unmeasured rounds of both sides before the measured ones (same bytes, same batch size): the
 * first round of a process pays JIT compilation and the V8 heap's growth (thousands of minor page
 * faults), which the median of three did not always leave out. `BENCH_WARMUP_ROUNDS=0` for none.
 */
const warmupRounds = Number(process.env.BENCH_WARMUP_ROUNDS ?? 1);
/** Which workloads to run (comma-separated; default both): `BENCH_WORKLOADS=W9`. */
const workloads = (process.env.BENCH_WORKLOADS ?? "W5,W9").split(",");

const scratch = mkdtempSync(path.join(tmpdir(), "candor-bench-journal-"));

async function groupCommitRun(round: number) {
  const directory = path.join(scratch, `journal-${round}`);
  const journal = await openFileJournal({
    directory,
    onFatal: (error) => {
      throw error;
    },
  });
  const payload = Buffer.alloc(payloadBytes, 0x61);
  const faultsBefore = process.resourceUsage().minorPageFault;
  const cpuBefore = process.cpuUsage();
  const startNs = process.hrtime.bigint();
  await closedLoop(journal, payload, records, inFlightMax);
  const seconds = Number(process.hrtime.bigint() - startNs) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const pageFaults = process.resourceUsage().minorPageFault - faultsBefore;
  const stats = journal.stats();
  await journal.close();
  rmSync(directory, { recursive: true, force: true });
  return {
    recordsPerSecond: records / seconds,
    /** Process CPU (all threads: main, fdatasync in the thread pool, GC helpers) per record. */
    cpuMicrosPerRecord: (cpu.user + cpu.system) / records,
    pageFaults,
    batchRecordsAverage: stats.records / stats.batches,
    commitMicrosP50: percentile(stats.commitMicros, 50),
    commitMicrosP99: percentile(stats.commitMicros, 99),
  };
}

/** The peer: the same bytes per record and records per batch, written and fdatasync'ed in a loop. */
function rawRun(round: number, batchRecords: number) {
  const file = path.join(scratch, `raw-${round}.bin`);
  const fd = openSync(file, "w");
  const batch = Buffer.alloc(batchRecords * (payloadBytes + 16), 0x61);
  const startNs = process.hrtime.bigint();
  for (let written = 0; written < records; written += batchRecords) {
    writeSync(fd, batch);
    fdatasyncSync(fd);
  }
  const seconds = Number(process.hrtime.bigint() - startNs) / 1e9;
  closeSync(fd);
  rmSync(file, { force: true });
  return { recordsPerSecond: records / seconds };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

if (workloads.includes("W5"))
  try {
    const ours = [];
    const raw: { recordsPerSecond: number }[] = [];
    for (let round = 0; round < warmupRounds; round++) {
      const run = await groupCommitRun(rounds + round);
      rawRun(rounds + round, Math.max(1, Math.round(run.batchRecordsAverage)));
    }
    for (let round = 0; round < rounds; round++) {
      const run = await groupCommitRun(round);
      ours.push(run);
      raw.push(rawRun(round, Math.max(1, Math.round(run.batchRecordsAverage))));
    }
    const oursRate = median(ours.map((r) => r.recordsPerSecond));
    const rawRate = median(raw.map((r) => r.recordsPerSecond));
    console.log(
      JSON.stringify({
        workload: "W5",
        name: "journal group commit vs raw write+fdatasync loop",
        payloadBytes,
        records,
        rounds,
        warmupRounds,
        recordsPerSecond: Math.round(oursRate),
        peerRecordsPerSecond: Math.round(rawRate),
        ratio: Number((oursRate / rawRate).toFixed(3)),
        goal: 0.5,
        commitMicrosP50: Math.round(median(ours.map((r) => r.commitMicrosP50))),
        commitMicrosP99: Math.round(median(ours.map((r) => r.commitMicrosP99))),
        batchRecordsAverage: Number(median(ours.map((r) => r.batchRecordsAverage)).toFixed(1)),
        // Per measured round, in order (after the unmeasured warm-up rounds).
        roundRatios: ours.map((r, i) =>
          Number((r.recordsPerSecond / raw[i]!.recordsPerSecond).toFixed(3)),
        ),
        roundRecordsPerSecond: ours.map((r) => Math.round(r.recordsPerSecond)),
        roundPeerRecordsPerSecond: raw.map((r) => Math.round(r.recordsPerSecond)),
        roundCpuMicrosPerRecord: ours.map((r) => Number(r.cpuMicrosPerRecord.toFixed(2))),
        roundPageFaults: ours.map((r) => r.pageFaults),
      }),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
rmSync(scratch, { recursive: true, force: true });

if (workloads.includes("W9")) {
  const { replayBench } = await import("./replay-bench.ts");
  const concurrency = Number(process.env.BENCH_CLIENTS ?? 64);
  const runs = [];
  for (let round = 0; round < rounds; round++) {
    runs.push(
      await replayBench({ orders: Number(process.env.BENCH_ORDERS ?? 20_000), concurrency }),
    );
  }
  const ratios = runs.map((r) => r.replayCommandsPerSecond / r.liveCommandsPerSecond);
  const cpuRatios = runs.map((r) => r.replayCommandsPerCpuSecond / r.liveCommandsPerCpuSecond);
  console.log(
    JSON.stringify({
      workload: "W9",
      name: "journal replay (engine start-up) vs live apply of the same stream",
      commands: runs[0]!.commands,
      liveClients: concurrency,
      rounds,
      replayCommandsPerSecond: Math.round(median(runs.map((r) => r.replayCommandsPerSecond))),
      liveCommandsPerSecond: Math.round(median(runs.map((r) => r.liveCommandsPerSecond))),
      ratio: Number(median(ratios).toFixed(2)),
      ratios: ratios.map((r) => Number(r.toFixed(2))),
      replayCommandsPerCpuSecond: Math.round(median(runs.map((r) => r.replayCommandsPerCpuSecond))),
      liveCommandsPerCpuSecond: Math.round(median(runs.map((r) => r.liveCommandsPerCpuSecond))),
      cpuRatio: Number(median(cpuRatios).toFixed(2)),
      cpuRatios: cpuRatios.map((r) => Number(r.toFixed(2))),
      recordsRatio: Number(
        median(runs.map((r) => r.replayRecordsCommandsPerSecond / r.liveCommandsPerSecond)).toFixed(
          2,
        ),
      ),
      recordsCpuRatio: Number(
        median(
          runs.map((r) => r.replayRecordsCommandsPerCpuSecond / r.liveCommandsPerCpuSecond),
        ).toFixed(2),
      ),
      finalCheckMs: Math.round(median(runs.map((r) => r.finalCheckMs))),
      applyOnlyCommandsPerSecond: Math.round(median(runs.map((r) => r.applyOnlyCommandsPerSecond))),
      ceilingRatio: Number(
        median(runs.map((r) => r.applyOnlyCommandsPerSecond / r.liveCommandsPerSecond)).toFixed(2),
      ),
      ceilingCpuRatio: Number(
        median(
          runs.map((r) => r.applyOnlyCommandsPerCpuSecond / r.liveCommandsPerCpuSecond),
        ).toFixed(2),
      ),
      goal: 5,
    }),
  );
}
