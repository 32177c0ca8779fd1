import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { crc32c } from "./crc32c.ts";

/** Bit-at-a-time CRC-32C: the definition the table-driven one must match. */
function reference(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) {
    crc ^= bytes[i]!;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe("crc32c", () => {
  it("gives the standard check values", () => {
    expect(crc32c(Buffer.from("123456789"))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
  });

  it("matches the bitwise definition for every length and alignment", () => {
    const bytes = randomBytes(300);
    for (let start = 0; start < 20; start++) {
      for (let end = start; end <= bytes.length; end += 1 + (end % 5)) {
        expect(crc32c(bytes, start, end)).toBe(reference(bytes, start, end));
      }
    }
  });
});
