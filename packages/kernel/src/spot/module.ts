// Spot trading as a kernel module.

import { assert } from "../assert.ts";
import type { BookListener, SelfTradeMode, Side } from "../book/types.ts";
import type { TriggerDirection } from "../perp/trigger-index.ts";
import { accountOf } from "../ledger/accounts.ts";
import type { FieldKind, Json, KernelModule } from "../module.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import { cancelAll, cancelOrder } from "./cancel.ts";
import { orderRow } from "./order-row.ts";
import {
  amendOrderSize,
  directionOf,
  expectedConditionalHold,
  fireConditionals,
  placeConditionalOrder,
  placeOcoOrder,
  triggerScaled,
} from "./conditional.ts";
import {
  checkFeeEpochs,
  readFeeEpochs,
  setMarketFees,
  setMarketFeesCodec,
  writeFeeEpochs,
} from "./fees.ts";
import { placeOrder, placeOrderStp } from "./place.ts";
import { replaceOrder } from "./replace.ts";
import { cancelOwnerOrders, createListener, triggerId, triggersOf } from "./settle.ts";
import {
  conditionalIds,
  openOrderIds,
  unitsOf,
  type ConditionalState,
  type OrderState,
  type SpotState,
} from "./state.ts";
import type { ConditionalKind, OrderType, TimeInForce } from "./types.ts";

declare module "../state.ts" {
  interface KernelSlices {
    spot: SpotState;
  }
}

const ownerMode = [
  ["ownerId", "string"],
  ["mode", "mode"],
] as const satisfies readonly (readonly [string, FieldKind])[];

const orderOutcome = ["orderId", "orderStatus", "filledLots", "restingLots"] as const;

function big(value: bigint | null): string | null {
  return value === null ? null : value.toString();
}

const refuseFills: BookListener = {
  onFill(): void {
    throw new Error("a restored book order crossed");
  },
  onSelfTradeCancel(): void {
    throw new Error("a restored book order crossed its owner");
  },
};

function createSpotState(state: KernelState): SpotState {
  return {
    orders: new Map(),
    orderIdNext: 1,
    fillIdNext: 1,
    openByOwner: [],
    taker: null,
    listener: createListener(state),
    bookInput: {
      orderId: 0,
      ownerId: 0,
      side: "buy",
      priceTicks: 0,
      quantityLots: 0,
      timeInForce: "gtc",
    },
    bookChange: { priceTicks: 0, quantityLots: 0, timeInForce: "gtc" },
    conditionals: new Map(),
    conditionalsByOwner: [],
    triggers: new Map(),
  };
}

export const spotModule = {
  name: "spot",
  createState: createSpotState,
  commands: {
    place_order: {
      typeCode: 12,
      fields: [
        ...ownerMode,
        ["marketId", "string"],
        ["side", "side"],
        ["orderType", "order_type"],
        ["timeInForce", "tif"],
        ["priceTicks", "int?"],
        ["quantityLots", "int?"],
        ["quoteAmount", "bigint?"],
      ],
      result: orderOutcome,
    },
    cancel_order: {
      typeCode: 13,
      fields: [...ownerMode, ["orderId", "int"]],
      result: ["orderId", "cancelledCount"],
    },
    replace_order: {
      typeCode: 14,
      fields: [...ownerMode, ["orderId", "int"], ["priceTicks", "int"], ["quantityLots", "int"]],
      result: orderOutcome,
    },
    cancel_all: {
      typeCode: 15,
      fields: [...ownerMode, ["marketId", "string?"]],
      result: ["cancelledCount"],
    },
    place_order_stp: {
      typeCode: 43,
      fields: [
        ...ownerMode,
        ["marketId", "string"],
        ["side", "side"],
        ["orderType", "order_type"],
        ["timeInForce", "tif"],
        ["priceTicks", "int?"],
        ["quantityLots", "int?"],
        ["quoteAmount", "bigint?"],
        ["selfTradeMode", "string"],
      ],
      result: orderOutcome,
    },
    amend_order_size: {
      typeCode: 45,
      fields: [...ownerMode, ["orderId", "int"], ["quantityLots", "int"]],
      result: orderOutcome,
    },
    place_conditional_order: {
      typeCode: 47,
      fields: [
        ...ownerMode,
        ["marketId", "string"],
        ["side", "side"],
        ["kind", "string"],
        ["orderType", "order_type"],
        ["timeInForce", "tif"],
        ["triggerTicks", "int"],
        ["priceTicks", "int?"],
        ["quantityLots", "int?"],
        ["quoteAmount", "bigint?"],
        ["selfTradeMode", "string"],
      ],
      result: ["orderId"],
    },
    place_oco_order: {
      typeCode: 48,
      fields: [
        ...ownerMode,
        ["marketId", "string"],
        ["side", "side"],
        ["quantityLots", "int"],
        ["limitPriceTicks", "int"],
        ["triggerTicks", "int"],
        ["stopPriceTicks", "int?"],
        ["selfTradeMode", "string"],
      ],
      result: ["orderId"],
    },
    set_market_fees: setMarketFeesCodec,
  },
  handlers: {
    place_order: placeOrder,
    cancel_order: cancelOrder,
    replace_order: replaceOrder,
    cancel_all: cancelAll,
    place_order_stp: placeOrderStp,
    amend_order_size: amendOrderSize,
    place_conditional_order: placeConditionalOrder,
    place_oco_order: placeOcoOrder,
    set_market_fees: setMarketFees,
  },
  onTick(state, tick) {
    fireConditionals(state, tick);
  },
  onDemoReset(state, owner) {
    return cancelOwnerOrders(state, owner, null, "demo_reset");
  },
  snapshot: {
    write(state) {
      const spot = state.spot;
      const orders = [...spot.orders.values()].sort((a, b) => a.orderId - b.orderId).map(orderRow);
      const conditionals = [...spot.conditionals.values()]
        .sort((a, b) => a.orderId - b.orderId)
        .map((c): Json => [
          c.orderId,
          c.clientOrderId,
          c.owner.mode,
          c.owner.ownerId,
          c.market.marketId,
          c.side,
          c.kind,
          c.orderType,
          c.timeInForce,
          c.triggerTicks,
          c.priceTicks,
          c.quantityLots,
          big(c.quoteAmount),
          c.selfTradeMode,
          big(c.heldAmount),
          c.ocoOrderId,
          c.createdAtMs,
        ]);
      const books: Json[] = [];
      const markets = [...state.reference.markets.values()].sort((a, b) =>
        a.marketId < b.marketId ? -1 : a.marketId > b.marketId ? 1 : 0,
      );
      for (const market of markets) {
        for (const mode of ["real", "demo"] as const) {
          const book = mode === "real" ? market.bookReal : market.bookDemo;
          const queue: Json[] = [];
          for (const resting of book.orders()) queue.push(resting.orderId);
          books.push([market.marketId, mode, queue]);
        }
      }
      return {
        orderIdNext: spot.orderIdNext,
        fillIdNext: spot.fillIdNext,
        orders,
        books,
        spotConditionals: conditionals.length > 0 ? conditionals : undefined,
        spotFeeEpochs: writeFeeEpochs(state),
      };
    },
    read(state, json) {
      const spot = state.spot;
      spot.orderIdNext = json.orderIdNext as number;
      spot.fillIdNext = json.fillIdNext as number;
      const owners = state.ledger.owners;
      for (const r of json.orders as Json[][]) {
        const mode = r[2] as Mode;
        const owner = owners.get(mode + "|" + (r[3] as string));
        const market = state.reference.markets.get(r[4] as string);
        assert(
          owner !== undefined && market !== undefined,
          "snapshot order without owner or market",
        );
        const side = r[5] as Side;
        const baseAccount = accountOf(state, owner, "fund", market.base.assetId);
        const quoteAccount = accountOf(state, owner, "fund", market.quote.assetId);
        // Fields in place.ts's order (one object shape).
        const order: OrderState = {
          orderId: r[0] as number,
          ownerId: owner.ownerId,
          mode,
          market,
          book: mode === "real" ? market.bookReal : market.bookDemo,
          ocoConditionalId: (r[15] as number | undefined) ?? 0,
          side,
          timeInForce: r[7] as TimeInForce,
          selfTradeMode: (r[14] as SelfTradeMode | undefined) ?? "cancel_resting",
          priceTicks: r[8] as number,
          quantityLots: r[9] as number,
          filledLots: r[11] as number,
          heldUnits: unitsOf(BigInt(r[12] as string)),
          heldAmount: BigInt(r[12] as string),
          holdAccount: side === "buy" ? quoteAccount : baseAccount,
          owner,
          clientOrderId: r[1] as string,
          orderType: r[6] as OrderType,
          quoteAmount: r[10] === null ? null : BigInt(r[10] as string),
          baseAccount,
          quoteAccount,
          status: "open",
          createdAtMs: r[13] as number,
          fromConditionalId: (r[16] as number | undefined) ?? 0,
        };
        spot.orders.set(order.orderId, order);
        openOrderIds(spot, owner).add(order.orderId);
      }
      for (const [marketId, mode, queue] of json.books as [string, Mode, number[]][]) {
        const market = state.reference.markets.get(marketId)!;
        const book = mode === "real" ? market.bookReal : market.bookDemo;
        for (const orderId of queue) {
          const order = spot.orders.get(orderId);
          assert(order !== undefined && order.book === book, "snapshot book order unknown");
          const outcome = book.submit(
            {
              orderId,
              ownerId: order.owner.index,
              side: order.side,
              priceTicks: order.priceTicks,
              quantityLots: order.quantityLots - order.filledLots,
              timeInForce: "gtc",
            },
            refuseFills,
          );
          assert(outcome.outcome === "rested", "a restored order did not rest");
        }
      }
      readFeeEpochs(state, json.spotFeeEpochs);
      for (const r of (json.spotConditionals as Json[][] | undefined) ?? []) {
        const mode = r[2] as Mode;
        const owner = owners.get(mode + "|" + (r[3] as string));
        const market = state.reference.markets.get(r[4] as string);
        assert(owner !== undefined && market !== undefined, "snapshot conditional unknown");
        const side = r[5] as Side;
        const kind = r[6] as ConditionalKind;
        const order: ConditionalState = {
          orderId: r[0] as number,
          clientOrderId: r[1] as string,
          owner,
          market,
          side,
          kind,
          orderType: r[7] as OrderType,
          timeInForce: r[8] as TimeInForce,
          triggerTicks: r[9] as number,
          direction: directionOf(kind, side),
          priceTicks: r[10] as number | null,
          quantityLots: r[11] as number | null,
          quoteAmount: r[12] === null ? null : BigInt(r[12] as string),
          selfTradeMode: r[13] as SelfTradeMode,
          heldAmount: BigInt(r[14] as string),
          holdAccount: accountOf(
            state,
            owner,
            "fund",
            side === "buy" ? market.quote.assetId : market.base.assetId,
          ),
          ocoOrderId: r[15] as number,
          createdAtMs: r[16] as number,
        };
        spot.conditionals.set(order.orderId, order);
        conditionalIds(spot, owner).add(order.orderId);
        triggersOf(state, market.marketId, mode).upsert({
          id: triggerId(order.orderId),
          priceTicks: triggerScaled(market, order.triggerTicks),
          direction: order.direction,
        });
      }
    },
  },
  checkInvariants(state) {
    const spot = state.spot;
    checkFeeEpochs(state);
    for (const order of spot.orders.values()) {
      assert(order.status === "open", `order ${order.orderId} in the open set is ${order.status}`);
      assert(order.heldAmount > 0n, `open order ${order.orderId} holds nothing`);
      const remaining = order.quantityLots - order.filledLots;
      const resting = order.book.get(order.orderId);
      assert(resting !== undefined, `open order ${order.orderId} is not in its book`);
      assert(resting.remainingLots === remaining, `order ${order.orderId} lots disagree`);
      assert(resting.priceTicks === order.priceTicks, `order ${order.orderId} price disagrees`);
      assert(resting.side === order.side, `order ${order.orderId} side disagrees`);
      const expectedHold =
        order.side === "buy"
          ? BigInt(order.priceTicks) * BigInt(remaining) * order.market.tickLotUnits
          : BigInt(remaining) * order.market.lotUnits;
      assert(order.heldAmount === expectedHold, `order ${order.orderId} hold is wrong`);
      assert(
        order.heldUnits === unitsOf(order.heldAmount),
        `order ${order.orderId} hold copy is wrong`,
      );
      assert(
        openOrderIds(spot, order.owner).has(order.orderId),
        `order ${order.orderId} not listed by owner`,
      );
      order.holdAccount.heldExpected += order.heldAmount;
    }
    let listed = 0;
    for (const ids of spot.openByOwner) listed += ids?.size ?? 0;
    assert(listed === spot.orders.size, "owners list orders that are not open");
    let booked = 0;
    for (const market of state.reference.markets.values()) {
      booked += market.bookReal.orderCount + market.bookDemo.orderCount;
      for (const book of [market.bookReal, market.bookDemo]) {
        assert(book.levelCount("buy") <= market.levelsPerSideMax, "too many bid levels");
        assert(book.levelCount("sell") <= market.levelsPerSideMax, "too many ask levels");
      }
    }
    assert(booked === spot.orders.size, "books hold orders the kernel does not know");
    let indexed = 0;
    for (const index of spot.triggers.values()) indexed += index.size;
    assert(indexed === spot.conditionals.size, "trigger indexes and conditionals disagree");
    let pending = 0;
    for (const ids of spot.conditionalsByOwner) pending += ids?.size ?? 0;
    assert(pending === spot.conditionals.size, "owners list conditionals that are not pending");
    for (const c of spot.conditionals.values()) {
      const id = c.orderId;
      assert(c.orderId < spot.orderIdNext, `conditional ${id} id from the future`);
      assert(conditionalIds(spot, c.owner).has(id), `conditional ${id} not listed by owner`);
      const trigger = triggersOf(state, c.market.marketId, c.owner.mode).get(triggerId(id));
      const direction: TriggerDirection = directionOf(c.kind, c.side);
      assert(
        trigger !== undefined &&
          trigger.direction === direction &&
          c.direction === direction &&
          trigger.priceTicks === triggerScaled(c.market, c.triggerTicks),
        `conditional ${id} trigger is wrong`,
      );
      assert(c.heldAmount >= 0n, `conditional ${id} hold is negative`);
      if (c.ocoOrderId === 0) assert(c.heldAmount > 0n, `conditional ${id} holds nothing`);
      else {
        const leg = spot.orders.get(c.ocoOrderId);
        assert(
          leg !== undefined && leg.ocoConditionalId === id && leg.filledLots === 0,
          `OCO ${id} and its limit leg disagree`,
        );
        assert(leg.holdAccount === c.holdAccount, `OCO ${id} legs hold different accounts`);
      }
      assert(c.heldAmount === expectedConditionalHold(state, c), `conditional ${id} hold is wrong`);
      c.holdAccount.heldExpected += c.heldAmount;
    }
    for (const order of spot.orders.values()) {
      if (order.ocoConditionalId === 0) continue;
      const c = spot.conditionals.get(order.ocoConditionalId);
      assert(c !== undefined && c.ocoOrderId === order.orderId, "an OCO leg lost its stop leg");
    }
  },
} satisfies KernelModule;
