import { expect, it } from "vitest";
import type { AppError } from "../../http/app-error.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { requireRealMoney } from "./guards.ts";

const user = (over: Partial<AuthUser>): AuthUser => ({
  id: 100001n,
  kind: "email",
  mode: "real",
  demoOnly: false,
  sessionTokenHash: "0".repeat(64),
  ...over,
});

it("lets real sessions move money and stops demo ones with the spec's messages", () => {
  expect(() => requireRealMoney(user({}), "deposit")).not.toThrow();
  const codeOf = (fn: () => void) => {
    try {
      fn();
    } catch (error) {
      return (error as AppError).code;
    }
    return undefined;
  };
  expect(codeOf(() => requireRealMoney(user({ mode: "demo" }), "deposit"))).toBe(
    "demo_deposit_not_allowed",
  );
  expect(codeOf(() => requireRealMoney(user({ demoOnly: true, kind: "demo" }), "withdraw"))).toBe(
    "demo_withdraw_not_allowed",
  );
});
