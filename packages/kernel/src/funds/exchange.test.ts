// Quick exchange scenarios: a quote cites the tape tick and the disclosed spread, the accept
// moves exactly the quoted amounts against the labelled house, and every rejection changes
// nothing.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance, getExchangeQuote } from "../queries.ts";
import { snapshot } from "../snapshot.ts";
import { createKernelState, type KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import type { Command } from "../types.ts";

function setup(): { state: KernelState; c: CommandMaker } {
  const state = createKernelState({ demoGrants: [] });
  const c = new CommandMaker();
  const commands = [
    c.asset("USDT", 6),
    c.asset("BTC", 8, 10n ** 12n),
    c.asset("ETH", 8),
    c.market("BTC-USDT", "BTC", "USDT"),
    c.open("1"),
    c.open("2"),
    c.open("1", "demo"),
    c.deposit("1", "USDT", 10_000_000_000n), // 10,000 USDT
    c.deposit("1", "BTC", 10_000_000n), // 0.1 BTC
    c.deposit("system:house", "BTC", 100_000_000n), // 1 BTC
    c.deposit("system:house", "USDT", 1_000_000_000n), // 1,000 USDT
    c.grant("1", "USDT", 5_000_000_000n),
    c.tick("BTC-USDT", "30000"),
  ];
  for (const command of commands) {
    expect(apply(state, command).result, command.type).toMatchObject({ ok: true });
  }
  return { state, c };
}

const fund = (state: KernelState, owner: string, asset: string, mode: "real" | "demo" = "real") =>
  getBalance(state, owner, mode, "fund", asset).available;

describe("quick exchange", () => {
  it("quotes from the last tick with the spread, then executes exactly that", () => {
    const { state, c } = setup();
    const quote = c.exchangeQuote("1", "USDT", 3_000_000_000n, "BTC"); // 3,000 USDT, 50 bps
    const quoted = apply(state, quote);
    expect(quoted.result.ok).toBe(true);
    // 3,000 / (30,000 × 1.005) = 0.09950248… BTC, rounded down to satoshis.
    expect(quoted.events).toEqual([
      {
        type: "exchange_quoted",
        quote: expect.objectContaining({
          quoteId: quote.id,
          side: "buy",
          tickId: "tc13",
          price: "30000",
          spreadBps: 50,
          targetAmount: 9_950_248n,
          expiresAtMs: quote.atMs + 10_000,
        }),
      },
    ]);
    // A newer tick does not change a standing quote.
    apply(state, c.tick("BTC-USDT", "35000"));
    const accepted = apply(state, c.exchangeAccept("1", quote.id));
    expect(accepted.result.ok).toBe(true);
    checkInvariants(state);
    expect(fund(state, "1", "USDT")).toBe(7_000_000_000n);
    expect(fund(state, "1", "BTC")).toBe(10_000_000n + 9_950_248n);
    expect(fund(state, "system:house", "USDT")).toBe(4_000_000_000n);
    expect(fund(state, "system:house", "BTC")).toBe(100_000_000n - 9_950_248n);
    const postings = accepted.events.filter((e) => e.type === "posting");
    expect(postings).toHaveLength(2);
    for (const event of postings) {
      expect(event.posting).toMatchObject({
        reason: "exchange",
        tickId: "tc13",
        reference: quote.id,
      });
    }
    // Accepted once: the quote is gone.
    expect(getExchangeQuote(state, quote.id)).toBeUndefined();
    expect(apply(state, c.exchangeAccept("1", quote.id)).result).toEqual({
      ok: false,
      code: "quote_not_found",
    });
  });

  it("sells base for quote at the tick less the spread, rounded down", () => {
    const { state, c } = setup();
    const quote = c.exchangeQuote("1", "BTC", 1_000_001n, "USDT", "real", { spreadBps: 100 });
    apply(state, quote);
    // 0.01000001 × 30,000 × 0.99 = 297.000297 USDT.
    expect(getExchangeQuote(state, quote.id)?.targetAmount).toBe(297_000_297n);
  });

  it("demo money trades only with the demo house", () => {
    const { state, c } = setup();
    // The real house holds BTC; the demo house holds nothing yet.
    expect(apply(state, c.exchangeQuote("1", "USDT", 1_000_000n, "BTC", "demo")).result).toEqual({
      ok: false,
      code: "house_insufficient",
    });
    apply(state, c.grant("system:house", "BTC", 100_000_000n));
    const quote = c.exchangeQuote("1", "USDT", 300_000_000n, "BTC", "demo");
    expect(apply(state, quote).result.ok).toBe(true);
    expect(apply(state, c.exchangeAccept("1", quote.id, "demo")).result.ok).toBe(true);
    expect(fund(state, "system:house", "USDT", "demo")).toBe(300_000_000n);
    expect(fund(state, "system:house", "USDT")).toBe(1_000_000_000n);
    checkInvariants(state);
  });

  it("expired quotes are refused, then pruned by the clock", () => {
    const { state, c } = setup();
    const quote = c.exchangeQuote("1", "USDT", 1_000_000n, "BTC");
    apply(state, quote);
    c.nowMs += 10_001;
    expect(apply(state, c.exchangeAccept("1", quote.id)).result).toEqual({
      ok: false,
      code: "quote_expired",
    });
    expect(getExchangeQuote(state, quote.id)).toBeDefined();
    apply(state, c.clock());
    expect(getExchangeQuote(state, quote.id)).toBeUndefined();
    checkInvariants(state);
  });

  type Case = [string, (c: CommandMaker, state: KernelState) => Command];
  const cases: Case[] = [
    ["house_insufficient", (c) => c.exchangeQuote("1", "BTC", 10_000_000n, "USDT")],
    ["insufficient_balance", (c) => c.exchangeQuote("1", "USDT", 20_000_000_000n, "BTC")],
    ["quote_amount_too_small", (c) => c.exchangeQuote("1", "USDT", 1n, "BTC")],
    ["amount_must_be_positive", (c) => c.exchangeQuote("1", "USDT", -5n, "BTC")],
    ["market_not_found", (c) => c.exchangeQuote("1", "ETH", 1n, "USDT")],
    ["asset_not_found", (c) => c.exchangeQuote("1", "DOGE", 1n, "USDT")],
    ["same_account", (c) => c.exchangeQuote("1", "USDT", 1n, "USDT")],
    ["owner_not_allowed", (c) => c.exchangeQuote("system:house", "USDT", 1n, "BTC")],
    ["account_not_found", (c) => c.exchangeQuote("2", "USDT", 1n, "BTC", "demo")],
    [
      "quote_terms_invalid",
      (c) => c.exchangeQuote("1", "USDT", 1_000_000n, "BTC", "real", { spreadBps: 1_001 }),
    ],
    [
      "quote_terms_invalid",
      (c) => c.exchangeQuote("1", "USDT", 1_000_000n, "BTC", "real", { ttlMs: 600_000 }),
    ],
    [
      "reference_price_stale",
      (c) => {
        c.nowMs += 120_000;
        return c.exchangeQuote("1", "USDT", 1_000_000n, "BTC");
      },
    ],
    ["quote_not_found", (c) => c.exchangeAccept("1", "nope")],
  ];

  it.each(cases)("%s changes nothing", (code, build) => {
    const { state, c } = setup();
    const before = JSON.parse(new TextDecoder().decode(snapshot(state))) as Record<string, unknown>;
    const out = apply(state, build(c, state));
    expect(out.result).toEqual({ ok: false, code });
    expect(out.events).toEqual([]);
    const after = JSON.parse(new TextDecoder().decode(snapshot(state))) as Record<string, unknown>;
    for (const field of ["idempotency", "nowMs"]) {
      delete after[field];
      delete before[field];
    }
    expect(after).toEqual(before);
  });

  it("another owner cannot accept someone's quote, and quotes are bounded per owner", () => {
    const { state, c } = setup();
    apply(state, c.deposit("2", "USDT", 100_000_000n));
    const quote = c.exchangeQuote("1", "USDT", 1_000_000n, "BTC");
    apply(state, quote);
    expect(apply(state, c.exchangeAccept("2", quote.id)).result).toEqual({
      ok: false,
      code: "quote_not_found",
    });
    for (let i = 1; i < 20; i++) {
      expect(apply(state, c.exchangeQuote("1", "USDT", 1_000_000n, "BTC")).result.ok).toBe(true);
    }
    expect(apply(state, c.exchangeQuote("1", "USDT", 1_000_000n, "BTC")).result).toEqual({
      ok: false,
      code: "too_many_quotes",
    });
    expect(apply(state, c.exchangeQuote("2", "USDT", 1_000_000n, "BTC")).result.ok).toBe(true);
    checkInvariants(state);
  });
});
