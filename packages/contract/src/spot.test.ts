import { describe, expect, it } from "vitest";
import { PlaceSpotOrderBody } from "./spot.ts";

const base = { clientOrderId: "order-0001", instrumentId: "BTCUSDT" };

describe("PlaceSpotOrderBody", () => {
  it("accepts limit orders, market sells by quantity and market buys by amount", () => {
    for (const body of [
      { ...base, side: "buy", type: "limit", price: "30000.5", quantity: "0.01" },
      { ...base, side: "sell", type: "limit", price: "30000", quantity: "1", timeInForce: "fok" },
      { ...base, side: "sell", type: "market", quantity: "0.5" },
      { ...base, side: "buy", type: "market", quoteAmount: "100" },
      { ...base, side: "buy", type: "market", quantity: "0.1", timeInForce: "ioc" },
    ]) {
      expect(PlaceSpotOrderBody.safeParse(body).success, JSON.stringify(body)).toBe(true);
    }
  });

  it("rejects missing, contradictory, negative and malformed fields", () => {
    const bad = [
      { ...base, side: "buy", type: "limit", quantity: "1" },
      { ...base, side: "buy", type: "limit", price: "1", quantity: "1", quoteAmount: "5" },
      { ...base, side: "buy", type: "market", price: "1", quantity: "1" },
      { ...base, side: "buy", type: "market", quantity: "1", quoteAmount: "5" },
      { ...base, side: "buy", type: "market" },
      { ...base, side: "sell", type: "market", quoteAmount: "5" },
      { ...base, side: "sell", type: "market", quantity: "1", timeInForce: "gtc" },
      { ...base, side: "buy", type: "limit", price: "-1", quantity: "1" },
      { ...base, side: "buy", type: "limit", price: "1e3", quantity: "1" },
      { ...base, side: "buy", type: "limit", price: "0", quantity: "1" },
      { ...base, side: "buy", type: "limit", price: 1, quantity: "1" },
      { ...base, side: "buy", type: "limit", price: "1", quantity: "1".repeat(41) },
      { ...base, clientOrderId: "short", side: "buy", type: "limit", price: "1", quantity: "1" },
      { ...base, side: "buy", type: "limit", price: "1", quantity: "1", extra: true },
    ];
    for (const body of bad) {
      expect(PlaceSpotOrderBody.safeParse(body).success, JSON.stringify(body)).toBe(false);
    }
  });
});
