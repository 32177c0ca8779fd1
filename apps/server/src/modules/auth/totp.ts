import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * RFC 6238 time-based one-time passwords (HMAC-SHA1, 6 digits, 30-second steps), built on
 * node:crypto only: the core of two-factor sign-in (`two-factor.ts` stores and checks codes).
 */

export const totpStepSeconds = 30;
export const totpDigits = 6;
/** Steps accepted either side of now, for clock drift. */
export const totpWindow = 1;

const base32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, as authenticator apps expect. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case-insensitive, spaces and padding ignored); undefined if malformed. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  if (clean.length === 0 || clean.length > 256) return undefined;
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = base32Alphabet.indexOf(char);
    if (index < 0) return undefined;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new 160-bit secret, base32-encoded. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The HOTP value (RFC 4226) for a counter. */
export function hotp(secret: Uint8Array, counter: bigint, digits = totpDigits): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = createHmac("sha1", secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const code = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(code % 10 ** digits).padStart(digits, "0");
}

/** The time step number for a time in milliseconds. */
export function totpStep(nowMs: number): bigint {
  return BigInt(Math.floor(nowMs / 1000 / totpStepSeconds));
}

/** The TOTP code for a base32 secret at a time. */
export function totpCode(secretBase32: string, nowMs: number, digits = totpDigits): string {
  const secret = base32Decode(secretBase32);
  if (!secret) throw new Error("malformed TOTP secret");
  return hotp(secret, totpStep(nowMs), digits);
}

/**
 * Checks a code and returns the time step it matched, or undefined. A step at or below
 * `lastUsedStep` is refused, so a code cannot be replayed within its window. The caller
 * stores the returned step as the new `lastUsedStep` and counts a refusal toward the
 * sign-in lockout budget.
 */
export function verifyTotp(
  secretBase32: string,
  code: string,
  nowMs: number,
  lastUsedStep: bigint | undefined,
): bigint | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const secret = base32Decode(secretBase32);
  if (!secret) return undefined;
  const now = totpStep(nowMs);
  let matched: bigint | undefined;
  for (let delta = -totpWindow; delta <= totpWindow; delta += 1) {
    const step = now + BigInt(delta);
    if (step < 0n) continue;
    const expected = Buffer.from(hotp(secret, step));
    // Compare every candidate in constant time; do not stop early.
    if (timingSafeEqual(expected, Buffer.from(code)) && matched === undefined) matched = step;
  }
  if (matched === undefined) return undefined;
  if (lastUsedStep !== undefined && matched <= lastUsedStep) return undefined;
  return matched;
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function otpauthUri(secretBase32: string, account: string, issuer = "Candor"): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: "SHA1",
    digits: String(totpDigits),
    period: String(totpStepSeconds),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/** Ten single-use recovery codes (shown once) and their SHA-256 hashes (stored). */
export function newRecoveryCodes(count = 10): { codes: string[]; hashes: string[] } {
  const codes: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const raw = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
    codes.push(`${raw.slice(0, 5)}-${raw.slice(5)}`);
  }
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/** Normalises (case, spaces, dashes) and hashes a recovery code. 50 random bits need no salt-stretching. */
export function hashRecoveryCode(code: string): string {
  const clean = code.replace(/[\s-]/g, "").toLowerCase();
  return createHash("sha256").update(`candor-recovery:${clean}`).digest("base64url");
}
