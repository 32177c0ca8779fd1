import { describe, expect, it } from "vitest";
import { Fingerprinter } from "./fingerprint.ts";
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

  it("hand-written fingerprints of the hot commands equal the schema walk's", () => {
    const fingerprinter = new Fingerprinter();
    const fast = new Int32Array(2);
    const general = new Int32Array(2);
    const commands: Command[] = [
      order,
      c.limit("7", "ETH-BTC", "sell", 12_345, 9, "post_only", "demo"),
      c.limit("system:market_maker", "BTC-USDT", "buy", 2 ** 40, 2 ** 31, "gtc"),
      c.order("1", "BTC-USDT", "sell", "market", "ioc", null, 5, null),
      c.cancel("1", 77, "demo"),
      c.cancel("u12", 2 ** 33),
      c.replace("3", 5, 10_001, 12),
      c.replace("3", 5, 1.5, -3, "demo"),
    ];
    for (const command of commands) {
      fingerprinter.fingerprint(command, fast);
      fingerprinter.fingerprintGeneral(command, general);
      expect([...fast]).toEqual([...general]);
    }
  });
});
