// The perpetual reference model's hand-checked scenarios: command builders, the scenario table's
// shape, and the check every scenario runs (accounts, system balances, rejections, events and
// the invariants). Market BTC-PERP: one lot = 0.001 BTC, price step 0.1, so 30,000.0 USDT =
// 300,000 ticks and one lot at one tick = 100 units (0.0001 USDT); tier 0 maintenance 0.40 %,
// liquidation fee 0.10 %.
import { expect } from "vitest";
import type { PerpMarketParams } from "./params.ts";
import type { RefCommand, RefEvent } from "./reference.ts";
import { createReferenceState, INSURANCE_FUND_ID, runReference } from "./reference.ts";
import { referenceViolations } from "./reference-invariants.ts";
import { btcPerp, usdt } from "./testing.ts";

export const FUND = INSURANCE_FUND_ID;

export const dep = (ownerId: string, amount: string): RefCommand => ({
  type: "deposit",
  ownerId,
  amount: usdt(amount),
});
export const mark = (tickId: string, indexTicks: bigint): RefCommand => ({
  type: "mark",
  tickId,
  indexTicks,
  bidTicks: null,
  askTicks: null,
});
export const fill = (
  buyerId: string,
  sellerId: string,
  lots: bigint,
  priceTicks: bigint,
  taker: "buy" | "sell" = "buy",
): RefCommand => ({ type: "fill", buyerId, sellerId, lots, priceTicks, taker });
export const isolated = (ownerId: string): RefCommand => ({
  type: "set_margin_mode",
  ownerId,
  marginMode: "isolated",
});
export const leverage = (ownerId: string, value: number): RefCommand => ({
  type: "set_leverage",
  ownerId,
  leverage: value,
});
export const bid = (ownerId: string, priceTicks: bigint, lots: bigint): RefCommand => ({
  type: "rest",
  ownerId,
  side: "buy",
  priceTicks,
  lots,
});

/** [wallet, isolated margin, size lots, entry cost] with money as USDT text. */
export type AccountRow = [string, string, bigint, string];

export interface Scenario {
  name: string;
  market?: Partial<PerpMarketParams>;
  when: RefCommand[];
  rejects?: string[];
  accounts: Record<string, AccountRow>;
  /** [fees, funding remainder, clearing] as USDT text. */
  system: [string, string, string];
  /** Events of these types, in order (fills only when part of a liquidation). */
  events?: { types: RefEvent["type"][]; expected: unknown[] };
}

export const noFees = { feeBpsMaker: 0, feeBpsTaker: 0 };

/** Runs a scenario on a fresh reference state and checks everything its table gives. */
export function checkScenario(scenario: Scenario): void {
  const market = btcPerp(scenario.market ?? {});
  const { state, events, rejected } = runReference(createReferenceState(market), scenario.when);
  expect(rejected).toEqual(scenario.rejects ?? []);
  for (const [ownerId, [wallet, margin, size, cost]] of Object.entries(scenario.accounts)) {
    const account = state.accounts.get(ownerId);
    expect([ownerId, account?.wallet, account?.isolatedMargin, account?.position]).toEqual([
      ownerId,
      usdt(wallet),
      usdt(margin),
      { sizeLots: size, entryCost: usdt(cost) },
    ]);
  }
  const [fees, remainder, clearing] = scenario.system;
  expect([state.fees, state.fundingRemainder, state.clearing]).toEqual([
    usdt(fees),
    usdt(remainder),
    usdt(clearing),
  ]);
  if (scenario.events !== undefined) {
    const types = scenario.events.types;
    const listed = events.filter(
      (event) =>
        types.includes(event.type) && !(event.type === "fill" && event.liquidatedId === null),
    );
    expect(listed).toEqual(scenario.events.expected);
  }
  expect(referenceViolations(state)).toEqual([]);
}
