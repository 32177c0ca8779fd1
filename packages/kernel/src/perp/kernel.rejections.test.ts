// Every perpetuals rejection changes nothing: same state hash before and after, no events.

import { describe, expect, it } from "vitest";
import { ledgerModule } from "../ledger/module.ts";
import type { KernelState } from "../state.ts";
import type { Command } from "../types.ts";
import { perpDefinition, PerpHarness, PERP } from "./kernel-testing.ts";
import { perpModule } from "./module.ts";

/** The ledger's and the perpetuals' snapshot sections: everything but remembered command ids. */
function sections(state: KernelState): string {
  return JSON.stringify([ledgerModule.snapshot.write(state), perpModule.snapshot.write(state)]);
}

const USDT = 1_000_000n;

function harness(): PerpHarness {
  const h = new PerpHarness();
  h.user("alice", 1_000n * USDT);
  h.user("bob", 1_000n * USDT);
  h.tick("50000.0");
  h.order("bob", "sell", 10, 500_000);
  h.order("alice", "buy", 10, 500_000);
  return h;
}

const base = { ownerId: "alice", mode: "real", marketId: PERP };

const cases: [string, Record<string, unknown>, string][] = [
  ["market exists", { ...perpDefinition() }, "market_exists"],
  [
    "unknown asset",
    { ...perpDefinition({ marketId: "X-PERP", quoteAssetId: "EUR" }) },
    "asset_not_found",
  ],
  [
    "tiers malformed",
    { ...perpDefinition({ marketId: "X-PERP", tiers: "0:50" }) },
    "perp_tiers_invalid",
  ],
  [
    "tier leverage above the market's",
    { ...perpDefinition({ marketId: "X-PERP", tiers: "0:50:0:60" }) },
    "perp_tiers_invalid",
  ],
  [
    "funding interval",
    { ...perpDefinition({ marketId: "X-PERP", fundingIntervalMs: 1_000 }) },
    "perp_funding_invalid",
  ],
  ["leverage 0", { type: "set_perp_leverage", ...base, leverage: 0 }, "leverage_invalid"],
  ["leverage above cap", { type: "set_perp_leverage", ...base, leverage: 51 }, "leverage_invalid"],
  [
    "unknown market",
    { type: "set_perp_leverage", ...base, marketId: "NOPE", leverage: 5 },
    "market_not_found",
  ],
  [
    "system owner",
    { type: "set_perp_leverage", ...base, ownerId: "system:fees", leverage: 5 },
    "owner_not_allowed",
  ],
  [
    "unknown owner",
    { type: "set_perp_leverage", ...base, ownerId: "zed", leverage: 5 },
    "account_not_found",
  ],
  [
    "mode locked",
    { type: "set_perp_margin_mode", ...base, marginMode: "isolated" },
    "margin_mode_locked",
  ],
  [
    "mode unknown",
    { type: "set_perp_margin_mode", ...base, ownerId: "carol", marginMode: "x" },
    "account_not_found",
  ],
  [
    "add margin to cross",
    { type: "add_perp_margin", ...base, amount: 1n },
    "position_not_isolated",
  ],
  [
    "remove margin from cross",
    { type: "remove_perp_margin", ...base, amount: 1n },
    "position_not_isolated",
  ],
  ["cancel tp/sl when none", { type: "cancel_perp_tp_sl", ...base }, "nothing_to_cancel"],
  [
    "cancel unknown order",
    { type: "cancel_perp_order", ownerId: "alice", mode: "real", orderId: 99 },
    "order_not_found",
  ],
  [
    "quantity 0",
    {
      type: "place_perp_order",
      ...base,
      side: "buy",
      orderType: "limit",
      timeInForce: "gtc",
      priceTicks: 500_000,
      quantityLots: 0,
      reduceOnly: false,
    },
    "quantity_must_be_positive",
  ],
  [
    "market order with a price",
    {
      type: "place_perp_order",
      ...base,
      side: "buy",
      orderType: "market",
      timeInForce: "ioc",
      priceTicks: 500_000,
      quantityLots: 1,
      reduceOnly: false,
    },
    "order_type_invalid",
  ],
  [
    "market order not ioc",
    {
      type: "place_perp_order",
      ...base,
      side: "buy",
      orderType: "market",
      timeInForce: "gtc",
      priceTicks: null,
      quantityLots: 1,
      reduceOnly: false,
    },
    "time_in_force_invalid",
  ],
];

describe("perpetuals rejections change nothing", () => {
  for (const [name, command, code] of cases) {
    it(name, () => {
      const h = harness();
      const before = sections(h.state);
      const out = h.tryRun(command as Omit<Command, "id" | "atMs">);
      expect(out.result).toEqual({ ok: false, code });
      expect(out.events).toHaveLength(0);
      expect(sections(h.state)).toBe(before);
    });
  }

  it("a post-only order that would trade gives its hold back", () => {
    const h = harness();
    h.order("bob", "sell", 1, 510_000);
    const before = sections(h.state);
    const out = h.order("alice", "buy", 1, 510_000, { tif: "post_only" });
    expect(out.result).toEqual({ ok: false, code: "post_only_would_trade" });
    expect(out.events).toHaveLength(0);
    expect(sections(h.state)).toBe(before);
  });

  it("tp/sl without a position is position_not_found", () => {
    const h = new PerpHarness();
    h.user("carol", 10n * USDT);
    h.tick("50000.0");
    h.leverage("carol", 5);
    const out = h.tryRun({
      type: "set_perp_tp_sl",
      ownerId: "carol",
      mode: "real",
      marketId: PERP,
      takeProfitTicks: 1,
      stopLossTicks: null,
    } as never);
    expect(out.result).toEqual({ ok: false, code: "position_not_found" });
  });
});
