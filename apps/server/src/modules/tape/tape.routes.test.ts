import { expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { clearReadModels, ReadModelProjector } from "../../read-models/projector.ts";
import { describeEachDatabase } from "../../testing/databases.ts";

const fill = (fillId: number, makerOwnerId: string) => ({
  type: "fill",
  fillId,
  marketId: "BTC-USDT",
  mode: "real",
  makerOrderId: 1,
  takerOrderId: 2,
  makerOwnerId,
  takerOwnerId: "100001",
  takerSide: "buy",
  priceTicks: 100,
  quantityLots: 3,
  baseAmount: 3n,
  quoteAmount: 300n,
  feeMaker: 0n,
  feeMakerAssetId: "USDT",
  feeTaker: 0n,
  feeTakerAssetId: "BTC",
  tickId: "t1",
  atMs: 1_000,
});

describeEachDatabase("GET /api/v1/tape", (database) => {
  it("returns ticks and anonymised fills by sequence range, up to the projected sequence", async () => {
    await clearReadModels(database());
    const projector = new ReadModelProjector(database());
    await projector.load();
    projector.handle({
      sequence: 1n,
      events: [
        {
          type: "tick_recorded",
          tick: {
            tickId: "t1",
            instrumentId: "BTC-USDT",
            price: "95012.5",
            tickAtMs: 5,
            recordedAtMs: 6,
          },
        } as never,
      ],
    });
    projector.handle({ sequence: 2n, events: [fill(1, "system:market_maker") as never] });
    projector.handle({ sequence: 3n, events: [fill(2, "100002") as never] });
    await projector.flush();
    const app = await buildApp({ database: database() });
    const all = await app.inject({ method: "GET", url: "/api/v1/tape?from=1" });
    expect(all.statusCode).toBe(200);
    const data = all.json().data;
    expect(data).toMatchObject({ from: "1", to: "3", completeTo: "3" });
    expect(data.ticks).toEqual([
      { sequence: "1", instrumentId: "BTC-USDT", tickId: "t1", price: "95012.5", tickAtMs: 5 },
    ]);
    expect(data.fills.map((f: { maker: string; taker: string }) => [f.maker, f.taker])).toEqual([
      ["system:market_maker", "user"],
      ["user", "user"],
    ]);
    expect(JSON.stringify(data)).not.toContain("100001");

    const part = await app.inject({ method: "GET", url: "/api/v1/tape?from=2&to=2" });
    expect(part.json().data.fills).toHaveLength(1);
    expect(part.json().data.ticks).toHaveLength(0);
    const later = await app.inject({ method: "GET", url: "/api/v1/tape?from=50" });
    expect(later.json().data).toMatchObject({ from: "50", to: "49", ticks: [], fills: [] });
    await app.close();
  });

  it("rejects malformed, negative, fractional, oversized and reversed ranges in the caller's language", async () => {
    const app = await buildApp({ database: database() });
    for (const url of [
      "/api/v1/tape",
      "/api/v1/tape?from=abc",
      "/api/v1/tape?from=-1",
      "/api/v1/tape?from=1.5",
      "/api/v1/tape?from=0",
      "/api/v1/tape?from=1&to=10001",
      "/api/v1/tape?from=5&to=4",
      "/api/v1/tape?from=99999999999999999999",
      "/api/v1/tape?from=1&mode=paper",
      "/api/v1/tape?from=1&extra=1",
    ]) {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error, url).toBe("validation_failed");
    }
    const german = await app.inject({ method: "GET", url: "/api/v1/tape?from=5&to=4&lang=de" });
    expect(JSON.stringify(german.json())).toContain("Bereich");
    await app.close();
  });
});

describeEachDatabase("GET /api/v1/tape/tick", (database) => {
  it("returns a tick with its instrument's neighbours in journal order, and refuses bad queries", async () => {
    await clearReadModels(database());
    const projector = new ReadModelProjector(database());
    await projector.load();
    const tick = (sequence: number, instrumentId: string, n: number) =>
      projector.handle({
        sequence: BigInt(sequence),
        events: [
          {
            type: "tick_recorded",
            tick: {
              tickId: `${instrumentId}:${n}`,
              instrumentId,
              price: `${100 + n}`,
              tickAtMs: n,
              recordedAtMs: n,
            },
          } as never,
        ],
      });
    let sequence = 0;
    for (let n = 1; n <= 8; n++) {
      tick(++sequence, "BTCUSDT", n);
      tick(++sequence, "ETHUSDT", n);
    }
    await projector.flush();
    const app = await buildApp({ database: database() });
    const get = (query: string) => app.inject({ method: "GET", url: `/api/v1/tape/tick?${query}` });

    const answer = await get("instrumentId=BTCUSDT&tickId=BTCUSDT:4&around=2");
    expect(answer.statusCode, answer.body).toBe(200);
    const data = answer.json().data;
    expect(data.tick).toMatchObject({ tickId: "BTCUSDT:4", price: "104", sequence: "7" });
    expect(data.before.map((t: { tickId: string }) => t.tickId)).toEqual([
      "BTCUSDT:2",
      "BTCUSDT:3",
    ]);
    expect(data.after.map((t: { tickId: string }) => t.tickId)).toEqual(["BTCUSDT:5", "BTCUSDT:6"]);
    const edge = (await get("instrumentId=ETHUSDT&tickId=ETHUSDT:8&around=50")).json().data;
    expect(edge.after).toEqual([]);
    expect(edge.before).toHaveLength(7);

    const missing = await get("instrumentId=BTCUSDT&tickId=BTCUSDT:99");
    expect(missing.statusCode).toBe(404);
    for (const bad of [
      "instrumentId=BTCUSDT",
      "tickId=x",
      "instrumentId=BTC%20USDT&tickId=x",
      `instrumentId=BTCUSDT&tickId=${"x".repeat(101)}`,
      "instrumentId=BTCUSDT&tickId=x&around=-1",
      "instrumentId=BTCUSDT&tickId=x&around=51",
      "instrumentId=BTCUSDT&tickId=x&around=1.5",
      "instrumentId=BTCUSDT&tickId=x&extra=1",
    ]) {
      expect((await get(bad)).statusCode, bad).toBe(400);
    }
    await app.close();
  });
});
