// CPU per record of the file journal's group commit without the disk (write and fdatasync
// resolve at once): the W5 closed loop (4,000 appends in flight, 100-byte payloads), main thread.
import { readFileSync } from "node:fs";
import { openFileJournal } from "../src/journal/file-journal.ts";
import type { JournalFileSystem } from "../src/journal/file-system.ts";
import { closedLoop } from "./closed-loop.ts";

const records = Number(process.env.BENCH_RECORDS ?? 200_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const inFlightMax = 4_000;
const nullFileSystem: JournalFileSystem = {
  mkdirp: async () => {},
  list: async () => [],
  readFile: async () => Buffer.alloc(0),
  readRange: async () => Buffer.alloc(0),
  openForAppend: async () => ({
    write: async () => {},
    datasync: () => new Promise<void>((resolve) => setImmediate(resolve)),
    close: async () => {},
  }),
  truncate: async () => {},
  rename: async () => {},
  remove: async () => {},
  syncDirectory: async () => {},
};

/** CPU time of the main thread alone (user + system, clock ticks of 10 ms), in microseconds. */
function mainThreadMicros() {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const out: number[] = [];
const mainOut: number[] = [];
for (let round = 0; round < rounds; round++) {
  const journal = await openFileJournal({
    directory: "/nonexistent",
    fileSystem: nullFileSystem,
    onFatal: (error) => {
      throw error;
    },
  });
  const payload = Buffer.alloc(100, 0x61);
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadMicros();
  await closedLoop(journal, payload, records, inFlightMax);
  const cpu = process.cpuUsage(cpuBefore);
  mainOut.push(Number(((mainThreadMicros() - mainBefore) / records).toFixed(2)));
  out.push(Number(((cpu.user + cpu.system) / records).toFixed(3)));
  await journal.close();
}
console.log(
  JSON.stringify({ processCpuMicrosPerRecord: out, mainThreadCpuMicrosPerRecord: mainOut }),
);
