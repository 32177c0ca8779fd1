import { checkInvariants, getBalance, getWithdrawal } from "@candor/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";
import type { AppError } from "../../http/app-error.ts";
import { WithdrawAddressRepository, WithdrawalRepository } from "./wallet.repository.ts";
import { defaultWithdrawalConfig, WalletWithdrawals } from "./wallet.withdrawals.ts";

// Withdrawals through HTTP on the real kernel and engine: every state, every refusal.

const USDT = 1_000_000n;
const hourMs = 60 * 60_000;

describeEachDatabase("wallet API: withdrawals", (database) => {
  let nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest("10.3.0");
  const { users, submit, call, operator } = kit;
  let request = 0;
  const addressIds: Record<string, string> = {};
  const good = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
  const other = "0x52908400098527886E0F7030069857D2E4169EE7";

  const requestId = () => `wd-${String(++request).padStart(6, "0")}`;
  const balance = (user: string) =>
    kit.running.engine.query((s) => {
      const b = getBalance(s, users[user]!.id, "real", "fund", "USDT");
      return [b.available, b.held];
    });
  const withdraw = (payload: Record<string, unknown> = {}, user = "a", lang?: string) =>
    call("POST", "/api/v1/wallet/withdrawals", {
      user,
      lang,
      payload: {
        requestId: requestId(),
        addressId: addressIds.a,
        asset: "USDT",
        amount: "100",
        tradePassword: "trade1234",
        ...payload,
      },
    });
  const op = (id: string, step: string, payload?: object, lang?: string) =>
    call("POST", `/api/v1/operator/withdrawals/${id}/${step}`, {
      headers: operator,
      payload,
      lang,
    });
  const txHash = `0x${"ab".repeat(32)}`;

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), { now: () => nowMs, withdrawAddressLockMs: hourMs });
    await kit.signUp("a", "+4915100000021");
    await kit.signUp("b", "+4915100000022");
    await kit.signUp("c", "+4915100000023");
    await kit.signInDemo("demo");
    for (const [name, amount] of [
      ["a", "10000"],
      ["c", "1000"],
    ] as const) {
      await kit.deposit({
        id: `deposit-${name}`,
        ownerId: users[name]!.id,
        assetId: "USDT",
        amount,
        reference: `bank-${name}`,
      });
    }
    for (const name of ["a", "b", "c"]) {
      const added = await call("POST", "/api/v1/wallet/withdraw-addresses", {
        user: name,
        payload: { network: "ethereum", address: good, remark: "mine" },
      });
      expect(added.statusCode, added.body).toBe(200);
      addressIds[name] = added.json().data.address.addressId;
    }
  });
  afterAll(kit.close);

  it("shows the minimum and fee per asset and network before confirming", async () => {
    const response = await call("GET", "/api/v1/wallet/withdrawals/options", { user: "a" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.items).toContainEqual({
      asset: "USDT",
      network: "ethereum",
      minimum: "20",
      fee: "5",
      twoApprovalsAbove: "10000",
    });
  });

  it("refuses an address still in its waiting period, saying from when (two languages)", async () => {
    const english = await withdraw();
    expect(english.statusCode).toBe(409);
    expect(english.json().error).toBe("withdraw_address_locked");
    expect(english.json().message).toBe(
      "This address can receive withdrawals from 2026-11-26 14:00 UTC",
    );
    const german = await withdraw({}, "a", "de");
    expect(german.json().message).toBe(
      "Diese Adresse kann ab 2026-11-26 14:00 UTC Auszahlungen empfangen",
    );
    expect(balance("a")).toEqual([10_000n * USDT, 0n]);
    nowMs += hourMs;
  });

  it("pending → approved → sent → completed, each step in the history and the statement", async () => {
    const requested = await withdraw({ amount: "100" });
    expect(requested.statusCode, requested.body).toBe(200);
    const view = requested.json().data;
    expect(view).toMatchObject({
      status: "pending",
      amount: "100",
      fee: "5",
      total: "105",
      network: "ethereum",
      address: good,
      approvalsRequired: 1,
    });
    expect(balance("a")).toEqual([9_895n * USDT, 105n * USDT]);
    const listed = await call("GET", "/api/v1/operator/withdrawals", { headers: operator });
    expect(listed.json().data.items.map((w: { withdrawalId: string }) => w.withdrawalId)).toContain(
      view.withdrawalId,
    );
    // Not sent before approval, not completed before sent.
    expect((await op(view.withdrawalId, "sent", { txHash })).json().error).toBe(
      "withdrawal_state_invalid",
    );
    expect((await op(view.withdrawalId, "complete")).json().error).toBe("withdrawal_state_invalid");
    const approved = await op(view.withdrawalId, "approve");
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({ status: "approved", userId: users.a!.id });
    const badHash = await op(view.withdrawalId, "sent", { txHash: "0x1234" });
    expect(badHash.statusCode).toBe(400);
    const sent = await op(view.withdrawalId, "sent", { txHash });
    expect(sent.json().data).toMatchObject({ status: "sent", txHash });
    // Sent money cannot be cancelled by the user or rejected.
    const late = await call("POST", `/api/v1/wallet/withdrawals/${view.withdrawalId}/cancel`, {
      user: "a",
    });
    expect(late.json().error).toBe("withdrawal_state_invalid");
    expect((await op(view.withdrawalId, "reject", { reason: "too late" })).json().error).toBe(
      "withdrawal_state_invalid",
    );
    const completed = await op(view.withdrawalId, "complete");
    expect(completed.statusCode, completed.body).toBe(200);
    expect(balance("a")).toEqual([9_895n * USDT, 0n]);
    const detail = await call("GET", `/api/v1/wallet/withdrawals/${view.withdrawalId}`, {
      user: "a",
    });
    expect(detail.json().data.status).toBe("completed");
    expect(
      detail
        .json()
        .data.steps.map((s: { status: string; operatorId: string | null }) => [
          s.status,
          s.operatorId,
        ]),
    ).toEqual([
      ["requested", null],
      ["pending", null],
      ["approved", "bootstrap"],
      ["sent", "bootstrap"],
      ["completed", "bootstrap"],
    ]);
    await kit.running.projector.flush();
    const statement = await call("GET", "/api/v1/spot/statement", { user: "a" });
    const lines = statement.json().data.items.slice(0, 2);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: "withdrawal", amount: "-100", reference: txHash }),
        expect.objectContaining({ reason: "withdrawal_fee", amount: "-5" }),
      ]),
    );
    kit.running.engine.query((s) => checkInvariants(s));
  });

  it("the user cancels a pending one; the operator rejects an approved one; holds released", async () => {
    const first = (await withdraw({ amount: "50" })).json().data;
    expect(balance("a")).toEqual([9_840n * USDT, 55n * USDT]);
    const cancelled = await call(
      "POST",
      `/api/v1/wallet/withdrawals/${first.withdrawalId}/cancel`,
      {
        user: "a",
      },
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.status).toBe("cancelled");
    expect(balance("a")).toEqual([9_895n * USDT, 0n]);
    const second = (await withdraw({ amount: "60" })).json().data;
    await op(second.withdrawalId, "approve");
    const rejected = await op(second.withdrawalId, "reject", { reason: "address under review" });
    expect(rejected.json().data).toMatchObject({
      status: "rejected",
      rejectReason: "address under review",
    });
    expect(balance("a")).toEqual([9_895n * USDT, 0n]);
    const history = await call("GET", "/api/v1/wallet/withdrawals", { user: "a" });
    expect(history.json().data.items.map((w: { status: string }) => w.status)).toEqual([
      "rejected",
      "cancelled",
      "completed",
    ]);
    const steps = history.json().data.items[0].steps;
    expect(steps[steps.length - 1]).toMatchObject({
      status: "rejected",
      operatorId: "bootstrap",
      detail: "address under review",
    });
    expect((await op(second.withdrawalId, "approve")).json().error).toBe(
      "withdrawal_state_invalid",
    );
  });

  it("the operator rejects a pending one; the user cancels an approved one; no step twice", async () => {
    const first = (await withdraw({ amount: "40" })).json().data;
    const rejected = await op(first.withdrawalId, "reject", { reason: "sanctions check" }, "de");
    expect(rejected.json().data.status).toBe("rejected");
    const again = await op(first.withdrawalId, "reject", { reason: "again" }, "de");
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("Diese Auszahlung lässt sich so nicht mehr ändern");
    const emptyReason = await op(first.withdrawalId, "reject", { reason: " " });
    expect(emptyReason.statusCode).toBe(400);
    const second = (await withdraw({ amount: "40" })).json().data;
    await op(second.withdrawalId, "approve");
    const cancel = (id: string) =>
      call("POST", `/api/v1/wallet/withdrawals/${id}/cancel`, { user: "a" });
    expect((await cancel(second.withdrawalId)).json().data.status).toBe("cancelled");
    expect((await cancel(second.withdrawalId)).json().error).toBe("withdrawal_state_invalid");
    expect((await op(second.withdrawalId, "complete")).json().error).toBe(
      "withdrawal_state_invalid",
    );
    expect(balance("a")).toEqual([9_895n * USDT, 0n]);
    expect((await op("999999", "approve")).statusCode).toBe(404);
  });

  it("a retry with the same request id holds nothing more", async () => {
    nowMs += 16 * 60_000; // a fresh trade-password guess budget (10 per 15 minutes)
    const id = requestId();
    const first = await withdraw({ requestId: id, amount: "20" });
    const again = await withdraw({ requestId: id, amount: "20" });
    expect(again.json().data.withdrawalId).toBe(first.json().data.withdrawalId);
    expect(balance("a")).toEqual([9_870n * USDT, 25n * USDT]);
    await call("POST", `/api/v1/wallet/withdrawals/${first.json().data.withdrawalId}/cancel`, {
      user: "a",
    });
  });

  it("above the configured amount, two different operators must approve", async () => {
    // Enough money, then a withdrawal above the 10,000 USDT limit.
    await call("POST", "/api/v1/operator/deposits", {
      headers: operator,
      payload: {
        id: "deposit-a-big",
        ownerId: users.a!.id,
        assetId: "USDT",
        amount: "20000",
        reference: "big",
      },
    });
    const big = (await withdraw({ amount: "15000" })).json().data;
    expect(big.approvalsRequired).toBe(2);
    const once = await op(big.withdrawalId, "approve");
    expect(once.json().data).toMatchObject({ status: "pending", approvals: 1 });
    // The one bearer token is one operator: the same id cannot approve twice (issue 17 names them).
    const twice = await op(big.withdrawalId, "approve", undefined);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe("withdrawal_same_operator");
    expect((await op(big.withdrawalId, "sent", { txHash })).json().error).toBe(
      "withdrawal_state_invalid",
    );
    // A second, different operator (as issue 17 will authenticate them) completes the approval.
    const service = new WalletWithdrawals({
      engine: kit.running.engine,
      repository: new WithdrawalRepository(database()),
      addresses: { byId: async () => undefined },
      tradePassword: { verify: async () => undefined },
      allowTradePasswordAttempt: () => true,
      now: () => nowMs,
      config: () => ({ terms: {}, twoApprovalsAbove: {} }),
    });
    const second = await service.approve(big.withdrawalId, "operator-2");
    expect(second).toMatchObject({ status: "approved", approvals: 2 });
    await op(big.withdrawalId, "reject", { reason: "test" });
  });

  describe("refusals change nothing", () => {
    // A fresh window for the route's request limit and the trade-password guess budget.
    beforeAll(() => {
      nowMs += 16 * 60_000;
    });
    it.each([
      [
        "another user's address id",
        () => ({ addressId: addressIds.b }),
        404,
        "withdraw_address_not_found",
      ],
      ["an unknown address id", () => ({ addressId: "999999" }), 404, "withdraw_address_not_found"],
      ["below the minimum", () => ({ amount: "19.99" }), 400, "withdraw_below_minimum"],
      ["more than the balance", () => ({ amount: "1000000" }), 422, "insufficient_balance"],
      [
        "a wrong trade password",
        () => ({ tradePassword: "wrong-pass" }),
        403,
        "trade_password_invalid",
      ],
      ["a malformed amount", () => ({ amount: "1e3" }), 400, "validation_failed"],
      ["a negative amount", () => ({ amount: "-100" }), 400, "validation_failed"],
      ["a zero amount", () => ({ amount: "0" }), 400, "validation_failed"],
      [
        "an over-precise amount",
        () => ({ amount: "100.0000001" }),
        400,
        "amount_too_many_decimals",
      ],
      ["an oversized amount", () => ({ amount: "9".repeat(60) }), 400, "validation_failed"],
      ["an unknown asset", () => ({ asset: "NOPE" }), 404, "asset_not_found"],
      ["an asset not withdrawable there", () => ({ asset: "BTC" }), 400, "withdraw_not_supported"],
    ] as const)("%s", async (_name, payload, status, code) => {
      const before = balance("a");
      const response = await withdraw(payload());
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error).toBe(code);
      expect(balance("a")).toEqual(before);
    });

    it("in the user's language", async () => {
      nowMs += 16 * 60_000;
      const french = await withdraw({ amount: "5" }, "a", "fr");
      expect(french.json().message).toBe(
        "Le montant est inférieur au retrait minimum pour cet actif et ce réseau",
      );
      const swedish = await withdraw({ tradePassword: "wrong-pass" }, "a", "sv");
      expect(swedish.json().error).toBe("trade_password_invalid");
      expect(swedish.json().message).not.toBe(
        (await withdraw({ tradePassword: "wrong-pass" })).json().message,
      );
    });

    it("a demo session: Simulated accounts do not support withdrawals", async () => {
      const response = await withdraw({ addressId: "1" }, "demo");
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe("demo_withdraw_not_allowed");
      expect(response.json().message).toBe("Simulated accounts do not support withdrawals");
      const list = await call("GET", "/api/v1/wallet/withdrawals", { user: "demo" });
      expect(list.statusCode).toBe(403);
    });

    it("without a session or operator token", async () => {
      const anonymous = await call("POST", "/api/v1/wallet/withdrawals", {
        payload: {
          requestId: "x1",
          addressId: "1",
          asset: "USDT",
          amount: "1",
          tradePassword: "x",
        },
      });
      expect(anonymous.statusCode).toBe(401);
      const asUser = await call("POST", "/api/v1/operator/withdrawals/1/approve", { user: "a" });
      expect(asUser.statusCode).toBe(401);
      expect((await call("GET", "/api/v1/operator/withdrawals")).statusCode).toBe(401);
    });

    it("another user cannot see or cancel a withdrawal", async () => {
      nowMs += 16 * 60_000; // past the request limit and the trade-password guess budget
      const made = await withdraw({ amount: "30" });
      expect(made.statusCode, made.body).toBe(200);
      const mine = made.json().data;
      const seen = await call("GET", `/api/v1/wallet/withdrawals/${mine.withdrawalId}`, {
        user: "b",
      });
      expect(seen.statusCode).toBe(404);
      const cancel = await call("POST", `/api/v1/wallet/withdrawals/${mine.withdrawalId}/cancel`, {
        user: "b",
      });
      expect(cancel.statusCode).toBe(404);
      expect(
        (await call("GET", "/api/v1/wallet/withdrawals", { user: "b" })).json().data.items,
      ).toEqual([]);
      await call("POST", `/api/v1/wallet/withdrawals/${mine.withdrawalId}/cancel`, { user: "a" });
    });
  });

  it("100 parallel withdrawals against one balance hold only what it covers", async () => {
    // Straight to the service: the route's per-user rate limit would refuse most of 100 at once.
    const service = new WalletWithdrawals({
      engine: kit.running.engine,
      repository: new WithdrawalRepository(database()),
      addresses: new WithdrawAddressRepository(database()),
      tradePassword: { verify: async () => undefined },
      allowTradePasswordAttempt: () => true,
      now: () => nowMs,
      config: () => defaultWithdrawalConfig,
    });
    const session = { userId: BigInt(users.c!.id), ownerId: users.c!.id, mode: "real" as const };
    // c has 1,000 USDT; each asks 95 + 5 fee = 100: exactly ten fit.
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        service.request(
          { ...session, demoOnly: false },
          {
            requestId: `parallel-${i}`,
            addressId: addressIds.c!,
            asset: "USDT",
            amount: "95",
            tradePassword: "x",
          },
        ),
      ),
    );
    const held = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(held).toHaveLength(10);
    expect(new Set(refused.map((r) => (r.reason as AppError).code))).toEqual(
      new Set(["insufficient_balance"]),
    );
    expect(balance("c")).toEqual([0n, 1_000n * USDT]);
    const history = await call("GET", "/api/v1/wallet/withdrawals?limit=50", { user: "c" });
    expect(history.json().data.items).toHaveLength(10);
    kit.running.engine.query((s) => checkInvariants(s));
  });

  it("a record a crash left as 'requested' is settled from the kernel", async () => {
    const repository = new WithdrawalRepository(database());
    const service = new WalletWithdrawals({
      engine: kit.running.engine,
      repository,
      addresses: { byId: async () => undefined },
      tradePassword: { verify: async () => undefined },
      allowTradePasswordAttempt: () => true,
      now: () => nowMs,
      config: () => ({ terms: {}, twoApprovalsAbove: {} }),
    });
    const row = {
      userId: BigInt(users.b!.id),
      assetId: "USDT",
      network: "ethereum" as const,
      addressId: BigInt(addressIds.b!),
      address: other,
      wallet: "fund" as const,
      payee: null,
      amount: 1n,
      fee: 0n,
      approvalsRequired: 1,
      requestedAtMs: nowMs,
      updatedAtMs: nowMs,
    };
    // Held by the kernel, then the process died before the record moved on.
    const heldId = await repository.insertRequested({ ...row, commandId: "withdrawal:crash-held" });
    await call("POST", "/api/v1/operator/deposits", {
      headers: operator,
      payload: {
        id: "deposit-b",
        ownerId: users.b!.id,
        assetId: "USDT",
        amount: "1",
        reference: "b",
      },
    });
    await submit({
      type: "withdrawal_hold_fee",
      id: "withdrawal:crash-held",
      ownerId: users.b!.id,
      mode: "real",
      assetId: "USDT",
      amount: 1n,
      fee: 0n,
      withdrawalId: "withdrawal:crash-held",
    });
    // Never reached the kernel.
    const lostId = await repository.insertRequested({ ...row, commandId: "withdrawal:crash-lost" });
    await service.settleAll();
    expect((await repository.byId(heldId!))?.status).toBe("pending");
    expect(await repository.byId(lostId!)).toBeUndefined();
    expect(
      kit.running.engine.query((s) => getWithdrawal(s, "withdrawal:crash-lost")),
    ).toBeUndefined();
  });
});
