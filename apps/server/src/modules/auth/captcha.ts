import { createHash, randomBytes, randomInt } from "node:crypto";
import type { AuthRepository } from "./auth.repository.ts";

/** Seven-segment strokes per digit: a top, b upper right, c lower right, d bottom, e, f, g middle. */
const segmentsByDigit = [
  "abcdef",
  "bc",
  "abged",
  "abgcd",
  "fgbc",
  "afgcd",
  "afgedc",
  "abc",
  "abcdefg",
  "abcdfg",
];
const segmentLines: Record<string, [number, number, number, number]> = {
  a: [0, 0, 1, 0],
  b: [1, 0, 1, 1],
  c: [1, 1, 1, 2],
  d: [0, 2, 1, 2],
  e: [0, 1, 0, 2],
  f: [0, 0, 0, 1],
  g: [0, 1, 1, 1],
};

const jitter = (amount: number) => (randomInt(0, 2001) / 1000 - 1) * amount;

/**
 * Draws digits as jittered, skewed strokes with noise lines. There is no text in the SVG, so
 * reading it takes more than a regular expression; it is a speed bump, not a wall.
 */
export function captchaSvg(answer: string): string {
  const width = 30 + answer.length * 26;
  const parts: string[] = [];
  [...answer].forEach((digit, index) => {
    const x0 = 18 + index * 26 + jitter(3);
    const y0 = 10 + jitter(4);
    const skew = jitter(0.25);
    const size = 14 + jitter(2);
    for (const segment of segmentsByDigit[Number(digit)]!) {
      const [ax, ay, bx, by] = segmentLines[segment]!;
      const point = (x: number, y: number) =>
        `${(x0 + x * size + (2 - y) * skew * 8 + jitter(1.2)).toFixed(1)},${(y0 + y * size + jitter(1.2)).toFixed(1)}`;
      parts.push(
        `<path d="M${point(ax, ay)} L${point(bx, by)}" stroke="#223" stroke-width="${(2.5 + jitter(0.8)).toFixed(1)}" stroke-linecap="round"/>`,
      );
    }
  });
  for (let i = 0; i < 5; i++) {
    parts.push(
      `<path d="M${randomInt(0, width)},${randomInt(0, 48)} Q${randomInt(0, width)},${randomInt(0, 48)} ${randomInt(0, width)},${randomInt(0, 48)}" stroke="#8a94a6" stroke-width="1" fill="none"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="48" viewBox="0 0 ${width} 48" role="img" aria-label="captcha"><rect width="100%" height="100%" fill="#f2f4f7"/>${parts.join("")}</svg>`;
}

export const hashAnswer = (id: string, answer: string) =>
  createHash("sha256").update(`${id}:${answer}`).digest("hex");

export const captchaLifetimeMs = 5 * 60_000;

/** Makes a captcha and stores the hash of its answer; the answer itself goes only into the SVG. */
export async function createCaptcha(
  repository: Pick<AuthRepository, "insertCaptcha" | "deleteCaptchasExpiredBefore">,
  nowMs: number,
) {
  const captchaId = randomBytes(18).toString("base64url");
  const answer = String(randomInt(0, 100_000)).padStart(5, "0");
  const expiresAt = new Date(nowMs + captchaLifetimeMs);
  await repository.insertCaptcha({
    id: captchaId,
    answerHash: hashAnswer(captchaId, answer),
    expiresAt,
  });
  // Old captchas are of no use to anyone: drop them as new ones are made.
  await repository.deleteCaptchasExpiredBefore(new Date(nowMs - 3_600_000));
  return { captchaId, answer, svg: captchaSvg(answer), expiresAt };
}

/** Uses up a captcha (right or wrong, it cannot be tried twice); true when the answer matched. */
export async function consumeCaptcha(
  repository: Pick<AuthRepository, "useCaptcha">,
  nowMs: number,
  captchaId: string,
  answer: string,
): Promise<boolean> {
  const answerHash = await repository.useCaptcha(captchaId, new Date(nowMs));
  return answerHash === hashAnswer(captchaId, answer);
}
