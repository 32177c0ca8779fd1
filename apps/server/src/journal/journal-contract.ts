import { expect, it } from "vitest";
import type { Journal } from "./journal.ts";

/** How a backend under test is opened and reopened on the same storage. */
export interface JournalFixture {
  open(options?: { batchRecordsMax?: number }): Promise<Journal>;
  /** Empties the storage between tests. */
  reset(): Promise<void>;
}

async function collect(iterable: AsyncIterable<{ sequence: bigint; payload: Uint8Array }>) {
  const out: { sequence: bigint; text: string }[] = [];
  for await (const record of iterable) {
    out.push({ sequence: record.sequence, text: Buffer.from(record.payload).toString() });
  }
  return out;
}

const text = (value: string) => Buffer.from(value);

/** The journal behaviour every backend must show; run once per backend. */
export function journalContract(fixture: () => JournalFixture) {
  it("starts empty, numbers records 1, 2, 3 and reads them back", async () => {
    await fixture().reset();
    const journal = await fixture().open();
    expect(journal.head).toBe(0n);
    expect(journal.headHash).toBe("0".repeat(64));
    const sequences = await Promise.all(["a", "bb", ""].map((v) => journal.append(text(v))));
    expect(sequences).toEqual([1n, 2n, 3n]);
    expect(journal.head).toBe(3n);
    expect(await collect(journal.read(1n))).toEqual([
      { sequence: 1n, text: "a" },
      { sequence: 2n, text: "bb" },
      { sequence: 3n, text: "" },
    ]);
    await journal.close();
    await expect(journal.append(text("late"))).rejects.toThrow(/closed/);
  });

  it("commits concurrent appends in batches of at most 1,000 and survives a reopen", async () => {
    await fixture().reset();
    const journal = await fixture().open();
    const count = 2_500;
    const sequences = await Promise.all(
      Array.from({ length: count }, (_, i) => journal.append(text(`record-${i}`))),
    );
    expect(sequences).toEqual(Array.from({ length: count }, (_, i) => BigInt(i + 1)));
    const stats = journal.stats();
    expect(stats.records).toBe(count);
    expect(stats.batches).toBeGreaterThanOrEqual(3);
    const hash = journal.headHash;
    await journal.close();

    const reopened = await fixture().open();
    expect(reopened.head).toBe(BigInt(count));
    expect(reopened.headHash).toBe(hash);
    const records = await collect(reopened.read(1n));
    expect(records).toHaveLength(count);
    expect(records[1_234]).toEqual({ sequence: 1_235n, text: "record-1234" });
    expect(await reopened.append(text("next"))).toBe(BigInt(count + 1));
    await reopened.close();
  });

  it("keeps every record of batches of changing sizes (batch buffers are reused)", async () => {
    await fixture().reset();
    const journal = await fixture().open();
    const payloadOf = (sequence: number) =>
      Buffer.alloc((sequence * 37) % 301, `${sequence}:`.repeat(4));
    let sequence = 0;
    // Large batches, then small ones (a reused buffer is larger than the batch), then larger.
    for (const wave of [1_200, 900, 3, 1, 40, 1_500, 250]) {
      const payloads = Array.from({ length: wave }, () => payloadOf((sequence += 1)));
      await Promise.all(payloads.map((payload) => journal.append(payload)));
    }
    const hash = journal.headHash;
    await journal.close();
    const reopened = await fixture().open();
    expect(reopened.headHash).toBe(hash);
    let expected = 0;
    for await (const record of reopened.read(1n)) {
      expected += 1;
      expect(record.sequence).toBe(BigInt(expected));
      expect(Buffer.from(record.payload).equals(payloadOf(expected))).toBe(true);
    }
    expect(expected).toBe(sequence);
    await reopened.close();
  });

  it("reads a range that starts and ends inside batches", async () => {
    await fixture().reset();
    const journal = await fixture().open({ batchRecordsMax: 7 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => journal.append(text(String(i + 1)))));
    const records = await collect(journal.read(10n, 23n));
    expect(records.map((r) => r.sequence)).toEqual(
      Array.from({ length: 14 }, (_, i) => BigInt(i + 10)),
    );
    expect(records.every((r) => r.text === String(r.sequence))).toBe(true);
    expect(await collect(journal.read(41n))).toEqual([]);
    expect(await collect(journal.read(40n, 100n))).toEqual([{ sequence: 40n, text: "40" }]);
    await journal.close();
  });

  it("keeps binary payloads byte for byte", async () => {
    await fixture().reset();
    const journal = await fixture().open();
    const payload = new Uint8Array(3_000).map((_, i) => (i * 7919) % 256);
    await journal.append(payload);
    await journal.close();
    const reopened = await fixture().open();
    for await (const record of reopened.read(1n)) {
      expect(Buffer.from(record.payload).equals(Buffer.from(payload))).toBe(true);
    }
    await reopened.close();
  });
}
