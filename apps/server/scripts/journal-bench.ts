// `npm run bench -- journal`: W5 (group commit against a raw write+fdatasync loop) and, once the
// engine exists, W9 (replay against live apply). One JSON line per workload.
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openFileJournal } from "../src/journal/file-journal.ts";
import { percentile } from "../src/journal/journal.ts";

const payloadBytes = Number(process.env.BENCH_PAYLOAD_BYTES ?? 100);
const records = Number(process.env.BENCH_RECORDS ?? 200_000);
const inFlightMax = 4_000;
const rounds = 3;
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
  const startNs = process.hrtime.bigint();
  let issued = 0;
  let done = 0;
  await new Promise<void>((resolve, reject) => {
    const onDone = () => {
      done += 1;
      if (done === records) resolve();
      else if (issued < records) issue();
    };
    const issue = () => {
      issued += 1;
      journal.append(payload).then(onDone, reject);
    };
    while (issued < Math.min(inFlightMax, records)) issue();
  });
  const seconds = Number(process.hrtime.bigint() - startNs) / 1e9;
  const stats = journal.stats();
  await journal.close();
  rmSync(directory, { recursive: true, force: true });
  return {
    recordsPerSecond: records / seconds,
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
    const raw = [];
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
        recordsPerSecond: Math.round(oursRate),
        peerRecordsPerSecond: Math.round(rawRate),
        ratio: Number((oursRate / rawRate).toFixed(3)),
        goal: 0.5,
        commitMicrosP50: Math.round(median(ours.map((r) => r.commitMicrosP50))),
        commitMicrosP99: Math.round(median(ours.map((r) => r.commitMicrosP99))),
        batchRecordsAverage: Number(median(ours.map((r) => r.batchRecordsAverage)).toFixed(1)),
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
