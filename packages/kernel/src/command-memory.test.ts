import { describe, expect, it } from "vitest";
import { Fingerprinter } from "./command-memory.ts";
import { CommandMaker } from "./testing/commands.ts";
import type { Command } from "./types.ts";

function print(command: Command): [number, number] {
  const out = new Int32Array(2);
  new Fingerprinter().fingerprint(command, out);
  return [out[0]!, out[1]!];
}

describe("command fingerprint", () => {
  const c = new CommandMaker();
  const order = c.order("1", "BTC-USDT", "buy", "market", "ioc", null, null, 123n);

  it("ignores atMs and sees every other field", () => {
    expect(print({ ...order, atMs: order.atMs + 5 })).toEqual(print(order));
    const variants: Command[] = [
      { ...order, ownerId: "2" },
      { ...order, mode: "demo" },
      { ...order, marketId: "BTC-USDT " },
      { ...order, side: "sell" },
      { ...order, timeInForce: "fok" },
      { ...order, priceTicks: 0 },
      { ...order, quantityLots: 123 },
      { ...order, quoteAmount: 124n },
      { ...order, quoteAmount: -123n },
      { ...order, quoteAmount: 123n + 2n ** 64n },
      { ...order, quoteAmount: null },
      { ...order, type: "cancel_order", orderId: 1 } as unknown as Command,
    ];
    const prints = new Set([JSON.stringify(print(order))]);
    for (const variant of variants) prints.add(JSON.stringify(print(variant)));
    expect(prints.size).toBe(variants.length + 1);
  });
});
