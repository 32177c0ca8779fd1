// Perpetual contracts as a kernel module (issue 19, kernel wiring). See docs/perpetuals.md §12
// for the decisions and engine.ts for the money paths.

import { assert } from "../assert.ts";
import type { SelfTradeMode } from "../book/types.ts";
import type { Json, KernelModule } from "../module.ts";
import { scheduleEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import { type Mode } from "../types.ts";
import {
  crossSiblingsOfWallet,
  outflowCode,
  perpAccountOf,
  reindex,
  settleTouched,
} from "./engine.ts";
import { cancelPerpOrder, createPerpListener } from "./fills.ts";
import { closeAtMark } from "./liquidation-engine.ts";
import { nextFundingAtMs } from "./funding.ts";
import "./kernel-types.ts";
import type { DefinePerpMarketCommand } from "./kernel-types.ts";
import {
  createPerpState,
  sideOf,
  type PerpAccount,
  type PerpOrder,
  type PerpSide,
} from "./kernel-state.ts";
import { indexTicksFromPrice } from "./mark-price.ts";
import { checkPerpInvariants } from "./invariants.ts";
import { splitKey, writeSide } from "./snapshot-section.ts";
import { onSideTick, settleFunding } from "./ticks.ts";
import { handlers } from "./handlers.ts";
import {
  cancelConditionalsOf,
  cancelPerpConditional,
  perpConditionalCodecs,
  placePerpConditional,
} from "./conditional.ts";
import {
  checkConditionalInvariants,
  readConditionals,
  writeConditionals,
} from "./conditional-snapshot.ts";
import { perpOcoCodecs, placePerpOco } from "./oco.ts";
import { fundPerpMarketMaker, fundPerpMarketMakerCodec } from "./market-maker-funding.ts";
import {
  checkTerms,
  readTerms,
  setPerpMarketTerms,
  setPerpMarketTermsCodec,
  writeTerms,
} from "./terms.ts";
import { buildMarket, definitionFields, ownerMarket, ownerMode, PRICE_MAX } from "./markets.ts";

// ---- Ticks, triggers and funding ---------------------------------------------------------------

export const perpModule = {
  name: "perp",
  createState(state: KernelState) {
    return {
      ...createPerpState(),
      touched: new Set<PerpAccount>(),
      byOwner: new Map<string, PerpAccount[]>(),
      listener: createPerpListener(state),
    };
  },
  commands: {
    define_perp_market: {
      typeCode: 30,
      fields: definitionFields,
      result: [],
    },
    set_perp_leverage: { typeCode: 31, fields: [...ownerMarket, ["leverage", "int"]], result: [] },
    set_perp_margin_mode: {
      typeCode: 32,
      fields: [...ownerMarket, ["marginMode", "string"]],
      result: [],
    },
    place_perp_order: {
      typeCode: 33,
      fields: [
        ...ownerMarket,
        ["side", "side"],
        ["orderType", "order_type"],
        ["timeInForce", "tif"],
        ["priceTicks", "int?"],
        ["quantityLots", "int"],
        ["reduceOnly", "bool"],
      ],
      result: ["orderId", "orderStatus", "filledLots", "restingLots"],
    },
    cancel_perp_order: {
      typeCode: 34,
      fields: [...ownerMode, ["orderId", "int"]],
      result: ["orderId", "cancelledCount"],
    },
    add_perp_margin: { typeCode: 35, fields: [...ownerMarket, ["amount", "bigint"]], result: [] },
    remove_perp_margin: {
      typeCode: 36,
      fields: [...ownerMarket, ["amount", "bigint"]],
      result: [],
    },
    set_perp_tp_sl: {
      typeCode: 37,
      fields: [...ownerMarket, ["takeProfitTicks", "int?"], ["stopLossTicks", "int?"]],
      result: [],
    },
    cancel_perp_tp_sl: { typeCode: 38, fields: [...ownerMarket], result: [] },
    close_perp_position: {
      typeCode: 39,
      fields: [...ownerMarket],
      result: ["orderId", "orderStatus", "filledLots", "restingLots"],
    },
    reverse_perp_position: {
      typeCode: 40,
      fields: [...ownerMarket],
      result: ["orderId", "orderStatus", "filledLots", "restingLots"],
    },
    close_all_perp: { typeCode: 41, fields: [...ownerMode], result: [] },
    place_perp_order_stp: {
      typeCode: 44,
      fields: [
        ...ownerMarket,
        ["side", "side"],
        ["orderType", "order_type"],
        ["timeInForce", "tif"],
        ["priceTicks", "int?"],
        ["quantityLots", "int"],
        ["reduceOnly", "bool"],
        ["selfTradeMode", "string"],
      ],
      result: ["orderId", "orderStatus", "filledLots", "restingLots"],
    },
    amend_perp_order_size: {
      typeCode: 46,
      fields: [...ownerMode, ["orderId", "int"], ["quantityLots", "int"]],
      result: ["orderId", "orderStatus", "filledLots", "restingLots"],
    },
    fund_perp_market_maker: fundPerpMarketMakerCodec,
    ...perpConditionalCodecs,
    ...perpOcoCodecs,
    set_perp_market_terms: setPerpMarketTermsCodec,
  },
  handlers: {
    ...handlers,
    fund_perp_market_maker: fundPerpMarketMaker,
    place_perp_conditional_order: placePerpConditional,
    cancel_perp_conditional_order: cancelPerpConditional,
    place_perp_oco_order: placePerpOco,
    set_perp_market_terms: setPerpMarketTerms,
  },
  onTick(state, tick) {
    for (const market of state.perp.markets.values()) {
      if (market.params.instrumentId !== tick.instrumentId) continue;
      const indexTicks = indexTicksFromPrice(tick.price, market.params.priceStepScaled);
      if (indexTicks === null || indexTicks > BigInt(PRICE_MAX)) continue;
      onSideTick(state, market.real, tick.tickId, indexTicks);
      onSideTick(state, market.demo, tick.tickId, indexTicks);
    }
  },
  runScheduled(state, entry) {
    assert(entry.kind === "funding", "unknown perp schedule entry");
    const market = state.perp.markets.get(entry.payload as string)!;
    settleFunding(state, market.real);
    settleFunding(state, market.demo);
    scheduleEntry(state, {
      dueMs: nextFundingAtMs(market.params, state.nowMs),
      module: "perp",
      kind: "funding",
      payload: market.params.marketId,
    });
  },
  outflowCode(state, wallet, amount) {
    return outflowCode(state, wallet, amount);
  },
  afterOutflow(state, wallet) {
    for (const account of crossSiblingsOfWallet(state, wallet)) state.perp.touched.add(account);
    settleTouched(state);
  },
  onDemoReset(state, owner) {
    // Orders are cancelled and positions taken over by the demo insurance fund at the mark.
    let count = 0;
    const accounts = [...(state.perp.byOwner.get(owner.key) ?? [])].sort((a, b) =>
      a.key < b.key ? -1 : 1,
    );
    for (const account of accounts) {
      count += cancelConditionalsOf(state, account);
      for (const id of [...account.orders].sort((a, b) => a - b)) {
        cancelPerpOrder(state, state.perp.orders.get(id)!);
        count++;
      }
    }
    for (const account of accounts) {
      closeAtMark(state, account);
      account.takeProfitTicks = null;
      account.stopLossTicks = null;
    }
    settleTouched(state);
    return count;
  },
  snapshot: {
    write(state) {
      const perp = state.perp;
      if (perp.markets.size === 0) return { perp: undefined };
      const markets = [...perp.markets.values()]
        .sort((a, b) => (a.params.marketId < b.params.marketId ? -1 : 1))
        .map((m): Json => ({
          definition: m.definition,
          real: writeSide(m.real),
          demo: writeSide(m.demo),
          ...(m.termsChanged === true ? { terms: writeTerms(m)! } : {}),
        }));
      const orders = [...perp.orders.values()]
        .sort((a, b) => a.orderId - b.orderId)
        .map((o): Json => [
          o.orderId,
          o.clientOrderId,
          o.account.key,
          o.side,
          o.orderType,
          o.timeInForce,
          o.priceTicks,
          o.quantityLots,
          o.filledLots,
          o.reduceOnly,
          o.heldAmount.toString(),
          o.createdAtMs,
          ...(o.selfTradeMode !== undefined ? [o.selfTradeMode] : []),
        ]);
      const conditionals = writeConditionals(state);
      return {
        perp: {
          orderIdNext: perp.orderIdNext,
          fillIdNext: perp.fillIdNext,
          markets,
          orders,
          ...(conditionals === undefined ? {} : { conditionals }),
        },
      };
    },
    read(state, json) {
      const data = json.perp as
        | {
            orderIdNext: number;
            fillIdNext: number;
            markets: Json[];
            orders: Json[][];
            conditionals?: Json;
          }
        | undefined;
      if (data === undefined) return;
      const perp = state.perp;
      perp.orderIdNext = data.orderIdNext;
      perp.fillIdNext = data.fillIdNext;
      const queues: [PerpSide, number[]][] = [];
      for (const raw of data.markets) {
        const m = raw as {
          definition: Record<string, string | number>;
          real: Json;
          demo: Json;
          terms?: Json;
        };
        const market = buildMarket(
          state,
          m.definition as unknown as Omit<DefinePerpMarketCommand, "type" | "id" | "atMs">,
          0,
        );
        assert(typeof market !== "string", "snapshot perp market refused");
        readTerms(market, m.terms);
        perp.markets.set(market.params.marketId, market);
        for (const mode of ["real", "demo"] as const) {
          const side = sideOf(market, mode);
          const s = m[mode] as {
            mark: [string, string, string[]] | null;
            samples: [number, string, string][];
            fundingStartMs: number;
            accounts: Json[][];
            book: number[];
          };
          side.mark =
            s.mark === null
              ? null
              : {
                  priceTicks: BigInt(s.mark[0]),
                  indexTicks: BigInt(s.mark[1]),
                  basisTicks: BigInt(s.mark[0]) - BigInt(s.mark[1]),
                  tickIds: [...s.mark[2]],
                };
          side.premiumSamples = s.samples.map(([atMs, tickId, p]) => ({
            atMs,
            tickId,
            premiumE8: BigInt(p),
          }));
          side.fundingStartMs = s.fundingStartMs;
          for (const r of s.accounts) {
            const owner = state.ledger.owners.get(mode + "|" + (r[0] as string))!;
            const account = perpAccountOf(state, side, owner);
            account.leverage = r[1] as number;
            account.marginMode = r[2] as "cross" | "isolated";
            account.position = {
              sizeLots: BigInt(r[3] as string),
              entryCost: BigInt(r[4] as string),
            };
            account.margin = BigInt(r[5] as string);
            account.debt = BigInt(r[6] as string);
            account.takeProfitTicks = r[7] === null ? null : BigInt(r[7] as string);
            account.stopLossTicks = r[8] === null ? null : BigInt(r[8] as string);
          }
          queues.push([side, s.book]);
        }
      }
      for (const r of data.orders) {
        const key = r[2] as string;
        const [mode, , marketId] = splitKey(key);
        const side = sideOf(perp.markets.get(marketId)!, mode as Mode);
        const account = side.accounts.get(key)!;
        const order: PerpOrder = {
          orderId: r[0] as number,
          clientOrderId: r[1] as string,
          account,
          side: r[3] as "buy" | "sell",
          orderType: r[4] as "limit" | "market",
          timeInForce: r[5] as PerpOrder["timeInForce"],
          priceTicks: r[6] as number,
          quantityLots: r[7] as number,
          filledLots: r[8] as number,
          reduceOnly: r[9] as boolean,
          heldAmount: BigInt(r[10] as string),
          createdAtMs: r[11] as number,
        };
        if (r[12] !== undefined) order.selfTradeMode = r[12] as SelfTradeMode;
        perp.orders.set(order.orderId, order);
        account.orders.add(order.orderId);
      }
      for (const [side, queue] of queues) {
        for (const orderId of queue) {
          const order = perp.orders.get(orderId)!;
          const outcome = side.book.submit(
            {
              orderId,
              ownerId: order.account.owner.index,
              side: order.side,
              priceTicks: order.priceTicks,
              quantityLots: order.quantityLots - order.filledLots,
              timeInForce: "gtc",
            },
            {
              onFill() {
                throw new Error("a restored perp order crossed");
              },
              onSelfTradeCancel() {
                throw new Error("a restored perp order crossed its owner");
              },
            },
          );
          assert(outcome.outcome === "rested", "a restored perp order did not rest");
        }
        for (const account of side.accounts.values()) reindex(state, account);
      }
      readConditionals(state, data.conditionals);
    },
  },
  checkInvariants(state) {
    checkPerpInvariants(state);
    checkConditionalInvariants(state, assert);
    checkTerms(state);
  },
} satisfies KernelModule;
