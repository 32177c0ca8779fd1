// Spot trading as a kernel module.

import { assert } from "../assert.ts";
import type { BookListener, Side } from "../book/types.ts";
import { accountOf } from "../ledger/accounts.ts";
import type { FieldKind, Json, KernelModule } from "../module.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import { cancelAll, cancelOrder } from "./cancel.ts";
import { placeOrder } from "./place.ts";
import { replaceOrder } from "./replace.ts";
import { cancelOwnerOrders, createListener } from "./settle.ts";
import { openOrderIds, unitsOf, type OrderState, type SpotState } from "./state.ts";
import type { OrderType, TimeInForce } from "./types.ts";

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
  },
  handlers: {
    place_order: placeOrder,
    cancel_order: cancelOrder,
    replace_order: replaceOrder,
    cancel_all: cancelAll,
  },
  onDemoReset(state, owner) {
    return cancelOwnerOrders(state, owner, null, "demo_reset");
  },
  snapshot: {
    write(state) {
      const spot = state.spot;
      const orders = [...spot.orders.values()]
        .sort((a, b) => a.orderId - b.orderId)
        .map((o): Json => [
          o.orderId,
          o.clientOrderId,
          o.owner.mode,
          o.owner.ownerId,
          o.market.marketId,
          o.side,
          o.orderType,
          o.timeInForce,
          o.priceTicks,
          o.quantityLots,
          big(o.quoteAmount),
          o.filledLots,
          big(o.heldAmount),
          o.createdAtMs,
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
      return { orderIdNext: spot.orderIdNext, fillIdNext: spot.fillIdNext, orders, books };
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
        const order: OrderState = {
          orderId: r[0] as number,
          clientOrderId: r[1] as string,
          owner,
          ownerId: owner.ownerId,
          mode,
          market,
          book: mode === "real" ? market.bookReal : market.bookDemo,
          side,
          orderType: r[6] as OrderType,
          timeInForce: r[7] as TimeInForce,
          priceTicks: r[8] as number,
          quantityLots: r[9] as number,
          quoteAmount: r[10] === null ? null : BigInt(r[10] as string),
          filledLots: r[11] as number,
          heldAmount: BigInt(r[12] as string),
          heldUnits: unitsOf(BigInt(r[12] as string)),
          holdAccount: side === "buy" ? quoteAccount : baseAccount,
          baseAccount,
          quoteAccount,
          status: "open",
          createdAtMs: r[13] as number,
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
    },
  },
  checkInvariants(state) {
    const spot = state.spot;
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
  },
} satisfies KernelModule;
