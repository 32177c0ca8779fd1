// The `npm test` simulation, split into two files so vitest can run the halves in parallel.
import { expect, it } from "vitest";
import { createOrderBook } from "../book/order-book.ts";
import { simulate } from "./simulate.ts";
import { simulationHashes } from "./simulation-hashes-2026-11-24.ts";

/**
 * Seeds whose final state changed on purpose since 2026-11-24, with the reason. Seed 157 resends
 * a record_tick after its id left the idempotency window: the kernel of 2026-11-24 accepted
 * that older tick over a newer one; record_tick now refuses it (`tick_out_of_order`, issue 13).
 * (A few other seeds resend such a tick too, but a newer tick replaces it and its id is forgotten
 * before the end, so their final states are unchanged.) Today's server never sends such a tick,
 * and the journal fixture has none.
 */
export const hashesChangedByDesign: Readonly<
  Record<number, { hash: string; ticksRefused: number }>
> = {
  157: {
    hash: "5d23b942d02966bd573b18d51503df9d7dc81a2a187796dc0495ce3058ad30ba",
    ticksRefused: 1,
  },
};

/** Commands per seed in `npm test`. */
export const SIMULATION_COMMANDS = 5_000;

/**
 * Registers tests for seeds `first`..`last`, 25 per test. A failure names its seed: replay it
 * with `npm run sim -- --first SEED --seeds 1` and add it to `regressionSeeds`.
 */
export function simulationBatches(first: number, last: number): void {
  for (let batch = first; batch <= last; batch += 25) {
    const end = Math.min(last, batch + 24);
    it(`seeds ${batch}–${end}`, () => {
      for (let seed = batch; seed <= end; seed++) {
        const report = simulate({
          seed,
          commands: SIMULATION_COMMANDS,
          bookFactory: createOrderBook,
        });
        expect(report.commands).toBeGreaterThan(SIMULATION_COMMANDS);
        // The state the kernel of 2026-11-24 reached on the same seed, unless a documented
        // change of rules explains the difference.
        const changed = hashesChangedByDesign[seed];
        expect(report.hash).toBe(changed?.hash ?? simulationHashes[seed]);
        if (changed) expect(report.rejections.tick_out_of_order).toBe(changed.ticksRefused);
      }
    }, 120_000);
  }
}
