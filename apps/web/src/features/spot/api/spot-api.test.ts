import * as contract from "@candor/contract";
import { describe, expect, it } from "vitest";
import {
  spotPaths,
  type SpotBalanceView,
  type SpotFillView,
  type SpotMarketView,
  type SpotOrderView,
  type StatementLineView,
} from "./spot-api.ts";

/** The web restates the spot paths so its chunk carries no zod; they must match the contract. */
describe("spot API paths", () => {
  it("agree with packages/contract/src/spot.ts", () => {
    const strip = (path: string) => path.replace(/^\/api\/v1/, "");
    expect(spotPaths).toEqual({
      markets: strip(contract.spotMarkets.path),
      placeOrder: strip(contract.placeSpotOrder.path),
      cancelOrder: strip(contract.cancelSpotOrder.path),
      cancelAll: strip(contract.cancelAllSpotOrders.path),
      openOrders: strip(contract.openSpotOrders.path),
      history: strip(contract.spotOrderHistory.path),
      orderDetail: strip(contract.spotOrderDetail.path),
      balances: strip(contract.spotBalances.path),
      statement: strip(contract.spotStatement.path),
      demoFunds: strip(contract.grantDemoFunds.path),
    });
  });
});

// The contract's views must fit the web's restated types (a compile-time check under tsc).
export type ContractFitsWeb = [
  contract.SpotMarketView extends SpotMarketView ? true : never,
  contract.SpotOrderView extends SpotOrderView ? true : never,
  contract.SpotFillView extends SpotFillView ? true : never,
  contract.SpotBalanceView extends SpotBalanceView ? true : never,
  contract.StatementLineView extends StatementLineView ? true : never,
];
export const contractFitsWeb: ContractFitsWeb = [true, true, true, true, true];
