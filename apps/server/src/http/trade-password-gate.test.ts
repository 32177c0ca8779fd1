import { describe, expect, it } from "vitest";
import { AppError } from "./app-error.ts";
import { TradePasswordGate, type TradePasswordCheck } from "./trade-password-gate.ts";

/** Users 1 (password "right") and 2 (none set), checked without a database. */
const tradePassword: TradePasswordCheck = {
  isSet: async (userId) => userId === 1n,
  async verify(userId, tradePassword) {
    if (userId !== 1n) throw new AppError("trade_password_not_set");
    if (tradePassword !== "right") throw new AppError("trade_password_invalid");
  },
};

function setup(windowMs = 60_000, attemptsMax = 3) {
  let nowMs = 0;
  let attempts = 0;
  const sut = new TradePasswordGate({
    tradePassword,
    now: () => nowMs,
    windowMs,
    allowAttempt: () => ++attempts <= attemptsMax,
  });
  return { sut, advance: (ms: number) => (nowMs += ms) };
}

const code = (promise: Promise<void>) =>
  promise.then(
    () => "passed",
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

const user = { id: 1n, sessionTokenHash: "session-a", mode: "real" as const };

describe("trade password gate", () => {
  it("asks for the password, refuses a wrong one, then trusts the session for the window", async () => {
    const { sut, advance } = setup();
    expect(await code(sut.check(user, undefined))).toBe("trade_password_required");
    expect(await code(sut.check(user, "wrong"))).toBe("trade_password_invalid");
    expect(await code(sut.check(user, "right"))).toBe("passed");
    advance(59_999);
    expect(await code(sut.check(user, undefined))).toBe("passed");
    // Another session of the same user is asked again.
    expect(await code(sut.check({ ...user, sessionTokenHash: "session-b" }, undefined))).toBe(
      "trade_password_required",
    );
    advance(1);
    expect(await code(sut.check(user, undefined))).toBe("trade_password_required");
  });

  it("tells a user without a trade password to set one", async () => {
    const { sut } = setup();
    const noPassword = { id: 2n, sessionTokenHash: "session-c", mode: "real" as const };
    expect(await code(sut.check(noPassword, undefined))).toBe("trade_password_not_set");
    expect(await code(sut.check(noPassword, "anything"))).toBe("trade_password_not_set");
  });

  it("limits attempts and asks on every order with a zero window", async () => {
    const { sut } = setup(0, 2);
    expect(await code(sut.check(user, "right"))).toBe("passed");
    expect(await code(sut.check(user, undefined))).toBe("trade_password_required");
    expect(await code(sut.check(user, "wrong"))).toBe("trade_password_invalid");
    expect(await code(sut.check(user, "right"))).toBe("rate_limited");
  });

  it("never asks a demo session, with or without a password set; real sessions still are", async () => {
    const { sut } = setup(0, 1);
    const demoOnly = { id: 2n, sessionTokenHash: "session-d", mode: "demo" as const };
    expect(await code(sut.check(demoOnly, undefined))).toBe("passed");
    expect(await code(sut.check(demoOnly, "anything"))).toBe("passed");
    // A real user who switched to demo trades demo money without it, and is asked again in real.
    expect(await code(sut.check({ ...user, mode: "demo" }, undefined))).toBe("passed");
    expect(await code(sut.check(user, undefined))).toBe("trade_password_required");
  });
});
