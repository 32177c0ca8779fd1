import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashId, IdIndex } from "./id-index.ts";

describe("IdIndex", () => {
  it("agrees with a Map under random adds, in-order expiry and batched deletes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.nat({ max: 3 }), fc.boolean()), {
          maxLength: 400,
        }),
        (steps) => {
          // As the command memory uses it: forgotten positions leave the index later, in batches.
          const ids: string[] = [];
          const source = { ids, mask: 0x3fffffff, head: 0, tail: 0 };
          const index = new IdIndex(source, 4);
          const model = new Map<string, number>();
          let indexed = 0;
          const unindex = () => {
            for (; indexed < source.head; indexed++) index.delete(indexed, hashId(ids[indexed]!));
          };
          for (const [id, expire, flush] of steps) {
            expect(index.get(id)).toBe(model.get(id) ?? -1);
            if (!model.has(id)) {
              model.set(id, ids.length);
              ids.push(id);
              source.tail = ids.length;
              index.set(id, ids.length - 1);
            }
            for (let k = 0; k < expire && source.head < ids.length; k++, source.head++) {
              const old = ids[source.head]!;
              if (model.get(old) === source.head) model.delete(old);
            }
            if (flush) unindex();
            expect(index.size).toBe(model.size + (source.head - indexed));
          }
          unindex();
          expect(index.size).toBe(model.size);
          for (const [id, position] of model) expect(index.get(id)).toBe(position);
        },
      ),
      { numRuns: 300 },
    );
  });
});
