import {
  checkInvariants,
  getBalance,
  getBalances,
  getLiabilities,
  systemOwners,
} from "@candor/kernel";
import {
  statementGenesis,
  statementLineHash,
  totalsUpTo,
  verifyStatement,
  type StatementExport,
} from "@candor/proof";
import Papa from "papaparse";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";
import { statementCsvColumns } from "./wallet.statement-csv.ts";

// Accounts, transfers and quick exchange through HTTP, on the real kernel and engine.

describeEachDatabase("wallet API: accounts, transfers, quick exchange", (database) => {
  let nowMs = Date.parse("2026-11-26T13:00:00Z");
  const kit = routeTest("10.2.0");
  const { users, call, operator } = kit;
  let request = 0;
  const recordTick = (price: string) =>
    kit.recordTick("BTCUSDT", price, nowMs, (n) => `BTCUSDT:${n}`);
  const requestId = () => `request-${String(++request).padStart(6, "0")}`;
  const fund = (user: string, wallet: "fund" | "contract" | "fiat", asset: string) =>
    kit.running.engine.query((s) => {
      const b = getBalance(s, users[user]!.id, "real", wallet, asset);
      return b.available;
    });

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await recordTick("30000");
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("a", "+4915100000011");
    await kit.signUp("b", "+4915100000012");
    await kit.signInDemo("demo");
    await kit.depositEach([
      ["a", "BTC", "1"],
      ["a", "USDT", "10000"],
    ]);
  });
  afterAll(kit.close);

  describe("accounts", () => {
    it("lists fund, contract and fiat wallets valued in USDT at the tape's last tick", async () => {
      const response = await call("GET", "/api/v1/wallet/accounts", { user: "a" });
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      expect(data.mode).toBe("real");
      expect(data.valuationAsset).toBe("USDT");
      expect(data.wallets.map((w: { wallet: string }) => w.wallet)).toEqual([
        "fund",
        "contract",
        "fiat",
      ]);
      const fundWallet = data.wallets[0];
      const btc = fundWallet.items.find((i: { asset: string }) => i.asset === "BTC");
      expect(btc).toMatchObject({
        available: "1",
        held: "0",
        total: "1",
        price: "30000",
        tickId: "BTCUSDT:1",
        valuation: "30000",
      });
      expect(fundWallet.valuation).toBe("40000");
      expect(data.totalValuation).toBe("40000");
    });

    it("refuses without a session", async () => {
      const response = await call("GET", "/api/v1/wallet/accounts");
      expect(response.statusCode).toBe(401);
    });
  });

  describe("transfers between own wallets", () => {
    const move = (payload: Record<string, unknown>, user = "a", lang?: string) =>
      call("POST", "/api/v1/wallet/transfers/internal", { user, lang, payload });

    it("moves instantly, records it, and shows it on the target wallet's postings", async () => {
      const response = await move({
        requestId: requestId(),
        asset: "USDT",
        amount: "250.5",
        sourceWallet: "fund",
        targetWallet: "contract",
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({
        kind: "wallet",
        direction: "self",
        asset: "USDT",
        amount: "250.5",
        sourceWallet: "fund",
        targetWallet: "contract",
      });
      expect(fund("a", "contract", "USDT")).toBe(250_500_000n);
      expect(fund("a", "fund", "USDT")).toBe(9_749_500_000n);
      await kit.running.projector.flush();
      const statement = await call("GET", "/api/v1/wallet/accounts/contract/statement", {
        user: "a",
      });
      expect(statement.statusCode, statement.body).toBe(200);
      expect(statement.json().data.items[0]).toMatchObject({
        reason: "transfer_wallet",
        amount: "250.5",
        asset: "USDT",
      });
      const records = await call("GET", "/api/v1/wallet/transfers", { user: "a" });
      expect(records.json().data.items[0]).toMatchObject({ kind: "wallet", amount: "250.5" });
    });

    it("a retry with the same request id moves nothing more", async () => {
      const body = {
        requestId: requestId(),
        asset: "USDT",
        amount: "1",
        sourceWallet: "fund",
        targetWallet: "fiat",
      };
      expect((await move(body)).statusCode).toBe(200);
      expect((await move(body)).statusCode).toBe(200);
      expect(fund("a", "fiat", "USDT")).toBe(1_000_000n);
    });

    it.each([
      ["malformed", { amount: "abc" }, 400, "validation_failed"],
      ["negative", { amount: "-5" }, 400, "validation_failed"],
      ["over-precise", { amount: "1.0000001" }, 400, "amount_too_many_decimals"],
      ["zero", { amount: "0" }, 400, "validation_failed"],
      ["unknown wallet", { targetWallet: "savings" }, 400, "validation_failed"],
      ["same wallet", { targetWallet: "fund" }, 400, "same_wallet"],
      ["too much", { amount: "99999999" }, 422, "insufficient_balance"],
      ["unknown asset", { asset: "NOPE" }, 404, "asset_not_found"],
      ["unknown field", { extra: 1 }, 400, "validation_failed"],
    ])("refuses %s input and changes nothing", async (_name, change, status, error) => {
      const before = fund("a", "fund", "USDT");
      const response = await move({
        requestId: requestId(),
        asset: "USDT",
        amount: "1",
        sourceWallet: "fund",
        targetWallet: "contract",
        ...change,
      });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error).toBe(error);
      expect(fund("a", "fund", "USDT")).toBe(before);
    });

    it("refuses oversized bodies and missing sessions", async () => {
      const big = await move({ requestId: requestId(), asset: "USDT", amount: "1".repeat(2_000) });
      expect(big.statusCode).toBe(413);
      const anonymous = await call("POST", "/api/v1/wallet/transfers/internal", {
        payload: { requestId: requestId(), asset: "USDT", amount: "1" },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe("transfers to another user", () => {
    const send = (payload: Record<string, unknown>, user = "a", lang?: string) =>
      call("POST", "/api/v1/wallet/transfers/user", {
        user,
        lang,
        payload: {
          requestId: requestId(),
          recipientId: users.b!.id,
          asset: "USDT",
          amount: "100",
          tradePassword: "trade1234",
          confirmIrreversible: true,
          ...payload,
        },
      });

    it("shows the recipient's masked name before confirming", async () => {
      const response = await call("GET", `/api/v1/wallet/recipients/${users.b!.id}`, {
        user: "a",
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.maskedName).toMatch(/^\S\*+\S?$/u);
      const self = await call("GET", `/api/v1/wallet/recipients/${users.a!.id}`, { user: "a" });
      expect(self.json().error).toBe("recipient_is_self");
      const unknown = await call("GET", "/api/v1/wallet/recipients/999999", { user: "a" });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toBe("recipient_not_found");
      const malformed = await call("GET", "/api/v1/wallet/recipients/abc", { user: "a" });
      expect(malformed.statusCode).toBe(400);
      const demo = await call("GET", `/api/v1/wallet/recipients/${users.b!.id}`, {
        user: "demo",
      });
      expect(demo.statusCode).toBe(403);
      expect((await call("GET", `/api/v1/wallet/recipients/${users.b!.id}`)).statusCode).toBe(401);
    });

    it("sends with the trade password; both sides see it", async () => {
      const response = await send({ amount: "100" });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({
        kind: "user",
        direction: "out",
        counterpartyId: users.b!.id,
        amount: "100",
      });
      expect(fund("b", "fund", "USDT")).toBe(100_000_000n);
      const received = await call("GET", "/api/v1/wallet/transfers", { user: "b" });
      expect(received.json().data.items[0]).toMatchObject({
        direction: "in",
        counterpartyId: users.a!.id,
        amount: "100",
      });
      expect(received.json().data.items[0].counterpartyName).toMatch(/\*/);
      await kit.running.projector.flush();
      const statement = await call("GET", "/api/v1/spot/statement", { user: "b" });
      expect(statement.json().data.items[0]).toMatchObject({
        reason: "transfer_user",
        amount: "100",
      });
    });

    it.each([
      ["without the confirmation", { confirmIrreversible: false }, 400, "confirmation_required"],
      [
        "with a wrong trade password",
        { tradePassword: "wrong-pass" },
        403,
        "trade_password_invalid",
      ],
      ["to oneself", { recipientId: "__self__" }, 400, "recipient_is_self"],
      ["to an unknown user", { recipientId: "999999" }, 404, "recipient_not_found"],
      ["malformed", { amount: "1e5" }, 400, "validation_failed"],
      ["negative", { amount: "-1" }, 400, "validation_failed"],
      ["over-precise", { amount: "0.0000001" }, 400, "amount_too_many_decimals"],
      ["over the daily limit", { amount: "49901" }, 409, "transfer_limit_exceeded"],
      ["of an asset without a limit", { asset: "DOGE" }, 409, "transfer_limit_exceeded"],
      ["of an unknown asset", { asset: "NOPE" }, 404, "asset_not_found"],
      ["without a trade password", { tradePassword: undefined }, 400, "validation_failed"],
    ])("refuses a transfer %s and moves nothing", async (_name, change, status, error) => {
      const before = fund("a", "fund", "USDT");
      const body = { ...change } as Record<string, unknown>;
      if (body.recipientId === "__self__") body.recipientId = users.a!.id;
      const response = await send(body);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error).toBe(error);
      expect(fund("a", "fund", "USDT")).toBe(before);
    });

    it("answers in the user's language, and never moves demo money", async () => {
      const wrong = await send({ tradePassword: "wrong-pass" }, "a", "de");
      expect(wrong.json().message).toBe("Das Transaktionspasswort ist falsch");
      const limit = await send({ amount: "60000" }, "a", "fr");
      expect(limit.json().message).toBe("Cela dépasse votre plafond quotidien de virements");
      const demo = await send({}, "demo");
      expect(demo.statusCode).toBe(403);
      expect(demo.json().error).toBe("demo_not_allowed");
      const anonymous = await call("POST", "/api/v1/wallet/transfers/user", {
        payload: { requestId: requestId() },
      });
      expect(anonymous.statusCode).toBe(401);
      const big = await send({ tradePassword: "x".repeat(2_000) });
      expect(big.statusCode).toBe(413);
    });

    it("counts the 24-hour limit over transfers, then frees it a day later", async () => {
      const limits = await call("GET", "/api/v1/wallet/transfers/limits", { user: "a" });
      const usdt = limits.json().data.items.find((i: { asset: string }) => i.asset === "USDT");
      expect(usdt).toEqual({ asset: "USDT", limit: "50000", left: "49900" });
      nowMs += 24 * 60 * 60_000 + 1;
      const later = await call("GET", "/api/v1/wallet/transfers/limits", { user: "a" });
      expect(later.json().data.items.find((i: { asset: string }) => i.asset === "USDT").left).toBe(
        "50000",
      );
      await recordTick("30000");
    });
  });

  describe("quick exchange", () => {
    const quote = (payload: Record<string, unknown>, user = "a", lang?: string) =>
      call("POST", "/api/v1/wallet/exchange/quotes", {
        user,
        lang,
        payload: {
          requestId: requestId(),
          sourceAsset: "USDT",
          targetAsset: "BTC",
          sourceAmount: "3000",
          ...payload,
        },
      });
    const accept = (quoteId: string, user = "a", lang?: string) =>
      call("POST", `/api/v1/wallet/exchange/quotes/${encodeURIComponent(quoteId)}/accept`, {
        user,
        lang,
      });

    it("refuses when the house cannot cover, until the operator funds it", async () => {
      const response = await quote({});
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().error).toBe("house_insufficient");
      const unauthorised = await call("POST", "/api/v1/operator/house/deposits", {
        payload: { id: "house-btc-1", assetId: "BTC", amount: "1", reference: "ops-1" },
      });
      expect(unauthorised.statusCode).toBe(401);
      for (const [asset, amount] of [
        ["BTC", "1"],
        ["USDT", "50000"],
      ] as const) {
        const funded = await call("POST", "/api/v1/operator/house/deposits", {
          headers: operator,
          payload: { id: `house-${asset}-1`, assetId: asset, amount, reference: `ops-${asset}` },
        });
        expect(funded.statusCode, funded.body).toBe(200);
      }
    });

    it("lists the pairs with the disclosed spread and quote lifetime (public)", async () => {
      const response = await call("GET", "/api/v1/wallet/exchange/pairs");
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        spreadBps: 50,
        quoteTtlMs: 10_000,
        counterparty: "system:house",
      });
      expect(response.json().data.items).toContainEqual({
        base: "BTC",
        quote: "USDT",
        instrumentId: "BTCUSDT",
        price: "30000",
        tickId: "BTCUSDT:2",
      });
    });

    it("quotes at the tick ± spread with an expiry, then executes exactly the quote", async () => {
      const quoted = await quote({});
      expect(quoted.statusCode, quoted.body).toBe(200);
      const q = quoted.json().data;
      expect(q).toMatchObject({
        sourceAsset: "USDT",
        sourceAmount: "3000",
        targetAsset: "BTC",
        targetAmount: "0.09950248",
        tickId: "BTCUSDT:2",
        price: "30000",
        spreadBps: 50,
        counterparty: "system:house",
        expiresAtMs: nowMs + 10_000,
      });
      // 0.09950248 BTC / 3000 USDT, rounded down at 18 decimals.
      expect(q.rate).toBe("0.000033167493333333");
      // A new tick does not change the quote.
      nowMs += 2_000;
      await recordTick("31000");
      const usdtBefore = fund("a", "fund", "USDT");
      const btcBefore = fund("a", "fund", "BTC");
      const executed = await accept(q.quoteId);
      expect(executed.statusCode, executed.body).toBe(200);
      expect(executed.json().data).toMatchObject({
        targetAmount: "0.09950248",
        tickId: "BTCUSDT:2",
      });
      expect(fund("a", "fund", "USDT")).toBe(usdtBefore - 3_000_000_000n);
      expect(fund("a", "fund", "BTC")).toBe(btcBefore + 9_950_248n);
      // Accepting again answers with the same exchange and moves nothing.
      const again = await accept(q.quoteId);
      expect(again.statusCode).toBe(200);
      expect(fund("a", "fund", "BTC")).toBe(btcBefore + 9_950_248n);
      const records = await call("GET", "/api/v1/wallet/exchanges", { user: "a" });
      expect(records.json().data.items).toHaveLength(1);
      expect(records.json().data.items[0]).toMatchObject({
        quoteId: q.quoteId,
        sourceAmount: "3000",
        targetAmount: "0.09950248",
      });
      kit.running.engine.query((s) => checkInvariants(s));
      const house = kit.running.engine.query((s) =>
        getBalance(s, systemOwners.house, "real", "fund", "USDT"),
      );
      expect(house.available).toBe(53_000_000_000n);
    });

    it("refuses an expired quote with a clear message, and someone else's quote", async () => {
      const quoted = await quote({ sourceAmount: "10" });
      const quoteId = quoted.json().data.quoteId;
      const other = await accept(quoteId, "b");
      expect(other.statusCode).toBe(404);
      expect(other.json().error).toBe("quote_not_found");
      nowMs += 10_001;
      const expired = await accept(quoteId, "a", "es");
      expect(expired.body).toContain("quote_expired");
      expect(expired.statusCode).toBe(409);
      expect(expired.json()).toMatchObject({
        error: "quote_expired",
        message: "La cotización ha caducado, solicite una nueva",
      });
      await recordTick("31000");
    });

    it.each([
      ["malformed", { sourceAmount: "ten" }, 400, "validation_failed"],
      ["negative", { sourceAmount: "-3" }, 400, "validation_failed"],
      ["over-precise", { sourceAmount: "1.0000001" }, 400, "amount_too_many_decimals"],
      ["unpaired", { sourceAsset: "BTC", targetAsset: "BTC" }, 400, "exchange_pair_unsupported"],
      ["too small", { sourceAmount: "0.000001" }, 400, "exchange_amount_too_small"],
      ["beyond the balance", { sourceAmount: "9999999" }, 422, "insufficient_balance"],
    ])("refuses a %s quote request", async (_name, change, status, error) => {
      const response = await quote(change);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error).toBe(error);
    });

    it("refuses malformed quote ids, oversized bodies and missing sessions", async () => {
      expect((await accept("bad id!")).statusCode).toBe(400);
      expect([400, 414]).toContain((await accept("x".repeat(200))).statusCode);
      const big = await quote({ requestId: "r".repeat(2_000) });
      expect(big.statusCode).toBe(413);
      const anonymous = await call("POST", "/api/v1/wallet/exchange/quotes", {
        payload: { requestId: requestId() },
      });
      expect(anonymous.statusCode).toBe(401);
      expect((await call("GET", "/api/v1/wallet/exchanges")).statusCode).toBe(401);
    });

    it("demo quotes trade with the demo house, funded by the demo faucet only", async () => {
      const realHouse = kit.running.engine.query(
        (s) => getBalance(s, systemOwners.house, "real", "fund", "BTC").available,
      );
      const quoted = await quote({ sourceAmount: "1000" }, "demo");
      expect(quoted.statusCode, quoted.body).toBe(200);
      expect(quoted.json().data.mode).toBe("demo");
      const executed = await accept(quoted.json().data.quoteId, "demo");
      expect(executed.statusCode, executed.body).toBe(200);
      expect(
        kit.running.engine.query((s) => getBalance(s, systemOwners.house, "real", "fund", "BTC")),
      ).toMatchObject({ available: realHouse });
      kit.running.engine.query((s) => checkInvariants(s));
    });
  });

  describe("withdrawal address book", () => {
    const good = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    const book = "/api/v1/wallet/withdraw-addresses";
    const add = (payload: Record<string, unknown>, user = "a", lang?: string) =>
      call("POST", book, {
        user,
        lang,
        payload: { network: "ethereum", address: good, remark: "my ledger", ...payload },
      });

    it("saves a checksummed address usable after 24 hours, once", async () => {
      const added = await add({});
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json().data.address).toMatchObject({
        network: "ethereum",
        address: good,
        remark: "my ledger",
        usableFromMs: nowMs + 24 * 60 * 60_000,
      });
      expect(added.json().data.similarTo).toBeNull();
      const again = await add({ remark: "again" });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe("withdraw_address_exists");
      const list = await call("GET", book, { user: "a" });
      expect(list.json().data.items).toHaveLength(1);
    });

    it("checks the EIP-55 checksum, accepts lower case, and flags a look-alike", async () => {
      const wrong = await add({ address: "0xd8da6BF26964aF9D7eEd9e03E53415D37aA96045" }, "a", "de");
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toBe("withdraw_address_invalid");
      expect(wrong.json().message).toContain("Prüfsumme");
      const zero = await add({ address: `0x${"0".repeat(40)}` });
      expect(zero.json().error).toBe("withdraw_address_invalid");
      const alike = await add({ address: "0xd8da000000000000000000000000000000006045" });
      expect(alike.statusCode, alike.body).toBe(200);
      expect(alike.json().data.address.address).toBe(
        getAddress("0xd8da000000000000000000000000000000006045"),
      );
      expect(alike.json().data.address.address).not.toBe(
        "0xd8da000000000000000000000000000000006045",
      );
      expect(alike.json().data.similarTo.address).toBe(good);
    });

    it("edits: a new remark keeps the waiting time, a new address waits again", async () => {
      const list = (await call("GET", book, { user: "a" })).json().data.items;
      const first = list[0];
      nowMs += 60_000;
      const renamed = await call("PUT", `${book}/${first.addressId}`, {
        user: "a",
        payload: { network: "ethereum", address: first.address, remark: "cold wallet" },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().data.address).toMatchObject({
        remark: "cold wallet",
        usableFromMs: first.usableFromMs,
      });
      const moved = await call("PUT", `${book}/${first.addressId}`, {
        user: "a",
        payload: { network: "bsc", address: first.address, remark: "cold wallet" },
      });
      expect(moved.json().data.address.usableFromMs).toBe(nowMs + 24 * 60 * 60_000);
      const clash = await call("PUT", `${book}/${first.addressId}`, {
        user: "a",
        payload: { network: "ethereum", address: list[1].address, remark: "x" },
      });
      expect(clash.statusCode).toBe(409);
    });

    it("deletes only the user's own addresses", async () => {
      const list = (await call("GET", book, { user: "a" })).json().data.items;
      const id = list[1].addressId;
      const other = await call("DELETE", `${book}/${id}`, { user: "b" });
      expect(other.statusCode).toBe(404);
      const deleted = await call("DELETE", `${book}/${id}`, { user: "a" });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await call("DELETE", `${book}/${id}`, { user: "a" })).statusCode).toBe(404);
      expect((await call("GET", book, { user: "a" })).json().data.items).toHaveLength(1);
    });

    it.each([
      ["malformed", { address: "0x1234" }, 400],
      ["not hex", { address: `0x${"g".repeat(40)}` }, 400],
      ["an unknown network", { network: "solana" }, 400],
      ["an oversized remark", { remark: "r".repeat(41) }, 400],
      ["an unknown field", { memo: "x" }, 400],
    ])("refuses %s", async (_name, change, status) => {
      const response = await add(change);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error).toBe("validation_failed");
    });

    it("refuses negative ids, oversized bodies, demo sessions and missing sessions", async () => {
      expect((await call("DELETE", `${book}/-1`, { user: "a" })).statusCode).toBe(400);
      expect((await add({ remark: "r".repeat(2_000) })).statusCode).toBe(413);
      const demo = await add({}, "demo");
      expect(demo.statusCode).toBe(403);
      expect(demo.json().error).toBe("demo_withdraw_not_allowed");
      expect((await call("GET", book)).statusCode).toBe(401);
      expect((await call("POST", book, { payload: {} })).statusCode).toBe(401);
    });
  });

  describe("statement export (verifiable statements)", () => {
    const exportUrl = "/api/v1/wallet/statement/export";

    it("exports every posting, chained, adding up to the ledger's balances", async () => {
      const response = await call("GET", exportUrl, { user: "a" });
      expect(response.statusCode, response.body).toBe(200);
      const statement = response.json().data as StatementExport;
      const check = verifyStatement(statement);
      expect(check, JSON.stringify(check)).toMatchObject({ ok: true });
      // Deposits, moves between own wallets, transfers out and exchanges: every kind is there,
      // and the two sides of an own-wallet move share one posting number.
      const reasons = new Set(statement.lines.map((line) => line.reason));
      for (const reason of ["deposit", "transfer_wallet", "transfer_user", "exchange"]) {
        expect(reasons).toContain(reason);
      }
      const postings = statement.lines.map((line) => line.postingSeq);
      expect(new Set(postings).size).toBeLessThan(postings.length);
      // The balances are the kernel's, not the read model's.
      const kernel = kit.running.engine.query((state) =>
        getBalances(state, users.a!.id, "real").map((b) => [
          `${b.wallet}/${b.assetId}`,
          b.available + b.held,
        ]),
      );
      if (check.ok) {
        for (const [key, units] of kernel)
          expect(check.balances.get(key as string) ?? 0n).toBe(units);
      }
      // What a liabilities tree at this sequence holds for the user, per asset.
      const totals = totalsUpTo(statement, BigInt(statement.sequence));
      const liabilities = kit.running.engine.query((state) => getLiabilities(state, "real"));
      const leaf = liabilities.owners.find((owner) => owner.ownerId === users.a!.id)!;
      liabilities.assets.forEach((asset, i) =>
        expect(totals.get(asset) ?? 0n).toBe(leaf.values[i]),
      );
    });

    it("gives the same lines as CSV, which parse back into the same chain", async () => {
      const json = (await call("GET", exportUrl, { user: "a" })).json().data as StatementExport;
      const response = await call("GET", `${exportUrl}?format=csv`, { user: "a" });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(response.headers["content-disposition"]).toMatch(
        /^attachment; filename="candor-statement-real-\d+\.csv"$/,
      );
      const parsed = Papa.parse<Record<string, string>>(response.body, {
        header: true,
        skipEmptyLines: true,
      });
      expect(parsed.errors).toEqual([]);
      expect(parsed.meta.fields).toEqual([...statementCsvColumns]);
      const orNull = (text: string | undefined) => (text ? text : null);
      let head = statementGenesis(users.a!.id, "real");
      const balances = new Map<string, string>();
      for (const row of parsed.data) {
        head = statementLineHash(head, {
          postingSeq: row.posting_seq!,
          sequence: row.sequence!,
          atMs: Number(row.at_ms),
          wallet: row.wallet!,
          asset: row.asset!,
          amount: row.amount!,
          fromHeld: row.from_held === "true",
          reason: row.reason!,
          counterparty: row.counterparty!,
          orderId: orNull(row.order_id),
          fillId: orNull(row.fill_id),
          tickId: orNull(row.tick_id),
          operatorId: orNull(row.operator_id),
          reference: orNull(row.reference),
          balanceAfter: row.balance_after!,
        });
        expect(row.hash).toBe(head);
        balances.set(`${row.wallet}/${row.asset}`, row.balance_after!);
      }
      expect(parsed.data).toHaveLength(json.lines.length);
      expect(head).toBe(json.head);
      for (const balance of json.balances) {
        expect(balances.get(`${balance.wallet}/${balance.asset}`) ?? "0").toBe(balance.amount);
      }
    });

    it("keeps each user to their own statement and mode", async () => {
      const b = (await call("GET", exportUrl, { user: "b" })).json().data as StatementExport;
      expect(b.userId).toBe(users.b!.id);
      expect(verifyStatement(b)).toMatchObject({ ok: true });
      const demo = await call("GET", exportUrl, { user: "demo" });
      expect(demo.statusCode, demo.body).toBe(200);
      expect(demo.json().data).toMatchObject({ mode: "demo", userId: users.demo!.id });
      expect(verifyStatement(demo.json().data)).toMatchObject({ ok: true });
    });

    it.each([
      ["an unknown format", "?format=xml"],
      ["an unknown parameter", "?asset=BTC"],
      ["an oversized value", `?format=${"c".repeat(5_000)}`],
    ])("refuses %s in the user's language", async (_name, query) => {
      const response = await call("GET", `${exportUrl}${query}`, { user: "a", lang: "de" });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toBe("validation_failed");
      expect(response.json().message).not.toMatch(/Invalid/);
    });

    it("refuses anyone not signed in", async () => {
      expect((await call("GET", exportUrl)).statusCode).toBe(401);
      const forged = await call("GET", exportUrl, { headers: { authorization: "Bearer forged" } });
      expect(forged.statusCode).toBe(401);
    });
  });
});
