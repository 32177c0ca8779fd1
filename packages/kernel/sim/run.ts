// `npm run sim -- --seeds N --commands M [--first S] [--book reference|fast]`: runs seeded
// whole-kernel simulations and prints one line per seed; a failure prints its seed and exits 1.
// `--perp` runs the perpetuals simulation instead (violent price paths, funding, liquidations).
import { createOrderBook } from "../src/book/order-book.ts";
import { createReferenceBook } from "../src/book/order-book.reference.ts";
import { simulatePerp } from "../src/perp/simulate.ts";
import { simulate, SimulationFailure } from "../src/testing/simulate.ts";

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} needs an integer`);
  return value;
}

const seeds = flag("seeds", 20);
const commands = flag("commands", 5_000);
const first = flag("first", 1);
const bookIndex = process.argv.indexOf("--book");
const bookName = bookIndex === -1 ? "fast" : process.argv[bookIndex + 1];
const bookFactory = bookName === "reference" ? createReferenceBook : createOrderBook;

let failed = 0;
const started = performance.now();
const perp = process.argv.includes("--perp");
for (let seed = first; seed < first + seeds; seed++) {
  try {
    if (perp) {
      const report = simulatePerp(seed, commands);
      console.log(JSON.stringify({ ...report, hash: report.hash.slice(0, 16) }));
      continue;
    }
    const report = simulate({ seed, commands, bookFactory });
    console.log(
      JSON.stringify({
        seed,
        commands: report.commands,
        accepted: report.accepted,
        fills: report.fills,
        hash: report.hash.slice(0, 16),
      }),
    );
  } catch (error) {
    failed++;
    console.error(error instanceof SimulationFailure ? error.message : error);
    if (error instanceof SimulationFailure && error.cause instanceof Error) {
      console.error(error.cause.stack);
    }
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`${seeds - failed}/${seeds} seeds passed (${commands} commands each, ${seconds} s)`);
process.exitCode = failed > 0 ? 1 : 0;
