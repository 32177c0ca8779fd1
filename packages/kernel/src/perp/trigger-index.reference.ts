// The slow trigger index: every trigger in one Map; a mark scans all of them and sorts what
// fired. Obviously right, O(n) per mark: the specification of `trigger-index.ts`.

import { compareIds } from "./units.ts";
import type { Trigger, TriggerIndex } from "./trigger-index.ts";

/** Firing order: at_or_below from the highest price down, then at_or_above from the lowest up. */
function firingOrder(a: Trigger, b: Trigger): number {
  if (a.direction !== b.direction) return a.direction === "at_or_below" ? -1 : 1;
  if (a.priceTicks !== b.priceTicks) {
    const higherFirst = a.direction === "at_or_below";
    return a.priceTicks > b.priceTicks === higherFirst ? -1 : 1;
  }
  return compareIds(a.id, b.id);
}

function reaches(trigger: Trigger, markTicks: bigint): boolean {
  return trigger.direction === "at_or_below"
    ? markTicks <= trigger.priceTicks
    : markTicks >= trigger.priceTicks;
}

/** Builds the slow, obviously right trigger index. */
export function createReferenceTriggerIndex(): TriggerIndex {
  const triggers = new Map<string, Trigger>();
  return {
    upsert(trigger) {
      triggers.set(trigger.id, { ...trigger });
    },
    remove(id) {
      return triggers.delete(id);
    },
    get(id) {
      const trigger = triggers.get(id);
      return trigger === undefined ? undefined : { ...trigger };
    },
    get size() {
      return triggers.size;
    },
    fire(markTicks) {
      const fired = [...triggers.values()].filter((t) => reaches(t, markTicks));
      fired.sort(firingOrder);
      for (const trigger of fired) triggers.delete(trigger.id);
      return fired;
    },
    list() {
      return [...triggers.values()].sort(firingOrder).map((t) => ({ ...t }));
    },
  };
}
