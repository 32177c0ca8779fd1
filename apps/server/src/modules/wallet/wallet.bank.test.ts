import { checkInvariants, getBalance, type Wallet } from "@candor/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";
import { checkedCardNumber } from "./wallet.bank-cards.ts";

// Bank cards, withdrawals to them from the fiat wallet, and Buy (crypto for the fiat wallet's
// balance at a quick-exchange quote), through HTTP on the real kernel and engine.

const USDT = 1_000_000n;

describe("bank card numbers", () => {
  it("accepts 8–34 digits and valid IBANs, stored compact; refuses the rest", () => {
    expect(checkedCardNumber("4000 1234-5678 9010")).toBe("4000123456789010");
    expect(checkedCardNumber("de89 3704 0044 0532 0130 00")).toBe("DE89370400440532013000");
    for (const bad of [
      "1234567",
      "1".repeat(35),
      "DE88370400440532013000",
      "12ab5678",
      "",
      "٣٣٣٣٣٣٣٣",
    ]) {
      expect(() => checkedCardNumber(bad), bad).toThrow();
    }
  });
});

describeEachDatabase("wallet API: bank cards, bank-card withdrawals and buy", (database) => {
  let nowMs = Date.parse("2026-11-27T09:00:00Z");
  const kit = routeTest("10.4.0");
  const { users, call, operator } = kit;
  let request = 0;
  const card = {
    cardholder: "Ana Silva",
    bankName: "Banco Exemplo",
    branch: "Lisboa Centro",
    cardNumber: "4000 1234 5678 9010",
  };

  const requestId = () => `bk-${String(++request).padStart(6, "0")}`;
  const balance = (user: string, wallet: Wallet, asset = "USDT") =>
    kit.running.engine.query((s) => {
      const b = getBalance(s, users[user]!.id, "real", wallet, asset);
      return [b.available, b.held];
    });
  const op = (id: string, step: string, payload?: object, lang?: string) =>
    call("POST", `/api/v1/operator/withdrawals/${id}/${step}`, {
      headers: operator,
      payload,
      lang,
    });
  const bindCard = (user: string, payload: object = card, lang?: string) =>
    call("POST", "/api/v1/wallet/bank-cards", { user, payload, lang });
  const withdraw = (
    cardId: string,
    payload: Record<string, unknown> = {},
    user = "a",
    lang?: string,
  ) =>
    call("POST", "/api/v1/wallet/withdrawals/bank", {
      user,
      lang,
      payload: {
        requestId: requestId(),
        cardId,
        asset: "USDT",
        amount: "100",
        tradePassword: "trade1234",
        ...payload,
      },
    });
  const toFiat = (user: string, amount: string) =>
    call("POST", "/api/v1/wallet/transfers/internal", {
      user,
      payload: {
        requestId: requestId(),
        asset: "USDT",
        amount,
        sourceWallet: "fund",
        targetWallet: "fiat",
      },
    });
  const recordTick = (price: string) =>
    kit.recordTick("BTCUSDT", price, nowMs, (n) => `BTCUSDT:${n}`);

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("a", "+4915100000031");
    await kit.signUp("b", "+4915100000032");
    await kit.signInDemo("demo");
    await kit.deposit({
      id: "deposit-a",
      ownerId: users.a!.id,
      assetId: "USDT",
      amount: "5000",
      reference: "bank-a",
    });
    expect((await toFiat("a", "3000")).statusCode).toBe(200);
  });
  afterAll(kit.close);

  describe("bank cards", () => {
    let cardId = "";

    it("binds a card and lists it with the number masked", async () => {
      const added = await bindCard("a");
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json().data).toMatchObject({
        cardholder: "Ana Silva",
        bankName: "Banco Exemplo",
        branch: "Lisboa Centro",
        cardNumberMasked: "•••• 9010",
      });
      cardId = added.json().data.cardId;
      const listed = await call("GET", "/api/v1/wallet/bank-cards", { user: "a" });
      expect(listed.json().data.items).toHaveLength(1);
      expect(listed.body).not.toContain("4000123456789010");
      expect(
        (await call("GET", "/api/v1/wallet/bank-cards", { user: "b" })).json().data.items,
      ).toEqual([]);
    });

    it("refuses an invalid or duplicate number, in the user's language", async () => {
      const invalid = await bindCard("a", { ...card, cardNumber: "12-34" }, "de");
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json()).toMatchObject({
        error: "bank_card_invalid",
        message: "Diese Karten- oder Kontonummer ist ungültig: Bitte Ziffer für Ziffer prüfen",
      });
      const duplicate = await bindCard("a", { ...card, cardNumber: "4000123456789010" }, "en");
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toMatchObject({
        error: "bank_card_exists",
        message: "This bank card is already bound",
      });
      const blank = await bindCard("a", { ...card, cardholder: "   " });
      expect(blank.statusCode).toBe(400);
      const oversized = await bindCard("a", { ...card, bankName: "x".repeat(101) });
      expect(oversized.statusCode).toBe(400);
      const extra = await bindCard("a", { ...card, cardNumber: "4000123400000001", admin: true });
      expect(extra.statusCode).toBe(400);
      const anonymous = await call("POST", "/api/v1/wallet/bank-cards", { payload: card });
      expect(anonymous.statusCode).toBe(401);
    });

    it("refuses simulated accounts with the spec's message (deposits or withdrawals)", async () => {
      for (const [lang, message] of [
        ["en", "Simulated accounts do not support deposits or withdrawals"],
        ["zh-Hant", "模擬帳戶不支援充值或提現"],
      ] as const) {
        const added = await bindCard("demo", card, lang);
        expect(added.statusCode).toBe(403);
        expect(added.json()).toMatchObject({ error: "demo_funds_not_allowed", message });
      }
      const listed = await call("GET", "/api/v1/wallet/bank-cards", { user: "demo" });
      expect(listed.json().error).toBe("demo_funds_not_allowed");
      const withdrawn = await withdraw(cardId, {}, "demo", "en");
      expect(withdrawn.statusCode).toBe(403);
      expect(withdrawn.json()).toMatchObject({
        error: "demo_withdraw_not_allowed",
        message: "Simulated accounts do not support withdrawals",
      });
    });

    it("deletes only the owner's card; another user's id is not found", async () => {
      const second = await bindCard("a", { ...card, cardNumber: "DE89 3704 0044 0532 0130 00" });
      expect(second.statusCode, second.body).toBe(200);
      const id = second.json().data.cardId;
      const foreign = await call("DELETE", `/api/v1/wallet/bank-cards/${id}`, { user: "b" });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error).toBe("bank_card_not_found");
      const deleted = await call("DELETE", `/api/v1/wallet/bank-cards/${id}`, { user: "a" });
      expect(deleted.json().data).toEqual({ deleted: true });
      const again = await call("DELETE", `/api/v1/wallet/bank-cards/${id}`, { user: "a" });
      expect(again.statusCode).toBe(404);
    });

    describe("withdrawals to the card, from the fiat wallet", () => {
      it("shows the bank terms before confirming", async () => {
        const options = await call("GET", "/api/v1/wallet/withdrawals/options", { user: "a" });
        expect(options.json().data.bank).toContainEqual({
          asset: "USDT",
          minimum: "10",
          fee: "1",
          twoApprovalsAbove: "10000",
        });
      });

      it("refuses below the minimum, a wrong trade password, another's card and too much", async () => {
        const low = await withdraw(cardId, { amount: "9.99" }, "a", "es");
        expect(low.statusCode).toBe(400);
        expect(low.json().error).toBe("withdraw_below_minimum");
        const wrong = await withdraw(cardId, { tradePassword: "nope-nope" });
        expect(wrong.statusCode).toBe(403);
        expect(wrong.json().error).toBe("trade_password_invalid");
        const foreign = await withdraw(cardId, {}, "b");
        expect(foreign.statusCode).toBe(404);
        expect(foreign.json().error).toBe("bank_card_not_found");
        // The fund wallet's 2,000 do not pay a bank-card withdrawal: only the fiat wallet's 3,000.
        const much = await withdraw(cardId, { amount: "3000" });
        expect(much.statusCode).toBe(422);
        expect(much.json().error).toBe("insufficient_balance");
        const precise = await withdraw(cardId, { amount: "10.0000001" });
        expect(precise.statusCode).toBe(400);
        const negative = await withdraw(cardId, { amount: "-10" });
        expect(negative.statusCode).toBe(400);
        expect(balance("a", "fiat")).toEqual([3_000n * USDT, 0n]);
      });

      it("holds at request, approve → paid (bank reference) → completed, every step recorded", async () => {
        const requested = await withdraw(cardId, { amount: "100" });
        expect(requested.statusCode, requested.body).toBe(200);
        const view = requested.json().data;
        expect(view).toMatchObject({
          network: "bank",
          wallet: "fiat",
          address: "Banco Exemplo •••• 9010",
          amount: "100",
          fee: "1",
          total: "101",
          status: "pending",
        });
        expect(balance("a", "fiat")).toEqual([2_899n * USDT, 101n * USDT]);
        expect(balance("a", "fund")).toEqual([2_000n * USDT, 0n]);
        const id = view.withdrawalId;
        // The operator sees the whole payee; the user never does.
        const listed = await call("GET", "/api/v1/operator/withdrawals?status=pending", {
          headers: operator,
        });
        expect(
          listed.json().data.items.find((w: { withdrawalId: string }) => w.withdrawalId === id),
        ).toMatchObject({ payee: { cardNumber: "4000123456789010", cardholder: "Ana Silva" } });
        expect(JSON.stringify(view)).not.toContain("4000123456789010");
        // Paid before approval, or with a chain hash, is refused.
        const early = await op(id, "paid", { bankReference: "REF-1", reason: "paid by bank" });
        expect(early.json().error).toBe("withdrawal_state_invalid");
        expect((await op(id, "approve")).statusCode).toBe(200);
        const hash = await op(id, "sent", { txHash: `0x${"ab".repeat(32)}` });
        expect(hash.json().error).toBe("withdrawal_state_invalid");
        const noReason = await op(id, "paid", { bankReference: "REF-1", reason: "" });
        expect(noReason.statusCode).toBe(400);
        const paid = await op(id, "paid", {
          bankReference: "SEPA-2026-11-27-0001",
          reason: "paid from the operating account",
        });
        expect(paid.statusCode, paid.body).toBe(200);
        expect(paid.json().data).toMatchObject({ status: "sent", txHash: "SEPA-2026-11-27-0001" });
        const completed = await op(id, "complete");
        expect(completed.json().data.status).toBe("completed");
        expect(balance("a", "fiat")).toEqual([2_899n * USDT, 0n]);
        const detail = await call("GET", `/api/v1/wallet/withdrawals/${id}`, { user: "a" });
        expect(detail.json().data.steps.map((s: { status: string }) => s.status)).toEqual([
          "requested",
          "pending",
          "approved",
          "sent",
          "completed",
        ]);
        expect(detail.json().data.steps[2].operatorId).toBe("bootstrap");
        await kit.running.projector.flush();
        const statement = await call("GET", "/api/v1/wallet/accounts/fiat/statement", {
          user: "a",
        });
        expect(statement.statusCode, statement.body).toBe(200);
        const reasons = statement.json().data.items.map((l: { reason: string }) => l.reason);
        expect(reasons).toEqual(expect.arrayContaining(["withdrawal", "withdrawal_fee"]));
        kit.running.engine.query((s) => checkInvariants(s));
      });

      it("rejected with a reason releases the hold; cancelled by the user too", async () => {
        const first = (await withdraw(cardId, { amount: "50" })).json().data.withdrawalId;
        const rejected = await op(first, "reject", { reason: "name does not match" });
        expect(rejected.json().data).toMatchObject({
          status: "rejected",
          rejectReason: "name does not match",
        });
        const second = (await withdraw(cardId, { amount: "50" })).json().data.withdrawalId;
        expect((await op(second, "approve")).statusCode).toBe(200);
        const cancelled = await call("POST", `/api/v1/wallet/withdrawals/${second}/cancel`, {
          user: "a",
        });
        expect(cancelled.json().data.status).toBe("cancelled");
        expect(balance("a", "fiat")).toEqual([2_899n * USDT, 0n]);
      });

      it("a deleted card keeps its pending withdrawal's payee for the operator", async () => {
        const other = await bindCard("a", { ...card, cardNumber: "5500 0000 0000 0004" });
        const otherId = other.json().data.cardId;
        const id = (await withdraw(otherId, { amount: "20" })).json().data.withdrawalId;
        await call("DELETE", `/api/v1/wallet/bank-cards/${otherId}`, { user: "a" });
        const listed = await call("GET", "/api/v1/operator/withdrawals?status=pending", {
          headers: operator,
        });
        expect(
          listed.json().data.items.find((w: { withdrawalId: string }) => w.withdrawalId === id)
            .payee.cardNumber,
        ).toBe("5500000000000004");
        await op(id, "reject", { reason: "test over" });
      });
    });
  });

  describe("buy", () => {
    beforeAll(async () => {
      await recordTick("50000.00");
      const funded = await call("POST", "/api/v1/operator/house/deposits", {
        headers: operator,
        payload: { id: "house-btc-buy", assetId: "BTC", amount: "1", reference: "ops-btc" },
      });
      expect(funded.statusCode, funded.body).toBe(200);
    });

    it("lists what can be bought with the fiat wallet's balance", async () => {
      const options = await call("GET", "/api/v1/wallet/buy/options", { user: "a" });
      expect(options.json().data).toMatchObject({
        payAsset: "USDT",
        available: "2899",
        counterparty: "system:house",
      });
      expect(options.json().data.items).toContainEqual(
        expect.objectContaining({ asset: "BTC", price: "50000.00" }),
      );
    });

    it("quotes, then buys exactly at the quote, paid from the fiat wallet", async () => {
      const quoted = await call("POST", "/api/v1/wallet/buy/quotes", {
        user: "a",
        payload: { requestId: requestId(), asset: "BTC", amount: "1000" },
      });
      expect(quoted.statusCode, quoted.body).toBe(200);
      const quote = quoted.json().data;
      expect(quote).toMatchObject({ sourceAsset: "USDT", targetAsset: "BTC", tickId: "BTCUSDT:1" });
      // The payment waits in the fund wallet while the quote stands.
      expect(balance("a", "fiat")).toEqual([1_899n * USDT, 0n]);
      nowMs += 2_000;
      const accepted = await call("POST", `/api/v1/wallet/buy/quotes/${quote.quoteId}/accept`, {
        user: "a",
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json().data.targetAmount).toBe(quote.targetAmount);
      expect(balance("a", "fund", "BTC")[0]).toBeGreaterThan(0n);
      expect(balance("a", "fund")).toEqual([2_000n * USDT, 0n]);
      const history = await call("GET", "/api/v1/wallet/exchanges", { user: "a" });
      expect(history.json().data.items[0].quoteId).toBe(quote.quoteId);
    });

    it("refuses an expired quote in the user's language and moves the payment back", async () => {
      const quoted = await call("POST", "/api/v1/wallet/buy/quotes", {
        user: "a",
        payload: { requestId: requestId(), asset: "BTC", amount: "100" },
      });
      const quoteId = quoted.json().data.quoteId;
      expect(balance("a", "fiat")).toEqual([1_799n * USDT, 0n]);
      nowMs += 10_001;
      await recordTick("50010.00");
      const foreign = await call("POST", `/api/v1/wallet/buy/quotes/${quoteId}/accept`, {
        user: "b",
      });
      expect(foreign.json().error).toBe("quote_not_found");
      for (const lang of ["en", "es"]) {
        const expired = await call("POST", `/api/v1/wallet/buy/quotes/${quoteId}/accept`, {
          user: "a",
          lang,
        });
        expect(expired.statusCode).toBe(409);
        expect(expired.json().error).toBe("quote_expired");
      }
      expect(
        (
          await call("POST", `/api/v1/wallet/buy/quotes/${quoteId}/accept`, {
            lang: "es",
            user: "a",
          })
        ).json().message,
      ).not.toBe(
        (
          await call("POST", `/api/v1/wallet/buy/quotes/${quoteId}/accept`, {
            lang: "en",
            user: "a",
          })
        ).json().message,
      );
      nowMs += 5_000;
      await recordTick("50020.00");
      // The sweeper moves unaccepted payments back (here called at once instead of waiting).
      const options = await call("GET", "/api/v1/wallet/buy/options", { user: "a" });
      expect(options.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(balance("a", "fiat")).toEqual([1_899n * USDT, 0n]);
    });

    it("refuses more than the fiat wallet holds, and an over-precise amount", async () => {
      const much = await call("POST", "/api/v1/wallet/buy/quotes", {
        user: "a",
        payload: { requestId: requestId(), asset: "BTC", amount: "1900" },
        lang: "de",
      });
      expect(much.statusCode).toBe(422);
      expect(much.json().error).toBe("insufficient_balance");
      const precise = await call("POST", "/api/v1/wallet/buy/quotes", {
        user: "a",
        payload: { requestId: requestId(), asset: "BTC", amount: "1.0000001" },
      });
      expect(precise.statusCode).toBe(400);
      const same = await call("POST", "/api/v1/wallet/buy/quotes", {
        user: "a",
        payload: { requestId: requestId(), asset: "USDT", amount: "1" },
      });
      expect(same.json().error).toBe("exchange_pair_unsupported");
      expect(balance("a", "fiat")).toEqual([1_899n * USDT, 0n]);
    });
  });
});
