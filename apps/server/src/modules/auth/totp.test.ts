import { describe, expect, it } from "vitest";
import {
  base32Decode,
  base32Encode,
  hashRecoveryCode,
  hotp,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  totpCode,
  verifyTotp,
} from "./totp.ts";

// RFC 6238 appendix B, SHA-1 seed "12345678901234567890", 8 digits.
const rfcSecret = base32Encode(Buffer.from("12345678901234567890"));

describe("TOTP core", () => {
  it("matches the RFC 6238 SHA-1 test vectors", () => {
    const vectors: [number, string][] = [
      [59, "94287082"],
      [1111111109, "07081804"],
      [1111111111, "14050471"],
      [1234567890, "89005924"],
      [2000000000, "69279037"],
      [20000000000, "65353130"],
    ];
    for (const [seconds, code] of vectors)
      expect(totpCode(rfcSecret, seconds * 1000, 8)).toBe(code);
  });

  it("matches the RFC 4226 HOTP vectors", () => {
    const secret = Buffer.from("12345678901234567890");
    expect(hotp(secret, 0n)).toBe("755224");
    expect(hotp(secret, 9n)).toBe("520489");
  });

  it("round-trips base32 and refuses malformed or oversized secrets", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 17, 99]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Decode("not base32!")).toBeUndefined();
    expect(base32Decode("")).toBeUndefined();
    expect(base32Decode("A".repeat(10_000))).toBeUndefined();
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
  });

  it("accepts the current code and ±1 step, refuses wrong, malformed and replayed codes", () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const code = totpCode(secret, now);
    const step = verifyTotp(secret, code, now, undefined);
    expect(step).toBeDefined();
    // Replay within the window refused.
    expect(verifyTotp(secret, code, now + 1000, step)).toBeUndefined();
    // Previous-step code with drift accepted if not yet used.
    expect(verifyTotp(secret, totpCode(secret, now - 30_000), now, undefined)).toBe(step! - 1n);
    // Older than the window refused.
    expect(verifyTotp(secret, totpCode(secret, now - 90_000), now, undefined)).toBeUndefined();
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect(verifyTotp(secret, wrong, now, undefined)).toBeUndefined();
    for (const bad of ["", "12345", "1234567", "abcdef", "1".repeat(5000)])
      expect(verifyTotp(secret, bad, now, undefined)).toBeUndefined();
    // The next step's code is still accepted after one was used.
    expect(verifyTotp(secret, totpCode(secret, now + 30_000), now + 30_000, step)).toBe(step! + 1n);
  });

  it("builds an otpauth URI and ten distinct hashed recovery codes", () => {
    const uri = otpauthUri("JBSWY3DPEHPK3PXP", "a@example.com");
    expect(uri).toBe(
      "otpauth://totp/Candor:a%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Candor&algorithm=SHA1&digits=6&period=30",
    );
    const { codes, hashes } = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    expect(codes[0]).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(hashes[3]).toBe(hashRecoveryCode(codes[3]!.toUpperCase().replace("-", " ")));
    expect(hashes).not.toContain(codes[0]);
  });
});
