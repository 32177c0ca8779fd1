import { describe, expect, it } from "vitest";
import { accountHistoryActionOf } from "./account-history.ts";

describe("account history actions", () => {
  it("names the operator endpoints that touch a user, and nothing else", () => {
    expect(accountHistoryActionOf("POST /api/v1/operator/users/:userId/freeze")).toBe(
      "users_freeze",
    );
    expect(accountHistoryActionOf("POST /api/v1/operator/deposits")).toBe("deposits");
    expect(accountHistoryActionOf("POST /api/v1/operator/bank-deposits/:depositId/credit")).toBe(
      "bank-deposits_credit",
    );
    expect(accountHistoryActionOf("PUT /api/v1/operator/seconds/products")).toBeNull();
    expect(accountHistoryActionOf("GET /api/v1/me")).toBeNull();
    expect(accountHistoryActionOf("nonsense")).toBeNull();
  });
});
