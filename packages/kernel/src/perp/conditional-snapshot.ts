// Perp conditional orders in the snapshot and the invariants (the orders: conditional.ts).

import type { SelfTradeMode } from "../book/types.ts";
import type { Json } from "../module.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import {
  conditionalTriggerId,
  indexConditional,
  perpDirectionOf,
  type PerpConditional,
  type PerpConditionalKind,
  type Side,
  type Tif,
} from "./conditional.ts";
import { sideOf } from "./kernel-state.ts";
import { splitKey } from "./snapshot-section.ts";

/** Written only once a conditional order was ever placed, so older snapshots keep their hash. */
export function writeConditionals(state: KernelState): Json | undefined {
  if (state.perp.conditionalIdNext === 1) return undefined;
  return {
    next: state.perp.conditionalIdNext,
    items: [...state.perp.conditionals.values()]
      .sort((a, b) => a.conditionalId - b.conditionalId)
      .map((c): Json => {
        const row: Json[] = [
          c.conditionalId,
          c.clientOrderId,
          c.account.key,
          c.kind,
          c.side,
          c.orderType,
          c.timeInForce,
          c.triggerTicks,
          c.priceTicks,
          c.quantityLots,
          c.reduceOnly,
          c.selfTradeMode,
          c.createdAtMs,
        ];
        // An OCO leg names its partner; a single order's row is as before (same hash).
        if (c.ocoWith !== 0) row.push(c.ocoWith);
        return row;
      }),
  };
}

export function readConditionals(state: KernelState, json: Json | undefined): void {
  if (json === undefined) return;
  const data = json as { next: number; items: Json[][] };
  state.perp.conditionalIdNext = data.next;
  for (const r of data.items) {
    const key = r[2] as string;
    const [mode, , marketId] = splitKey(key);
    const side = sideOf(state.perp.markets.get(marketId)!, mode as Mode);
    const account = side.accounts.get(key)!;
    const c: PerpConditional = {
      conditionalId: r[0] as number,
      clientOrderId: r[1] as string,
      account,
      kind: r[3] as PerpConditionalKind,
      side: r[4] as Side,
      orderType: r[5] as "limit" | "market",
      timeInForce: r[6] as Tif,
      triggerTicks: r[7] as number,
      priceTicks: r[8] as number | null,
      quantityLots: r[9] as number,
      reduceOnly: r[10] as boolean,
      selfTradeMode: r[11] as SelfTradeMode,
      createdAtMs: r[12] as number,
      ocoWith: (r[13] as number | undefined) ?? 0,
    };
    state.perp.conditionals.set(c.conditionalId, c);
    account.conditionals.add(c.conditionalId);
    indexConditional(c);
  }
}

/** Every waiting conditional order is in its side's trigger index, and nothing else is. */
export function checkConditionalInvariants(state: KernelState, assert: AssertFn): void {
  let indexed = 0;
  for (const market of state.perp.markets.values()) {
    for (const side of [market.real, market.demo]) {
      for (const trigger of side.triggers.list()) if (trigger.id[0] === "C") indexed++;
    }
  }
  assert(indexed === state.perp.conditionals.size, "perp conditional triggers disagree");
  for (const c of state.perp.conditionals.values()) {
    const trigger = c.account.side.triggers.get(conditionalTriggerId(c.conditionalId));
    assert(
      trigger !== undefined &&
        trigger.priceTicks === BigInt(c.triggerTicks) &&
        trigger.direction === perpDirectionOf(c.kind, c.side),
      `perp conditional ${c.conditionalId} not indexed`,
    );
    assert(
      c.account.conditionals.has(c.conditionalId),
      `perp conditional ${c.conditionalId} unknown to its account`,
    );
    if (c.ocoWith !== 0) {
      const partner = state.perp.conditionals.get(c.ocoWith);
      assert(
        partner !== undefined &&
          partner.ocoWith === c.conditionalId &&
          partner.account === c.account,
        `perp conditional ${c.conditionalId} lost the other leg of its OCO pair`,
      );
    }
  }
}

type AssertFn = (condition: boolean, message: string) => asserts condition;
