import { describe, expect, it } from "vitest";
import type { AppError } from "../../http/app-error.ts";
import { hashPassword } from "./passwords.ts";
import { TradePasswords } from "./trade-password.ts";

/** A fake of the two queries trade passwords use: user id → hash (null when none is set). */
function fakeRepository(hashes: Map<bigint, string | null>) {
  return {
    async tradePasswordHash(userId: bigint) {
      return hashes.get(userId);
    },
    async setTradePasswordHash(userId: bigint, hash: string) {
      hashes.set(userId, hash);
    },
  };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: AppError) => error.code,
  );

describe("trade passwords", () => {
  it("verifies, and tells an unset password from a wrong one", async () => {
    const hashes = new Map<bigint, string | null>([
      [1n, await hashPassword("trade123", 10)],
      [2n, null],
    ]);
    const sut = new TradePasswords(fakeRepository(hashes), 10);
    expect(await sut.isSet(1n)).toBe(true);
    expect(await sut.isSet(2n)).toBe(false);
    expect(await sut.isSet(3n)).toBe(false);
    expect(await codeOf(sut.verify(1n, "trade123"))).toBe("ok");
    expect(await codeOf(sut.verify(1n, "wrong123"))).toBe("trade_password_invalid");
    expect(await codeOf(sut.verify(2n, "trade123"))).toBe("trade_password_not_set");
    expect(await codeOf(sut.verify(3n, "trade123"))).toBe("trade_password_not_set");
  });

  it("sets a first password freely and changes one only with the current one", async () => {
    const hashes = new Map<bigint, string | null>([[1n, null]]);
    const sut = new TradePasswords(fakeRepository(hashes), 10);
    await sut.set(1n, "first123", undefined);
    expect(await codeOf(sut.set(1n, "second123", undefined))).toBe("trade_password_invalid");
    expect(await codeOf(sut.set(1n, "second123", "wrong123"))).toBe("trade_password_invalid");
    await sut.set(1n, "second123", "first123");
    expect(await codeOf(sut.verify(1n, "second123"))).toBe("ok");
  });

  it("gives each user one budget of 10 guesses per 15 minutes, right or wrong", async () => {
    let nowMs = 0;
    const hashes = new Map<bigint, string | null>([
      [1n, await hashPassword("trade123", 10)],
      [2n, await hashPassword("trade123", 10)],
    ]);
    const sut = new TradePasswords(fakeRepository(hashes), 10, () => nowMs);
    // Ten guesses in parallel, then even the right password is refused until the window ends.
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => codeOf(sut.verify(1n, `wrong-${i}`))),
    );
    expect(guesses.filter((code) => code === "trade_password_invalid")).toHaveLength(10);
    expect(guesses.filter((code) => code === "rate_limited")).toHaveLength(2);
    expect(await codeOf(sut.verify(1n, "trade123"))).toBe("rate_limited");
    // A change needs the current password, so it spends the same budget.
    expect(await codeOf(sut.set(1n, "other1234", "trade123"))).toBe("rate_limited");
    // Another user's budget is untouched.
    expect(await codeOf(sut.verify(2n, "trade123"))).toBe("ok");
    nowMs += 15 * 60_000;
    expect(await codeOf(sut.verify(1n, "trade123"))).toBe("ok");
  });
});
