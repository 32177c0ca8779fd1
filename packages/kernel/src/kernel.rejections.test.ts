// Every rejection is a stable code and changes nothing but remembering the command id.
import { describe, expect, it } from "vitest";
import { decodeCommand, encodeCommand } from "./command-codec.ts";
import { checkInvariants } from "./invariants.ts";
import { apply, createKernelState } from "./index.ts";
import { rejectCodes } from "./reject-codes.ts";
import { snapshot } from "./snapshot.ts";
import type { KernelState } from "./state.ts";
import { CommandMaker } from "./testing/commands.ts";
import type { Command } from "./index.ts";

function setup(): { state: KernelState; c: CommandMaker } {
  const state = createKernelState({ openOrdersPerOwnerMax: 2 });
  const c = new CommandMaker();
  const commands = [
    c.asset("USDT", 6),
    c.asset("BTC", 8, 10n ** 12n),
    c.market("BTC-USDT", "BTC", "USDT", { quantityLotsMin: 2, quantityLotsMax: 100 }),
    c.market("TINY", "BTC", "USDT", { levelsPerSideMax: 1 }),
    c.market("SHUT", "BTC", "USDT"),
    c.session("BTC-USDT", true),
    c.session("TINY", true),
    c.open("1"),
    c.open("2"),
    c.open("1", "demo"),
    c.deposit("1", "USDT", 1_000_000n),
    c.deposit("1", "BTC", 10_000_000n),
  ];
  for (const command of commands) expect(apply(state, command).result.ok).toBe(true);
  return { state, c };
}

type Case = [string, (c: CommandMaker, state: KernelState) => Command];

const cases: Case[] = [
  ["market_not_found", (c) => c.limit("1", "NOPE", "buy", 1, 2)],
  ["market_closed", (c) => c.limit("1", "SHUT", "buy", 1, 2)],
  ["account_not_found", (c) => c.limit("3", "BTC-USDT", "buy", 1, 2)],
  ["owner_id_invalid", (c) => c.limit("a b", "BTC-USDT", "buy", 1, 2)],
  ["owner_not_allowed", (c) => c.limit("system:fees", "BTC-USDT", "buy", 1, 2)],
  ["price_must_be_positive", (c) => c.limit("1", "BTC-USDT", "buy", -5, 2)],
  ["price_too_high", (c) => c.limit("1", "BTC-USDT", "buy", 2 ** 50, 2)],
  ["quantity_below_minimum", (c) => c.limit("1", "BTC-USDT", "buy", 1, 1)],
  ["quantity_too_high", (c) => c.limit("1", "BTC-USDT", "buy", 1, 101)],
  ["insufficient_balance", (c) => c.limit("1", "BTC-USDT", "buy", 100_000, 100)],
  ["time_in_force_invalid", (c) => c.order("1", "BTC-USDT", "buy", "market", "gtc", null, 2, null)],
  ["order_type_invalid", (c) => c.order("1", "BTC-USDT", "buy", "market", "ioc", null, 2, 5n)],
  ["no_reference_price", (c) => c.order("1", "BTC-USDT", "sell", "market", "ioc", null, 2, null)],
  ["order_not_found", (c) => c.cancel("1", 999)],
  ["nothing_to_cancel_is_ok", (c) => c.cancelAll("1")],
  ["demo_not_allowed", (c) => ({ ...c.deposit("1", "USDT", 1n), mode: "demo" }) as Command],
  ["real_not_allowed", (c) => ({ ...c.grant("1", "USDT", 1n), mode: "real" }) as Command],
  ["amount_above_maximum", (c) => c.deposit("1", "BTC", 10n ** 12n + 1n)],
  ["same_account", (c) => c.transferWallet("1", "USDT", 1n, "fund", "fund")],
  ["withdrawal_not_found", (c) => c.withdrawComplete("w-none")],
  ["accounts_already_open", (c) => c.open("1")],
  ["asset_exists", (c) => c.asset("USDT", 6)],
  ["asset_invalid", (c) => c.asset("BAD ID", 6)],
  ["market_exists", (c) => c.market("BTC-USDT", "BTC", "USDT")],
  // 0.001 × 0.0000001 × 10^6 is not a whole number of USDT units.
  ["market_invalid", (c) => c.market("ODD", "BTC", "USDT", { lotSize: "0.0000001" })],
  ["asset_not_found", (c) => c.market("X-Y", "X", "Y")],
  ["price_invalid", (c) => ({ ...c.tick("BTC-USDT", "1"), price: "1e5" }) as Command],
  ["mode_invalid", (c) => ({ ...c.open("5"), mode: "paper" }) as unknown as Command],
  [
    "wallet_invalid",
    (c) =>
      ({
        ...c.transferWallet("1", "USDT", 1n, "fund", "fiat"),
        targetWallet: "x",
      }) as unknown as Command,
  ],
  ["command_unknown", (c) => ({ ...c.clock(), type: "set_balance" }) as unknown as Command],
  ["command_malformed", (c) => ({ ...c.open("5"), ownerId: 5 }) as unknown as Command],
  ["command_id_invalid", (c) => ({ ...c.open("5"), id: "has space" }) as Command],
  ["timestamp_invalid", (c) => ({ ...c.open("5"), atMs: 1.5 }) as Command],
  ["time_went_backwards", (c) => ({ ...c.open("5"), atMs: 0 }) as Command],
];

describe("rejections", () => {
  it.each(cases)("%s", (code, build) => {
    const { state, c } = setup();
    const before = snapshot(state);
    const out = apply(state, build(c, state));
    checkInvariants(state);
    if (code === "nothing_to_cancel_is_ok") {
      expect(out.result).toMatchObject({ ok: true, value: { cancelledCount: 0 } });
      return;
    }
    expect(out.result).toEqual({ ok: false, code });
    expect(out.events).toEqual([]);
    // Nothing changed but (at most) the remembered id.
    const after = JSON.parse(new TextDecoder().decode(snapshot(state))) as Record<string, unknown>;
    const was = JSON.parse(new TextDecoder().decode(before)) as Record<string, unknown>;
    delete after.idempotency;
    delete was.idempotency;
    delete after.nowMs;
    delete was.nowMs;
    expect(after).toEqual(was);
  });

  it("too many open orders, full books, post-only and fok", () => {
    const { state, c } = setup();
    expect(apply(state, c.limit("1", "BTC-USDT", "buy", 1, 2)).result.ok).toBe(true);
    expect(apply(state, c.limit("1", "BTC-USDT", "buy", 2, 2)).result.ok).toBe(true);
    expect(apply(state, c.limit("1", "BTC-USDT", "buy", 3, 2)).result).toEqual({
      ok: false,
      code: "too_many_open_orders",
    });
    // An ioc never rests, so the limit does not apply.
    expect(apply(state, c.limit("1", "BTC-USDT", "buy", 3, 2, "ioc")).result.ok).toBe(true);
    expect(apply(state, c.cancelAll("1")).result).toMatchObject({
      ok: true,
      value: { cancelledCount: 2 },
    });
    expect(apply(state, c.limit("1", "TINY", "buy", 1, 2)).result.ok).toBe(true);
    expect(apply(state, c.limit("1", "TINY", "buy", 2, 2)).result).toEqual({
      ok: false,
      code: "book_full",
    });
    checkInvariants(state);
  });

  it("every code the kernel returns is in the append-only list", () => {
    for (const [code] of cases) {
      if (code !== "nothing_to_cancel_is_ok") expect(rejectCodes).toContain(code);
    }
  });

  it("decodeCommand refuses what encodeCommand did not write", () => {
    const c = new CommandMaker();
    const bytes = encodeCommand(c.open("1"));
    expect(() => decodeCommand(new TextEncoder().encode("[1,2,3]"))).toThrow();
    expect(() => decodeCommand(new TextEncoder().encode("{}"))).toThrow();
    expect(() => decodeCommand(bytes.slice(0, bytes.length - 2))).toThrow();
    expect(() =>
      decodeCommand(new TextEncoder().encode('["open_accounts","c1",1000,"1","paper"]')),
    ).toThrow();
  });
});
