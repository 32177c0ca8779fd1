import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { AuthRepository } from "./auth.repository.ts";

/** How long a challenge may be solved and used. */
export const captchaLifetimeMs = 5 * 60_000;

/**
 * Default work: the secret number is drawn from 0…this, so a browser tries half of it on
 * average (about 0.2 s on a phone with the app's SHA-256). Operators raise it with CAPTCHA_COST.
 */
export const defaultCaptchaCost = 250_000;

/** A proof-of-work challenge as the API serves it (ALTCHA's fields, plus our `captchaId`). */
export interface CaptchaChallenge {
  /** What the client sends back with its answer: `<salt>.<signature>`. */
  captchaId: string;
  algorithm: "SHA-256";
  /** SHA-256 (hex) of `salt` followed by the secret number in decimal. */
  challenge: string;
  /** Random hex, a dot and the expiry in Unix seconds; covered by the signature via `challenge`. */
  salt: string;
  /** The secret number is in 0…maxNumber. */
  maxNumber: number;
  expiresAt: Date;
}

const saltPattern = /^([0-9a-f]{24})\.(\d{10})$/;
const captchaIdPattern = /^([0-9a-f]{24}\.\d{10})\.([0-9a-f]{64})$/;

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * A proof-of-work captcha in the manner of ALTCHA: the server picks a random number, hashes it
 * with a random salt and signs the hash (HMAC-SHA-256 with a key only it holds); the client
 * finds the number by trying 0, 1, 2, … until the hash matches. Nothing is stored until an
 * answer is used: the signature proves the server issued the challenge, the salt carries its
 * expiry, and using it records the salt once (single use). It reads nothing personal and needs
 * no third party; it makes each attempt cost CPU time rather than asking a person to read.
 */
export class ProofOfWorkCaptcha {
  constructor(
    private readonly repository: Pick<
      AuthRepository,
      "insertUsedCaptcha" | "deleteCaptchasExpiredBefore"
    >,
    /** HMAC key; random per process unless given (several nodes must share one). */
    private readonly key: Buffer = randomBytes(32),
    /** Largest secret number: the work an operator asks of each client. */
    readonly maxNumber: number = defaultCaptchaCost,
  ) {
    if (!Number.isSafeInteger(maxNumber) || maxNumber < 1) {
      throw new Error(`captcha cost must be a positive integer, not ${maxNumber}`);
    }
  }

  /** A new challenge, valid `captchaLifetimeMs` from `nowMs`. */
  create(nowMs: number): CaptchaChallenge {
    const expiresAt = new Date(nowMs + captchaLifetimeMs);
    const salt = `${randomBytes(12).toString("hex")}.${Math.ceil(expiresAt.getTime() / 1000)}`;
    const number = randomInt(0, this.maxNumber + 1);
    const challenge = sha256Hex(`${salt}${number}`);
    return {
      captchaId: `${salt}.${this.sign(challenge)}`,
      algorithm: "SHA-256",
      challenge,
      salt,
      maxNumber: this.maxNumber,
      expiresAt,
    };
  }

  /**
   * Uses up a solved challenge: true when the server signed it, it has not expired, the answer
   * hashes to it, and it was not used before (right or wrong, a checked challenge is spent).
   */
  async consume(nowMs: number, captchaId: string, answer: string): Promise<boolean> {
    const parts = captchaIdPattern.exec(captchaId);
    if (!parts || !/^\d{1,10}$/.test(answer)) return false;
    const [, salt, signature] = parts as unknown as [string, string, string];
    const expiresAtMs = Number(saltPattern.exec(salt)![2]) * 1000;
    if (expiresAtMs <= nowMs) return false;
    const challenge = sha256Hex(`${salt}${Number(answer)}`);
    const expected = Buffer.from(this.sign(challenge), "hex");
    const given = Buffer.from(signature, "hex");
    if (!timingSafeEqual(expected, given)) return false;
    // Spent now, once: the salt is the key of a row that can be inserted only once.
    const fresh = await this.repository.insertUsedCaptcha(
      salt,
      new Date(expiresAtMs),
      new Date(nowMs),
    );
    await this.repository.deleteCaptchasExpiredBefore(new Date(nowMs - 3_600_000));
    return fresh;
  }

  private sign(challenge: string): string {
    return createHmac("sha256", this.key).update(challenge).digest("hex");
  }
}

/** Finds a challenge's number by brute force, as the web app does (for tests and scripts). */
export function solveCaptcha(
  challenge: Pick<CaptchaChallenge, "challenge" | "salt" | "maxNumber">,
) {
  for (let number = 0; number <= challenge.maxNumber; number++) {
    if (sha256Hex(`${challenge.salt}${number}`) === challenge.challenge) return String(number);
  }
  throw new Error("captcha has no solution");
}
