import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashId, IdIndex, type IdSource } from "./id-index.ts";

/** A source as the command memory is one: ids by position, each live one's index slot. */
class Source implements IdSource {
  ids: string[] = [];
  slots: number[] = [];
  mask = 0x3fffffff;
  head = 0;
  tail = 0;
  hashAt(position: number): number {
    return hashId(this.ids[position & this.mask]!);
  }
  slotMoved(position: number, slot: number): void {
    this.slots[position & this.mask] = slot;
  }
}

describe("IdIndex", () => {
  it("agrees with a Map under random adds and in-order expiry, through rebuilds", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.nat({ max: 3 })), { maxLength: 600 }),
        (steps) => {
          const source = new Source();
          const index = new IdIndex(source, 4);
          const model = new Map<string, number>();
          for (const [id, expire] of steps) {
            expect(index.get(id)).toBe(model.get(id) ?? -1);
            if (!model.has(id)) {
              const position = source.tail++;
              model.set(id, position);
              source.ids.push(id);
              source.slots.push(index.set(id, position));
            }
            for (let k = 0; k < expire && source.head < source.tail; k++) {
              const position = source.head++;
              index.delete(source.slots[position]!);
              model.delete(source.ids[position]!);
            }
            expect(index.size).toBe(model.size);
          }
          for (const [id, position] of model) expect(index.get(id)).toBe(position);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps misses short under steady churn: deleted slots do not pile up", () => {
    const source = new Source();
    const index = new IdIndex(source, 1024);
    for (let n = 0; n < 200_000; n++) {
      const position = source.tail++;
      source.ids.push(`c${n}`);
      source.slots.push(index.set(`c${n}`, position));
      if (source.tail - source.head > 300) index.delete(source.slots[source.head++]!);
    }
    // 300 live ids never need more than the first table.
    expect(index.capacity).toBe(1024);
    for (let n = 0; n < 1_000; n++) expect(index.get(`x${n}`)).toBe(-1);
    expect(index.get("c199999")).toBe(199_999);
    expect(index.get("c199699")).toBe(-1);
  });

  it("finds positions past 2^31 (stored modulo 2^31 − 1)", () => {
    const source = new Source();
    source.mask = 1023;
    const first = 2 ** 31 - 700;
    source.head = source.tail = first;
    const index = new IdIndex(source, 16);
    for (let position = first; position < first + 1_400; position++) {
      source.ids[position & source.mask] = `p${position}`;
      source.tail = position + 1;
      source.slots[position & source.mask] = index.set(`p${position}`, position);
      if (source.tail - source.head > 300) {
        index.delete(source.slots[source.head & source.mask]!);
        source.head++;
      }
      expect(index.get(`p${position}`)).toBe(position);
      expect(index.get(`p${source.head}`)).toBe(source.head);
    }
  });
});
