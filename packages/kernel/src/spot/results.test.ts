import { describe, expect, expectTypeOf, it } from "vitest";
import { apply } from "../apply.ts";
import type { TransferWalletCommand } from "../funds/types.ts";
import type { PostingValue, ResultOf } from "../types.ts";
import { createKernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import type { CancelOrderCommand, OrderOutcome, PlaceOrderCommand } from "./types.ts";

describe("per-command results", () => {
  it("each command returns the value of its own type, and a duplicate the same", () => {
    const state = createKernelState();
    const c = new CommandMaker();
    for (const command of [
      c.asset("USDT", 6),
      c.asset("BTC", 8),
      c.market("BTC-USDT", "BTC", "USDT"),
      c.session("BTC-USDT", true),
      c.open("1"),
    ]) {
      expect(apply(state, command).result).toEqual({ ok: true, value: {} });
    }
    const deposit = c.deposit("1", "USDT", 1_000_000_000n);
    expect(apply(state, deposit).result).toEqual({ ok: true, value: { postingSeq: 1 } });
    const place = c.limit("1", "BTC-USDT", "buy", 100, 2);
    const placed = apply(state, place);
    expectTypeOf(placed.result).toEqualTypeOf<ResultOf<PlaceOrderCommand>>();
    expect(placed.result).toEqual({
      ok: true,
      value: { orderId: 1, orderStatus: "open", filledLots: 0, restingLots: 2 },
    });
    if (placed.result.ok) expectTypeOf(placed.result.value).toEqualTypeOf<OrderOutcome>();
    const again = apply(state, { ...place, atMs: place.atMs + 10 });
    expect(again).toEqual({ result: placed.result, events: [], duplicate: true });
    const cancel = apply(state, c.cancel("1", 1) as CancelOrderCommand);
    expectTypeOf(cancel.result).toEqualTypeOf<ResultOf<CancelOrderCommand>>();
    expect(cancel.result).toEqual({ ok: true, value: { orderId: 1, cancelledCount: 1 } });
    expect(apply(state, c.cancelAll("1")).result).toEqual({
      ok: true,
      value: { cancelledCount: 0 },
    });
    const transferCommand = c.transferWallet("1", "USDT", 5n, "fund", "fiat");
    const transfer = apply(state, transferCommand as TransferWalletCommand);
    if (transfer.result.ok) expectTypeOf(transfer.result.value).toEqualTypeOf<PostingValue>();
    expect(transfer.result).toEqual({ ok: true, value: { postingSeq: 2 } });
  });
});
