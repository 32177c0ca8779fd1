import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";
import { defaultWithdrawalConfig } from "../wallet/wallet.withdrawals.ts";
import { LimitsStore } from "./limits-store.ts";

// Editable limits: the deployment's settings are written once, then an admin changes one limit
// at a time with a reason; later requests use the new value (withdrawal options, transfer
// limits, the identity a withdrawal needs), a restart keeps it, another node sees it within its
// reload interval, and every refusal changes nothing.

describeEachDatabase("editable limits", (database) => {
  const nowMs = Date.parse("2026-11-29T09:00:00Z");
  const kit = routeTest("10.24.0", "limits-operator-token");
  const { call, operator } = kit;

  const limits = async () =>
    (await call("GET", "/api/v1/operator/limits", { headers: operator })).json().data;
  const change = (payload: object, lang = "en") =>
    call("POST", "/api/v1/operator/limits", {
      headers: operator,
      lang,
      payload: { reason: "fee schedule 2027", ...payload },
    });
  const withdraw = () =>
    call("POST", "/api/v1/wallet/withdrawals", {
      user: "a",
      payload: {
        requestId: crypto.randomUUID(),
        addressId: "1",
        asset: "USDT",
        amount: "30",
        tradePassword: "trade1234",
      },
    });

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), {
      now: () => nowMs,
      adjustmentTwoApprovalsAbove: { USDT: "5000" },
    });
    await kit.signUp("a", "+4915100002501");
  }, 60_000);
  afterAll(async () => {
    await kit.close();
  });

  it("starts from the deployment's settings", async () => {
    expect(await limits()).toEqual({
      withdrawals: [
        { asset: "USDT", network: "ethereum", minimum: "20", fee: "5" },
        { asset: "USDT", network: "bsc", minimum: "10", fee: "1" },
        { asset: "USDT", network: "cronos", minimum: "10", fee: "1" },
        { asset: "USDT", network: "bank", minimum: "10", fee: "1" },
      ],
      withdrawalTwoApprovalsAbove: [{ asset: "USDT", amount: "10000" }],
      adjustmentTwoApprovalsAbove: [{ asset: "USDT", amount: "5000" }],
      transferDailyLimits: [
        { asset: "BTC", amount: "2" },
        { asset: "ETH", amount: "30" },
        { asset: "USDT", amount: "50000" },
      ],
      withdrawRequiresIdentity: "none",
      withdrawAdvancedAbove: [],
    });
  });

  it("changes a withdrawal's minimum and fee for later requests, users and the public settings alike", async () => {
    const changed = await change({
      kind: "withdrawal",
      asset: "USDT",
      network: "ethereum",
      minimum: "25.5",
      fee: "4",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.withdrawals[0]).toEqual({
      asset: "USDT",
      network: "ethereum",
      minimum: "25.5",
      fee: "4",
    });
    const options = await call("GET", "/api/v1/wallet/withdrawals/options", { user: "a" });
    expect(options.json().data.items).toContainEqual({
      asset: "USDT",
      network: "ethereum",
      minimum: "25.5",
      fee: "4",
      twoApprovalsAbove: "10000",
    });
    const settings = await call("GET", "/api/v1/settings");
    expect(settings.json().data.withdrawals).toContainEqual({
      asset: "USDT",
      network: "ethereum",
      minimum: "25.5",
      fee: "4",
    });

    const bank = await change({
      kind: "withdrawal",
      asset: "USDT",
      network: "bank",
      minimum: "15",
      fee: "0",
    });
    expect(bank.statusCode, bank.body).toBe(200);
    expect((await limits()).withdrawals).toContainEqual({
      asset: "USDT",
      network: "bank",
      minimum: "15",
      fee: "0",
    });
    // The audit log keeps who changed what, and why.
    const audit = await call("GET", "/api/v1/operator/audit?limit=5", { headers: operator });
    const entry = audit.json().data.entries[0];
    expect(entry).toMatchObject({
      action: "POST /api/v1/operator/limits",
      reason: "fee schedule 2027",
    });
    expect(entry.detail).toContain("bank");
  });

  it("changes the amount tables: approvals, transfer limits (0 stops transfers), the advanced tier", async () => {
    for (const [table, amount] of [
      ["withdrawalTwoApprovalsAbove", "2500"],
      ["adjustmentTwoApprovalsAbove", "1000.25"],
      ["withdrawAdvancedAbove", "800"],
      ["transferDailyLimits", "0"],
    ] as const) {
      const changed = await change({ kind: "amount", table, asset: "USDT", amount });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().data[table]).toContainEqual({ asset: "USDT", amount });
    }
    // A new asset in a table.
    const added = await change({
      kind: "amount",
      table: "withdrawAdvancedAbove",
      asset: "BTC",
      amount: "0.5",
    });
    expect(added.json().data.withdrawAdvancedAbove).toEqual([
      { asset: "BTC", amount: "0.5" },
      { asset: "USDT", amount: "800" },
    ]);
    const transfer = await call("GET", "/api/v1/wallet/transfers/limits", { user: "a" });
    expect(transfer.json().data.items).toContainEqual({ asset: "USDT", limit: "0", left: "0" });
    const options = await call("GET", "/api/v1/wallet/withdrawals/options", { user: "a" });
    expect(options.json().data.items[0]).toMatchObject({ twoApprovalsAbove: "2500" });
    // A manual credit above the new 1,000.25 waits for a second operator; one at it does not.
    const credit = (id: string, amount: string) =>
      call("POST", "/api/v1/operator/deposits", {
        headers: operator,
        payload: {
          id,
          ownerId: kit.users.a!.id,
          assetId: "USDT",
          amount,
          reference: `limits ${id}`,
        },
      });
    const above = await credit("limits-above", "1000.26");
    expect(above.statusCode, above.body).toBe(200);
    expect(above.json().data.pendingAdjustmentId).not.toBeNull();
    const at = await credit("limits-at", "1000.25");
    expect(at.json().data).toMatchObject({ pendingAdjustmentId: null, duplicate: false });
  });

  it("makes withdrawals need an identity tier once the admin says so", async () => {
    // No tier needed: the request goes on to the address (there is none).
    expect((await withdraw()).json().error).not.toBe("identity_verification_required");
    const changed = await change({ kind: "identity", withdrawRequiresIdentity: "basic" });
    expect(changed.json().data.withdrawRequiresIdentity).toBe("basic");
    expect((await withdraw()).json().error).toBe("identity_verification_required");
    await change({ kind: "identity", withdrawRequiresIdentity: "none" });
  });

  it("refuses a bad change in the operator's language and changes nothing", async () => {
    const before = await limits();
    const cases: [object, number, string][] = [
      [
        { kind: "withdrawal", asset: "BTC", network: "bsc", minimum: "1", fee: "0.1" },
        404,
        "limit_pair_not_offered",
      ],
      [
        { kind: "withdrawal", asset: "USDT", network: "bsc", minimum: "1", fee: "1" },
        400,
        "limit_minimum_not_above_fee",
      ],
      [
        { kind: "withdrawal", asset: "USDT", network: "bsc", minimum: "1.0000001", fee: "0" },
        400,
        "amount_too_many_decimals",
      ],
      [
        { kind: "withdrawal", asset: "NOPE", network: "bsc", minimum: "10", fee: "1" },
        404,
        "asset_not_found",
      ],
      [
        { kind: "withdrawal", asset: "USDT", network: "tron", minimum: "10", fee: "1" },
        400,
        "validation_failed",
      ],
      [
        { kind: "amount", table: "withdrawalTwoApprovalsAbove", asset: "USDT", amount: "0" },
        400,
        "limit_must_be_positive",
      ],
      [
        { kind: "amount", table: "transferDailyLimits", asset: "USDT", amount: "-5" },
        400,
        "validation_failed",
      ],
      [
        { kind: "amount", table: "transferDailyLimits", asset: "USDT", amount: "1e9" },
        400,
        "validation_failed",
      ],
      [
        { kind: "amount", table: "transferDailyLimits", asset: "USDT", amount: "9".repeat(41) },
        400,
        "validation_failed",
      ],
      [{ kind: "amount", table: "balances", asset: "USDT", amount: "5" }, 400, "validation_failed"],
      [
        { kind: "amount", table: "transferDailyLimits", asset: "USDT", amount: 5 },
        400,
        "validation_failed",
      ],
      [{ kind: "identity", withdrawRequiresIdentity: "platinum" }, 400, "validation_failed"],
      [
        { kind: "identity", withdrawRequiresIdentity: "basic", extra: true },
        400,
        "validation_failed",
      ],
      [{ kind: "everything" }, 400, "validation_failed"],
    ];
    for (const [payload, status, code] of cases) {
      const refused = await change(payload, "de");
      expect(refused.statusCode, JSON.stringify(payload)).toBe(status);
      expect(refused.json().error, JSON.stringify(payload)).toBe(code);
      expect(refused.json().message).not.toMatch(/^[a-z_]+$/);
    }
    const noReason = await call("POST", "/api/v1/operator/limits", {
      headers: operator,
      payload: { kind: "identity", withdrawRequiresIdentity: "basic", reason: "" },
    });
    expect(noReason.statusCode).toBe(400);
    const oversized = await change({
      kind: "identity",
      withdrawRequiresIdentity: "basic",
      reason: "x".repeat(4_000),
    });
    expect(oversized.statusCode).toBe(413);
    const malformed = await call("POST", "/api/v1/operator/limits", {
      headers: { ...operator, "content-type": "application/json" },
      payload: "{not json",
    });
    expect(malformed.statusCode).toBe(400);
    // Signed out, or a user's token: not an operator.
    const payload = { kind: "identity", withdrawRequiresIdentity: "basic", reason: "attempt" };
    expect((await call("POST", "/api/v1/operator/limits", { payload })).statusCode).toBe(401);
    const asUser = await call("POST", "/api/v1/operator/limits", { user: "a", payload });
    expect(asUser.statusCode).toBe(401);
    expect((await call("GET", "/api/v1/operator/limits", { user: "a" })).statusCode).toBe(401);
    expect(await limits()).toEqual(before);
  });

  it("keeps the changes across a restart, whatever the deployment's settings say then", async () => {
    const before = await limits();
    await kit.app.close();
    await kit.startApp(database(), {
      now: () => nowMs,
      withdrawals: { ...defaultWithdrawalConfig, twoApprovalsAbove: { USDT: "1" } },
      withdrawRequiresIdentity: "advanced",
    });
    expect(await limits()).toEqual(before);
  });

  it("shows another node's change within the reload interval", async () => {
    const seed = {
      withdrawals: defaultWithdrawalConfig,
      adjustmentTwoApprovalsAbove: {},
      transferDailyLimits: {},
      withdrawRequiresIdentity: "none" as const,
      withdrawAdvancedAbove: {},
    };
    const other = new LimitsStore(database(), seed, () => nowMs, 50);
    await other.start();
    try {
      expect(other.current().withdrawRequiresIdentity).toBe("none");
      await change({ kind: "identity", withdrawRequiresIdentity: "advanced" });
      await expect
        .poll(() => other.current().withdrawRequiresIdentity, { timeout: 5_000 })
        .toBe("advanced");
    } finally {
      other.stop();
    }
  });
});
