import { expect, it } from "vitest";
import { RateLimiter } from "./rate-limit.ts";

it("counts hits per key in fixed windows", () => {
  let nowMs = 0;
  const limiter = new RateLimiter(() => nowMs);
  const rule = { max: 2, windowMs: 1_000 };
  expect([limiter.hit("a", rule), limiter.hit("a", rule), limiter.hit("a", rule)]).toEqual([
    true,
    true,
    false,
  ]);
  expect(limiter.hit("b", rule)).toBe(true);
  nowMs = 1_000;
  expect(limiter.hit("a", rule)).toBe(true);
  limiter.reset("a");
  expect(limiter.hit("a", rule)).toBe(true);
});

it("forgets expired windows and never keeps more than its key limit", () => {
  let nowMs = 0;
  const limiter = new RateLimiter(() => nowMs, 1_000);
  for (let i = 0; i < 5_000; i++) limiter.hit(`ip-${i}`, { max: 1, windowMs: 10 });
  expect(limiter.size).toBeLessThanOrEqual(1_000);
  nowMs = 120_000;
  limiter.hit("late", { max: 1, windowMs: 10 });
  expect(limiter.size).toBe(1);
});
