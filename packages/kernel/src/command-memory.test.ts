import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CommandMemory } from "./command-memory.ts";
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

describe("command memory ring", () => {
  it("finds exactly the unexpired ids, in order, while it wraps and grows", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 5 }), fc.nat({ max: 3 })), { maxLength: 3_000 }),
        fc.nat({ max: 2_500 }),
        (steps, hoard) => {
          const memory = new CommandMemory();
          const model: { id: string; atMs: number; orderId: number }[] = [];
          let nowMs = 0;
          let serial = 0;
          // Nothing expires during the first `hoard` commands, so the ring must grow.
          for (const [step, [advance, expireAfter]] of steps.entries()) {
            const expire = step < hoard ? 0 : expireAfter;
            nowMs += advance;
            const id = `k${serial++}`;
            const command: Command = {
              type: "cancel_order",
              id,
              atMs: nowMs,
              ownerId: "u1",
              mode: "real",
              orderId: serial,
            };
            memory.remember(command, { ok: true, value: { orderId: serial, cancelledCount: 1 } });
            model.push({ id, atMs: nowMs, orderId: serial });
            // Expire everything older than a window of 40 ms, at most `expire` at a time.
            memory.prune(nowMs - 40, expire);
            let dropped = 0;
            while (dropped < expire && model.length > 0 && model[0]!.atMs < nowMs - 40) {
              model.shift();
              dropped++;
            }
          }
          expect(memory.size).toBe(model.length);
          expect([...memory.entries()].map((e) => [e.id, e.atMs])).toEqual(
            model.map((m) => [m.id, m.atMs]),
          );
          for (const m of model) {
            const position = memory.find(m.id);
            expect(position).not.toBe(-1);
            expect(memory.result(position)).toEqual({
              ok: true,
              value: { orderId: m.orderId, cancelledCount: 1 },
            });
          }
          for (let k = 0; k < serial - model.length; k++) expect(memory.find(`k${k}`)).toBe(-1);
        },
      ),
      { numRuns: 60 },
    );
  });
});
