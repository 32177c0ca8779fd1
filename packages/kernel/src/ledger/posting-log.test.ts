import { describe, expect, it } from "vitest";
import { PostingLog } from "./posting-log.ts";
import type { Posting } from "./types.ts";

function posting(seq: number, overrides: Partial<Posting> = {}): Posting {
  return {
    seq,
    debitAccount: "1|real|fund|USDT",
    creditAccount: "2|real|fund|USDT",
    assetId: "USDT",
    amount: 1_000n + BigInt(seq),
    debitHeld: seq % 2 === 0,
    reason: "trade",
    commandId: `c${seq}`,
    atMs: 1_700_000_000_000 + seq,
    orderId: seq,
    fillId: null,
    tickId: "t1",
    operatorId: null,
    reference: null,
    ...overrides,
  };
}

describe("PostingLog", () => {
  it("reads back what it stored, large amounts and nulls included", () => {
    const log = new PostingLog();
    const stored = [
      posting(1),
      posting(2, { amount: 2n ** 53n + 1n, orderId: null, fillId: 7, operatorId: "op" }),
      posting(3, { amount: 10n ** 30n, reference: "ref", tickId: null, orderId: 0 }),
    ];
    const slots = stored.map((p) => log.add(p));
    for (const slot of slots) log.keep(slot);
    expect(slots.map((slot) => log.posting(slot))).toEqual(stored);
    expect(slots.map((slot) => log.seqOf(slot))).toEqual([1, 2, 3]);
  });

  it("frees a slot when the last account drops it, and reuses it", () => {
    const log = new PostingLog();
    const slot = log.add(posting(1, { amount: 2n ** 60n }));
    log.keep(slot);
    log.keep(slot);
    log.drop(slot);
    expect(log.size).toBe(1);
    expect(log.posting(slot).amount).toBe(2n ** 60n);
    log.drop(slot);
    expect(log.size).toBe(0);
    const again = log.add(posting(2));
    expect(again).toBe(slot);
    log.keep(again);
    expect(log.posting(again)).toEqual(posting(2));
  });

  it("grows past its first capacity without losing postings", () => {
    const log = new PostingLog();
    const stored = Array.from({ length: 5_000 }, (_, i) => posting(i + 1));
    const slots = stored.map((p) => {
      const slot = log.add(p);
      log.keep(slot);
      return slot;
    });
    expect(log.size).toBe(5_000);
    expect(log.posting(slots[0]!)).toEqual(stored[0]);
    expect(log.posting(slots[4_999]!)).toEqual(stored[4_999]);
  });
});
