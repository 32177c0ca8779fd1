import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdIndex } from "./id-index.ts";

describe("IdIndex", () => {
  it("agrees with a Map under random adds and in-order expiry", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.nat({ max: 3 })), { maxLength: 400 }),
        (steps) => {
          const ids: string[] = [];
          const source = { ids, mask: 0x3fffffff, head: 0 };
          const index = new IdIndex(source, 4);
          const model = new Map<string, number>();
          for (const [id, expire] of steps) {
            expect(index.get(id)).toBe(model.get(id) ?? -1);
            if (!model.has(id)) {
              model.set(id, ids.length);
              index.set(id, ids.length);
              ids.push(id);
            }
            for (let k = 0; k < expire && source.head < ids.length; k++, source.head++) {
              const old = ids[source.head]!;
              if (model.get(old) === source.head) {
                model.delete(old);
                index.delete(old, source.head);
              }
            }
            expect(index.size).toBe(model.size);
          }
          for (const [id, position] of model) expect(index.get(id)).toBe(position);
        },
      ),
      { numRuns: 300 },
    );
  });
});
