import { describe, expect, it } from "vitest";
import type { CandorApplied } from "../../engine/kernel-port.ts";
import { ClientOrderIdIndex, type ClientOrderIdSource } from "./spot.client-order-ids.ts";

const accepted = (clientOrderId: string) =>
  ({ events: [{ type: "order_accepted", order: { clientOrderId } }] }) as unknown as CandorApplied;

describe("the client order id index", () => {
  it("says 'maybe' for every id until loaded, then 'no' only for ids never accepted", async () => {
    const sut = new ClientOrderIdIndex();
    expect(sut.mayContain("spot:1:new")).toBe(true);
    sut.handle(accepted("spot:1:live"));
    let cursor = 5n;
    const reads: number[] = [];
    const source: ClientOrderIdSource = {
      readModelCursor: async () => cursor++,
      clientOrderIdsAfter: async (after, limit) => {
        reads.push(after);
        const all = [1, 2, 3].map((n) => ({ orderId: n, clientOrderId: `spot:1:stored-${n}` }));
        return all.filter((r) => r.orderId > after).slice(0, limit);
      },
    };
    // The read model is behind the engine (cursor 5 < 7): the load waits until it caught up.
    await sut.load(source, 7n, { pageSize: 2, pollMs: 1 });
    expect(cursor).toBe(8n);
    expect(reads).toEqual([0, 2]);
    expect(sut.ready).toBe(true);
    expect(sut.size).toBe(4);
    for (const id of ["spot:1:live", "spot:1:stored-1", "spot:1:stored-3"]) {
      expect(sut.mayContain(id), id).toBe(true);
    }
    expect(sut.mayContain("spot:1:new")).toBe(false);
    expect(sut.mayContain("spot:2:live")).toBe(false);
    sut.handle(accepted("spot:1:new"));
    expect(sut.mayContain("spot:1:new")).toBe(true);
  });

  it("stops loading when the module closes", async () => {
    const sut = new ClientOrderIdIndex();
    let closed = false;
    const loading = sut.load(
      { readModelCursor: async () => 0n, clientOrderIdsAfter: async () => [] },
      10n,
      { pollMs: 1, stopped: () => closed },
    );
    closed = true;
    await loading;
    expect(sut.ready).toBe(false);
  });
});
