// The perpetuals slice in snapshots: one market side as JSON.

import type { Json } from "../module.ts";
import { type PerpSide } from "./kernel-state.ts";

function big(value: bigint | null): string | null {
  return value === null ? null : value.toString();
}

export function writeSide(side: PerpSide): Json {
  const accounts = [...side.accounts.values()]
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((a): Json => [
      a.owner.ownerId,
      a.leverage,
      a.marginMode,
      a.position.sizeLots.toString(),
      a.position.entryCost.toString(),
      a.margin.toString(),
      a.debt.toString(),
      big(a.takeProfitTicks),
      big(a.stopLossTicks),
    ]);
  const queue: Json[] = [];
  for (const resting of side.book.orders()) queue.push(resting.orderId);
  return {
    mark:
      side.mark === null
        ? null
        : [side.mark.priceTicks.toString(), side.mark.indexTicks.toString(), side.mark.tickIds],
    samples: side.premiumSamples.map((s): Json => [s.atMs, s.tickId, s.premiumE8.toString()]),
    fundingStartMs: side.fundingStartMs,
    accounts,
    book: queue,
  };
}

export function splitKey(key: string): [string, string, string] {
  const first = key.indexOf("|");
  const last = key.lastIndexOf("|");
  return [key.slice(0, first), key.slice(first + 1, last), key.slice(last + 1)];
}
