import { parseDecimal, pow10 } from "@candor/decimal";
import { getLiabilities, getMarkets } from "@candor/kernel";
import { decodeProof, decodeRoot, verifyInclusion } from "@candor/proof";
import { afterAll, beforeAll, expect, it } from "vitest";
import { kernelPort } from "../../engine/kernel-port.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";
import { build, saltFor } from "./tree-builder.ts";

const parseAmountUnits = (text: string, scale: number) => {
  const parsed = parseDecimal(text, scale);
  if (!parsed.ok) throw new Error(text);
  return parsed.value;
};

describeEachDatabase("proof of liabilities", (database) => {
  let nowMs = Date.parse("2026-11-26T12:00:00Z");
  const kit = routeTest("10.2.0", "operator-token-for-proof");
  const { users, submit, call, operator } = kit;

  beforeAll(async () => {
    await kit.startEngine(database(), () => nowMs);
    await kit.startApp(database(), { now: () => nowMs });
    await kit.signUp("a", "+4915100000011");
    await kit.signUp("b", "+4915100000012");
    await kit.signInDemo("demo");
    for (const [name, assetId, amount] of [
      ["a", "USDT", "10000"],
      ["a", "BTC", "0.5"],
      ["b", "USDT", "250.75"],
    ] as const) {
      await kit.deposit({
        id: `d-${name}-${assetId}`,
        ownerId: users[name]!.id,
        assetId,
        amount,
        reference: "r",
      });
    }
  });
  afterAll(kit.close);

  it("has nothing published at first, in the user's language", async () => {
    const response = await call("GET", "/api/v1/proof/liabilities", {
      headers: { "x-lang": "de" },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      error: "proof_not_published",
      message: "Es wurde noch kein Verbindlichkeitsnachweis veröffentlicht",
    });
  });

  it("publishes on the operator's request only, and a user's proof verifies against the public root", async () => {
    expect((await call("POST", "/api/v1/operator/proof/liabilities")).statusCode).toBe(401);
    const asUser = await call("POST", "/api/v1/operator/proof/liabilities", {
      token: users.a!.token,
    });
    expect(asUser.statusCode).toBe(401);

    const published = await call("POST", "/api/v1/operator/proof/liabilities", {
      headers: operator,
    });
    expect(published.statusCode, published.body).toBe(200);
    const publication = published.json().data;
    expect(publication.sequence).toBe(kit.running.engine.sequence.toString());

    const publicRoot = (await call("GET", "/api/v1/proof/liabilities")).json().data;
    expect(publicRoot).toEqual(publication);
    const root = decodeRoot(publicRoot.root);
    if (!root.ok) throw new Error(root.detail);
    // Real users only: the demo user is not a liability.
    expect(root.value.leafCount).toBe(2);
    const usdt = root.value.assets.indexOf("USDT");
    expect(root.value.sums[usdt]).toBe(10_250_750_000n);
    expect(publicRoot.scales[usdt]).toBe(6);

    const mine = await call("GET", "/api/v1/proof/liabilities/me", { token: users.a!.token });
    expect(mine.statusCode, mine.body).toBe(200);
    const { userId, proof: proofJson } = mine.json().data;
    expect(userId).toBe(users.a!.id);
    const proof = decodeProof(proofJson);
    if (!proof.ok) throw new Error(proof.detail);
    expect(verifyInclusion(proof.value, root.value, users.a!.id, proof.value.leaf.salt)).toEqual({
      ok: true,
      leafIndex: expect.any(Number),
    });
    expect(proof.value.leaf.values[usdt]).toBe(10_000_000_000n);
    expect(proof.value.leaf.values[root.value.assets.indexOf("BTC")]).toBe(50_000_000n);
    // Someone else's id with this salt, or a changed balance, does not verify.
    expect(verifyInclusion(proof.value, root.value, users.b!.id, proof.value.leaf.salt).ok).toBe(
      false,
    );
    proof.value.leaf.values[usdt] = 20_000_000_000n;
    expect(
      verifyInclusion(proof.value, root.value, users.a!.id, proof.value.leaf.salt),
    ).toMatchObject({ ok: false, reason: "root_hash_mismatch" });
  });

  it("refuses anonymous callers and users without real money in the tree", async () => {
    expect((await call("GET", "/api/v1/proof/liabilities/me")).statusCode).toBe(401);
    const demo = await call("GET", "/api/v1/proof/liabilities/me", { token: users.demo!.token });
    expect(demo.statusCode).toBe(404);
    expect(demo.json().error).toBe("proof_not_included");
  });

  it("keeps every root, newest first, and validates the page size", async () => {
    const deposit = {
      id: "d-extra",
      ownerId: users.b!.id,
      assetId: "USDT",
      amount: "1",
      reference: "r",
    };
    await call("POST", "/api/v1/operator/deposits", { headers: operator, payload: deposit });
    await call("POST", "/api/v1/operator/proof/liabilities", { headers: operator });
    const history = await call("GET", "/api/v1/proof/liabilities/history?limit=5");
    expect(history.statusCode).toBe(200);
    const items = history.json().data.items;
    expect(items).toHaveLength(2);
    expect(BigInt(items[0].sequence)).toBeGreaterThan(BigInt(items[1].sequence));
    expect(items[0].root.hash).not.toBe(items[1].root.hash);
    for (const bad of ["0", "101", "-1", "1.5", "abc", "9".repeat(400)]) {
      const response = await call("GET", `/api/v1/proof/liabilities/history?limit=${bad}`);
      expect(response.statusCode, bad).toBe(400);
    }
    expect((await call("GET", "/api/v1/proof/liabilities/history?x=1")).statusCode).toBe(400);
  });

  it("discloses liabilities and system accounts from the ledger, with the latest proof", async () => {
    const response = await call("GET", "/api/v1/transparency");
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.sequence).toBe(kit.running.engine.sequence.toString());
    expect(data.users).toBe(2);
    // 10,000 + 250.75 + the 1 of the history test, all real deposits.
    expect(data.liabilities).toContainEqual({ assetId: "USDT", amount: "10251.75" });
    expect(data.systemAccounts).toContainEqual({
      ownerId: "system:external",
      assetId: "USDT",
      amount: "-10251.75",
    });
    const latest = (await call("GET", "/api/v1/proof/liabilities")).json().data;
    expect(data.proof).toEqual(latest);
  });

  it("rebuilds the same root from the same state (a restored snapshot)", async () => {
    const latest = (await call("GET", "/api/v1/proof/liabilities")).json().data;
    const sequence = BigInt(latest.sequence);
    expect(sequence).toBe(kit.running.engine.sequence);
    const restored = kernelPort.restore(
      kit.running.engine.query((state) => kernelPort.snapshot(state)),
    );
    const secret = await database()
      .db.selectFrom("proof_secret")
      .select("secret")
      .executeTakeFirstOrThrow();
    const tree = build({
      ...getLiabilities(restored, "real"),
      bits: 128,
      sequence,
      secret: secret.secret,
    });
    expect(tree.root.hash).toBe(latest.root.hash);
    expect(saltFor(secret.secret, sequence, users.a!.id)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("discloses how many spot traders lost money, valued at the tape, and system balances over time", async () => {
    await kit.running.projector.flush();
    nowMs += 61_000;
    const before = (await call("GET", "/api/v1/transparency")).json().data;
    expect(before.spotResults).toEqual({
      days: 90,
      valuationAsset: "USDT",
      accounts: 0,
      lost: 0,
      unpriced: 0,
    });
    expect(before.systemHistory.atMs).toHaveLength(4);
    // Real deposits came in through the clearing account: none 30 days ago, all of them now.
    expect(before.systemHistory.accounts).toContainEqual({
      ownerId: "system:external",
      assetId: "USDT",
      amounts: ["0", "0", "0", "-10251.75"],
    });

    // b buys 0.005 BTC from a at 30,000; then the tape falls to 20,000: b lost, a did not.
    const market = kit.running.engine.query(getMarkets).find((m) => m.marketId === "BTC-USDT")!;
    const priceTicks = Number(
      (30_000n * pow10(market.quoteScale)) / parseAmountUnits(market.priceStep, market.quoteScale),
    );
    const quantityLots = Number(pow10(market.baseScale) / 200n / market.lotUnits);
    const order = (id: string, ownerId: string, side: "buy" | "sell") => ({
      type: "place_order" as const,
      id,
      ownerId,
      mode: "real" as const,
      marketId: "BTC-USDT",
      side,
      orderType: "limit" as const,
      timeInForce: "gtc" as const,
      priceTicks,
      quantityLots,
      quoteAmount: null,
    });
    await submit(order("results-sell", users.a!.id, "sell"));
    await submit(order("results-buy", users.b!.id, "buy"));
    await submit({
      type: "record_tick",
      id: "results-tick",
      tickId: "BTCUSDT:results",
      instrumentId: "BTCUSDT",
      price: "20000",
      tickAtMs: nowMs,
    });
    await kit.running.projector.flush();
    // The figures from postings are at most a minute old.
    const cached = (await call("GET", "/api/v1/transparency")).json().data;
    expect(cached.spotResults.accounts).toBe(0);
    nowMs += 61_000;
    const after = (await call("GET", "/api/v1/transparency")).json().data;
    expect(after.spotResults).toMatchObject({ accounts: 2, lost: 1, unpriced: 0 });
    const fees = after.systemHistory.accounts.filter(
      (row: { ownerId: string }) => row.ownerId === "system:fees",
    );
    expect(fees.length).toBeGreaterThan(0);
    for (const row of fees) expect(row.amounts.slice(0, 3)).toEqual(["0", "0", "0"]);
  });
});
