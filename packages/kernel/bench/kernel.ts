// `npm run bench -- kernel [W1] [W2] [W4]`: our order book (and, for W4, the whole kernel)
// against nodejs-order-book 10.1.1, fed identical seeded command streams in the same process,
// median of 3 timed runs after a warm-up run. Prints one JSON line per workload.
// Set BENCH_VERBOSE=1 for stream statistics on stderr.
import { OrderBook as PeerBook } from "nodejs-order-book";
import { bookWorkload, counters, measure, percentiles, runPeer, verbose } from "./book-streams.ts";
import { kernelNames, kernelSetup, runKernel, w4Owners, w4Stream } from "./kernel-workload.ts";
import { heapSampled } from "./heap-sample.ts";

const selected = new Set(process.argv.slice(2).filter((argument) => /^W\d$/.test(argument)));
const wanted = (workload: string) => selected.size === 0 || selected.has(workload);

if (wanted("W1")) {
  const figures = bookWorkload("W1", {
    seed: 1,
    operations: 1_000_000,
    restingTarget: 1_000,
    levelsPerSide: 800,
    quantityMax: 100,
    owners: 1_000_000,
  });
  console.log(JSON.stringify(figures));
}
if (wanted("W2")) {
  const figures = bookWorkload("W2", {
    seed: 2,
    operations: 200_000,
    restingTarget: 10_000,
    levelsPerSide: 5,
    quantityMax: 100,
    owners: 1_000_000,
  });
  console.log(JSON.stringify(figures));
}
if (wanted("W4")) {
  const stream = w4Stream();
  const names = kernelNames(stream, w4Owners);
  const figures = measure(
    "W4",
    stream,
    () => {
      const run = kernelSetup(stream, names);
      return heapSampled(stream.preloadCount, (from, to) =>
        runKernel(run, stream, names, from, to),
      );
    },
    () => {
      const book = new PeerBook();
      return (from, to) => runPeer(book, stream, from, to);
    },
    () => {
      const run = kernelSetup(stream, names);
      return percentiles(stream, (from, to) => runKernel(run, stream, names, from, to));
    },
  );
  console.log(JSON.stringify(figures));
}
if (verbose) console.error(JSON.stringify(counters));
