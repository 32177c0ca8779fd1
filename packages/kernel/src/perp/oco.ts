// OCO on perpetuals (one cancels the other): a take-profit and a stop of the same side and size,
// placed together and waiting together. When the mark fires one leg, the other ends first
// (reason `oco`), so at most one of them ever places an order; cancelling either leg ends both.
// Both legs are checked before either is placed: the pair is placed whole or not at all. Like a
// single conditional order, a pair holds no margin while it waits (conditional.ts). Type code 82.

import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { ok } from "../results.ts";
import type { CommandBase, Mode } from "../types.ts";
import {
  addConditional,
  conditionalTermsCode,
  type ConditionalTerms,
  type Side,
} from "./conditional.ts";
import { commandedAccount } from "./handlers.ts";

/**
 * A take-profit and a stop on one perpetual, for the same side and size: for a sell (closing a
 * long) the take-profit's trigger is above the mark and the stop's below; for a buy, the other
 * way round. A leg with a price places a GTC limit order when it fires, one without an IOC
 * market order.
 */
export interface PlacePerpOcoCommand extends CommandBase {
  type: "place_perp_oco_order";
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  quantityLots: number;
  reduceOnly: boolean;
  selfTradeMode: string;
  takeProfitTriggerTicks: number;
  takeProfitPriceTicks: number | null;
  stopTriggerTicks: number;
  stopPriceTicks: number | null;
}

declare module "../types.ts" {
  interface CommandMap {
    place_perp_oco_order: PlacePerpOcoCommand;
  }
  interface ResultMap {
    /** `orderId` is the take-profit leg's conditional id; the stop leg's view names it. */
    place_perp_oco_order: { orderId: number };
  }
}

export const perpOcoCodecs = {
  place_perp_oco_order: {
    typeCode: 82,
    fields: [
      ["ownerId", "string"],
      ["mode", "mode"],
      ["marketId", "string"],
      ["side", "side"],
      ["quantityLots", "int"],
      ["reduceOnly", "bool"],
      ["selfTradeMode", "string"],
      ["takeProfitTriggerTicks", "int"],
      ["takeProfitPriceTicks", "int?"],
      ["stopTriggerTicks", "int"],
      ["stopPriceTicks", "int?"],
    ],
    result: ["orderId"],
  },
} as const;

/** One leg's terms: both legs share the command's id as their client order id. */
function leg(
  command: PlacePerpOcoCommand,
  kind: "take_profit" | "stop",
  triggerTicks: number,
  priceTicks: number | null,
): ConditionalTerms {
  return {
    id: command.id,
    ownerId: command.ownerId,
    mode: command.mode,
    marketId: command.marketId,
    side: command.side,
    kind,
    orderType: priceTicks === null ? "market" : "limit",
    timeInForce: priceTicks === null ? "ioc" : "gtc",
    triggerTicks,
    priceTicks,
    quantityLots: command.quantityLots,
    reduceOnly: command.reduceOnly,
    selfTradeMode: command.selfTradeMode,
  };
}

export const placePerpOco: Handler<"place_perp_oco_order"> = (state, command) => {
  const account = commandedAccount(state, command);
  if (typeof account === "string") return fail(account);
  const takeProfit = leg(
    command,
    "take_profit",
    command.takeProfitTriggerTicks,
    command.takeProfitPriceTicks,
  );
  const stop = leg(command, "stop", command.stopTriggerTicks, command.stopPriceTicks);
  const code = conditionalTermsCode(account, takeProfit) ?? conditionalTermsCode(account, stop);
  if (code !== null) return fail(code);
  if (account.conditionals.size + 2 > state.options.openOrdersPerOwnerMax) {
    return fail("too_many_open_orders");
  }
  // Ids are consecutive: the take-profit leg's, then the stop leg's.
  const takeProfitId = state.perp.conditionalIdNext;
  addConditional(state, account, takeProfit, takeProfitId + 1);
  addConditional(state, account, stop, takeProfitId);
  return ok({ orderId: takeProfitId });
};
