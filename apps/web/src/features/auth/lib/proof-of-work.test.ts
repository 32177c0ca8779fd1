import { describe, expect, it } from "vitest";
import { sha256Hex, solveProofOfWork } from "./proof-of-work.ts";

/** WebCrypto's SHA-256 (what a browser has built in), as hex: the reference to agree with. */
async function reference(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

describe("proof-of-work captcha solver", () => {
  it("hashes like WebCrypto across block boundaries", async () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 200]) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join(
        "",
      );
      expect(sha256Hex(text), `length ${length}`).toBe(await reference(text));
    }
    expect(sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("finds the number the server hashed, and says when there is none", async () => {
    const salt = "0123456789abcdef01234567.1800000000";
    for (const number of [0, 1, 19_999, 20_000, 45_678]) {
      const challenge = { salt, challenge: await reference(`${salt}${number}`), maxNumber: 50_000 };
      expect(await solveProofOfWork(challenge)).toBe(String(number));
    }
    const outOfRange = { salt, challenge: await reference(`${salt}900`), maxNumber: 899 };
    expect(await solveProofOfWork(outOfRange)).toBeNull();
  });
});
