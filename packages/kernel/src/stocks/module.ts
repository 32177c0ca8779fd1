// Stocks as a kernel module: terms, sessions, house inventory, orders, holdings, take-profit
// and stop-loss from the tape. Type codes 50–59 are the stock product's (50–55 used).

import { assert } from "../assert.ts";
import { accountOf, ownerOf, systemOwner } from "../ledger/accounts.ts";
import { ownerKey } from "../ledger/state.ts";
import type { FieldKind, Json, KernelModule } from "../module.ts";
import { systemOwners, type Mode } from "../types.ts";
import {
  setArmed,
  stockConfigure,
  stockFundInventory,
  stockSession,
  stockSetTpSl,
} from "./configure.ts";
import {
  addPending,
  PENDING_ORDERS_PER_OWNER_MAX,
  stockCancelOrder,
  stockPlaceOrder,
} from "./orders.ts";
import { stocksOnDemoReset, stocksOnTick } from "./ticks.ts";
import { createStocksState, holdingKey, inventoryKey, type StocksState } from "./state.ts";
import type { StockOrderKind, StockOrderOrigin, StockSide, StockTif } from "./types.ts";

declare module "../state.ts" {
  interface KernelSlices {
    stocks: StocksState;
  }
}

const ownerMode = [
  ["ownerId", "string"],
  ["mode", "mode"],
] as const satisfies readonly (readonly [string, FieldKind])[];

const big = (value: bigint): string => value.toString();
const bigOrNull = (value: bigint | null): string | null =>
  value === null ? null : value.toString();
const toBig = (value: Json): bigint => BigInt(value as string);
const toBigOrNull = (value: Json): bigint | null =>
  value === null ? null : BigInt(value as string);

export const stocksModule = {
  name: "stocks",
  createState: createStocksState,
  commands: {
    stock_configure: {
      typeCode: 50,
      fields: [
        ["instrumentId", "string"],
        ["assetId", "string"],
        ["priceScale", "int"],
        ["lotSize", "bigint"],
        ["quantityLotsMax", "int"],
        ["spreadBps", "int"],
        ["commissionBps", "int"],
        ["commissionMin", "bigint"],
        ["stampDutyBps", "int"],
        ["stampDutyRoundUnits", "bigint"],
        ["tickAgeMaxMs", "int"],
        ["open", "bool"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    stock_session: {
      typeCode: 51,
      fields: [
        ["instrumentId", "string"],
        ["open", "bool"],
        ["sessionId", "string?"],
      ],
      result: [],
    },
    stock_place_order: {
      typeCode: 52,
      fields: [
        ...ownerMode,
        ["instrumentId", "string"],
        ["side", "side"],
        ["kind", "string"],
        ["quantity", "bigint"],
        ["limitPrice", "string?"],
        ["tif", "string"],
        ["queueForOpen", "bool"],
      ],
      result: ["orderId"],
    },
    stock_cancel_order: {
      typeCode: 53,
      fields: [...ownerMode, ["orderId", "int"]],
      result: [],
    },
    stock_fund_inventory: {
      typeCode: 54,
      fields: [
        ["mode", "mode"],
        ["instrumentId", "string"],
        ["quantity", "bigint"],
        ["operatorId", "string?"],
        ["reference", "string"],
      ],
      result: [],
    },
    stock_set_tpsl: {
      typeCode: 55,
      fields: [
        ...ownerMode,
        ["instrumentId", "string"],
        ["takeProfit", "string?"],
        ["stopLoss", "string?"],
      ],
      result: [],
    },
  },
  handlers: {
    stock_configure: stockConfigure,
    stock_session: stockSession,
    stock_place_order: stockPlaceOrder,
    stock_cancel_order: stockCancelOrder,
    stock_fund_inventory: stockFundInventory,
    stock_set_tpsl: stockSetTpSl,
  },
  onTick: stocksOnTick,
  onDemoReset: stocksOnDemoReset,
  snapshot: {
    write(state) {
      const stocks = state.stocks;
      // Never configured: no fields, so states without the product hash as before it.
      if (stocks.configs.size === 0) return { stocks: undefined };
      const sortedKeys = <T>(map: Map<string, T>) => [...map.keys()].sort();
      const configs = sortedKeys(stocks.configs).map((k): Json => {
        const c = stocks.configs.get(k)!;
        return [
          c.instrumentId,
          c.assetId,
          c.priceScale,
          big(c.lotSize),
          c.quantityLotsMax,
          c.spreadBps,
          c.commissionBps,
          big(c.commissionMin),
          c.stampDutyBps,
          big(c.stampDutyRoundUnits),
          c.tickAgeMaxMs,
          c.open,
        ];
      });
      const sessions = sortedKeys(stocks.sessions).map((k): Json => {
        const s = stocks.sessions.get(k)!;
        return [s.instrumentId, s.open, s.sessionSeq, s.sessionId];
      });
      const inventory = sortedKeys(stocks.inventory).map((k): Json => {
        const i = stocks.inventory.get(k)!;
        return [i.mode, i.instrumentId, big(i.funded), big(i.available), big(i.reserved)];
      });
      const orders = [...stocks.pending.values()]
        .sort((a, b) => a.orderId - b.orderId)
        .map((o): Json => [
          o.orderId,
          o.clientOrderId,
          o.ownerId,
          o.mode,
          o.instrumentId,
          o.assetId,
          o.side,
          o.kind,
          o.tif,
          o.origin,
          big(o.quantity),
          o.limitPrice,
          bigOrNull(o.limitUnits),
          big(o.prepaid),
          big(o.houseReserved),
          o.placedAtMs,
          o.expiresAfterSession,
        ]);
      const holdings = sortedKeys(stocks.holdings).map((k): Json => {
        const h = stocks.holdings.get(k)!;
        return [
          h.ownerId,
          h.mode,
          h.instrumentId,
          h.assetId,
          big(h.quantity),
          big(h.heldQuantity),
          big(h.costBasis),
          big(h.realisedPnl),
          h.takeProfit,
          h.stopLoss,
          bigOrNull(h.takeProfitUnits),
          bigOrNull(h.stopLossUnits),
        ];
      });
      return {
        stocks: [
          stocks.orderIdNext,
          stocks.ordersPlaced,
          stocks.ordersClosed,
          configs,
          sessions,
          inventory,
          orders,
          holdings,
        ],
      };
    },
    read(state, json) {
      const section = json.stocks as Json[] | undefined;
      if (section === undefined) return;
      const stocks = state.stocks;
      const [orderIdNext, placed, closed, configs, sessions, inventory, orders, holdings] =
        section as [number, number, number, Json[][], Json[][], Json[][], Json[][], Json[][]];
      for (const c of configs) {
        stocks.configs.set(c[0] as string, {
          instrumentId: c[0] as string,
          assetId: c[1] as string,
          priceScale: c[2] as number,
          lotSize: toBig(c[3]!),
          quantityLotsMax: c[4] as number,
          spreadBps: c[5] as number,
          commissionBps: c[6] as number,
          commissionMin: toBig(c[7]!),
          stampDutyBps: c[8] as number,
          stampDutyRoundUnits: toBig(c[9]!),
          tickAgeMaxMs: c[10] as number,
          open: c[11] as boolean,
        });
      }
      for (const s of sessions) {
        stocks.sessions.set(s[0] as string, {
          instrumentId: s[0] as string,
          open: s[1] as boolean,
          sessionSeq: s[2] as number,
          sessionId: s[3] as string | null,
        });
      }
      for (const i of inventory) {
        const mode = i[0] as Mode;
        const instrumentId = i[1] as string;
        stocks.inventory.set(inventoryKey(mode, instrumentId), {
          mode,
          instrumentId,
          funded: toBig(i[2]!),
          available: toBig(i[3]!),
          reserved: toBig(i[4]!),
        });
      }
      for (const o of orders) {
        addPending(state, {
          orderId: o[0] as number,
          clientOrderId: o[1] as string,
          ownerId: o[2] as string,
          mode: o[3] as Mode,
          instrumentId: o[4] as string,
          assetId: o[5] as string,
          side: o[6] as StockSide,
          kind: o[7] as StockOrderKind,
          tif: o[8] as StockTif,
          origin: o[9] as StockOrderOrigin,
          quantity: toBig(o[10]!),
          limitPrice: o[11] as string | null,
          limitUnits: toBigOrNull(o[12]!),
          prepaid: toBig(o[13]!),
          houseReserved: toBig(o[14]!),
          placedAtMs: o[15] as number,
          expiresAfterSession: o[16] as number | null,
          status: "pending",
          closedAtMs: null,
        });
      }
      for (const h of holdings) {
        const holding = {
          ownerId: h[0] as string,
          mode: h[1] as Mode,
          instrumentId: h[2] as string,
          assetId: h[3] as string,
          quantity: toBig(h[4]!),
          heldQuantity: toBig(h[5]!),
          costBasis: toBig(h[6]!),
          realisedPnl: toBig(h[7]!),
          takeProfit: h[8] as string | null,
          stopLoss: h[9] as string | null,
          takeProfitUnits: null,
          stopLossUnits: null,
        };
        stocks.holdings.set(
          holdingKey(holding.mode, holding.ownerId, holding.instrumentId),
          holding,
        );
        const tp = toBigOrNull(h[10]!);
        const sl = toBigOrNull(h[11]!);
        if (tp !== null || sl !== null) {
          const [tpText, slText] = [holding.takeProfit, holding.stopLoss];
          setArmed(state, holding, tp, sl);
          holding.takeProfit = tpText;
          holding.stopLoss = slText;
        }
      }
      stocks.orderIdNext = orderIdNext;
      stocks.ordersPlaced = placed;
      stocks.ordersClosed = closed;
    },
  },
  checkInvariants(state) {
    const stocks = state.stocks;
    assert(
      stocks.ordersPlaced === stocks.ordersClosed + stocks.pending.size,
      "stock orders placed ≠ closed + pending",
    );
    let indexed = 0;
    for (const index of stocks.pendingByInstrument.values()) indexed += index.size;
    assert(indexed === stocks.pending.size, "pending stock orders indexed by instrument disagree");
    const reserved = new Map<string, bigint>();
    const heldShares = new Map<string, bigint>();
    const perOwner = new Map<string, number>();
    for (const o of stocks.pending.values()) {
      assert(o.status === "pending", "a closed stock order is listed pending");
      assert(o.orderId < stocks.orderIdNext, "a stock order id is ahead of the counter");
      assert(stocks.pendingByInstrument.get(o.instrumentId)?.get(o.orderId) === o, "unindexed");
      assert(o.quantity > 0n, "a pending stock order has shares");
      const owner = ownerOf(state, o.mode, o.ownerId);
      assert(owner !== undefined, "a stock order's owner exists");
      const house = systemOwner(state, o.mode, systemOwners.house);
      if (o.side === "buy") {
        assert(o.prepaid > 0n && o.houseReserved === 0n, "a buy holds its prepaid amount");
        accountOf(state, owner, "fund", o.assetId).heldExpected += o.prepaid;
        const key = inventoryKey(o.mode, o.instrumentId);
        reserved.set(key, (reserved.get(key) ?? 0n) + o.quantity);
      } else {
        assert(o.prepaid === 0n, "a sell prepays nothing");
        accountOf(state, house, "fund", o.assetId).heldExpected += o.houseReserved;
        const key = holdingKey(o.mode, o.ownerId, o.instrumentId);
        heldShares.set(key, (heldShares.get(key) ?? 0n) + o.quantity);
      }
      const key = ownerKey(o.mode, o.ownerId);
      perOwner.set(key, (perOwner.get(key) ?? 0) + 1);
    }
    for (const [key, count] of perOwner) {
      assert(stocks.pendingPerOwner.get(key) === count, "pending stock orders per owner");
      assert(count <= PENDING_ORDERS_PER_OWNER_MAX, "too many pending stock orders");
    }
    assert(perOwner.size === stocks.pendingPerOwner.size, "stock owner counts out of step");
    // Shares are conserved: what the operator funded is with the house (free or reserved for
    // pending buys) or in the users' holdings.
    const owned = new Map<string, bigint>();
    let armedCount = 0;
    for (const [key, h] of stocks.holdings) {
      assert(h.quantity >= 0n && h.heldQuantity >= 0n, "a holding went negative");
      assert(h.heldQuantity <= h.quantity, "a holding holds more than it owns");
      assert(h.heldQuantity === (heldShares.get(key) ?? 0n), "held shares ≠ pending sells");
      assert(h.quantity > 0n || h.costBasis === 0n, "an empty holding has a cost basis");
      assert(h.costBasis >= 0n, "a cost basis went negative");
      const armed = h.takeProfitUnits !== null || h.stopLossUnits !== null;
      assert(armed === (stocks.armedByInstrument.get(h.instrumentId)?.has(key) === true), "armed");
      if (armed) armedCount++;
      const inv = inventoryKey(h.mode, h.instrumentId);
      owned.set(inv, (owned.get(inv) ?? 0n) + h.quantity);
    }
    let armedIndexed = 0;
    for (const set of stocks.armedByInstrument.values()) armedIndexed += set.size;
    assert(armedIndexed === armedCount, "armed holdings index out of step");
    for (const [key, i] of stocks.inventory) {
      assert(i.available >= 0n && i.reserved >= 0n, "house inventory went negative");
      assert(i.reserved === (reserved.get(key) ?? 0n), "reserved shares ≠ pending buys");
      assert(
        i.funded === i.available + i.reserved + (owned.get(key) ?? 0n),
        "shares not conserved",
      );
    }
    for (const key of [...reserved.keys(), ...owned.keys()]) {
      assert(stocks.inventory.has(key), "shares of a stock the house never funded");
    }
  },
} satisfies KernelModule;
