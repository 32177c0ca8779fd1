// Perpetual contracts in the kernel: commands, results and events (the wiring of the pure math
// in this folder; see docs/perpetuals.md). Type codes 30–45 are the product's (30–42 used; 42 in market-maker-funding.ts).

import type { Side, TimeInForce } from "../book/types.ts";
import type { CommandBase, Mode, NoValue } from "../types.ts";

/** Limit orders name a price; market orders take what the book offers within the band. */
export type PerpOrderType = "limit" | "market";

/** What place_perp_order returns (the same fields as spot's `OrderOutcome`). */
export interface PerpOrderOutcome {
  orderId: number;
  /**
   * `open` (rests), `filled`, `expired` (ioc / market remainder dropped), or `cancelled` (it
   * rested, then the same command cut it: a reduce-only order its own position no longer covers,
   * or a liquidation the fill caused).
   */
  orderStatus: "open" | "filled" | "expired" | "cancelled";
  filledLots: number;
  restingLots: number;
}

/** Isolated: the position has its own margin. Cross: the contract wallet backs it. */
export type PerpMarginMode = "cross" | "isolated";

/**
 * Declares a perpetual market (both modes; open from the start). `tiers` is the maintenance
 * table as `notionalFloor:rateBps:maintenanceAmount:leverageMax` rows joined by `;` (quote
 * smallest units), e.g. `0:50:0:50;1000000000000:100:5000000000:20`. The quote asset must be
 * defined; the index is the tape instrument `instrumentId`.
 */
export interface DefinePerpMarketCommand extends CommandBase {
  type: "define_perp_market";
  marketId: string;
  instrumentId: string;
  quoteAssetId: string;
  priceStep: string;
  contractSize: string;
  quantityLotsMin: number;
  quantityLotsMax: number;
  leverageMax: number;
  leverageDefault: number;
  tiers: string;
  feeBpsMaker: number;
  feeBpsTaker: number;
  fundingIntervalMs: number;
  fundingCapBps: number;
  interestBpsPerDay: number;
  priceBandBps: number;
  markBasisCapBps: number;
  liquidationFeeBps: number;
}

export interface SetPerpLeverageCommand extends CommandBase {
  type: "set_perp_leverage";
  ownerId: string;
  mode: Mode;
  marketId: string;
  leverage: number;
}

/** Locked while the owner has a position or open orders in the market. */
export interface SetPerpMarginModeCommand extends CommandBase {
  type: "set_perp_margin_mode";
  ownerId: string;
  mode: Mode;
  marketId: string;
  /** "cross" or "isolated". */
  marginMode: string;
}

/**
 * An order on the perpetual's central limit order book (price-time priority, self-trade
 * prevention as spot). Limit: `priceTicks` set, any time in force (`post_only`, `ioc`, `gtc`,
 * `fok`). Market: `priceTicks` null, `ioc`, limited to the price band around the mark.
 * Opening lots hold initial margin, the open loss against the mark and a fee reserve from the
 * contract wallet at placement. Reduce-only orders may never grow the position.
 */
export interface PlacePerpOrderCommand extends CommandBase {
  type: "place_perp_order";
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  orderType: PerpOrderType;
  timeInForce: TimeInForce;
  priceTicks: number | null;
  quantityLots: number;
  reduceOnly: boolean;
}

/** place_perp_order with a self-trade prevention mode (spot's `SelfTradeMode`). */
export interface PlacePerpOrderStpCommand extends Omit<PlacePerpOrderCommand, "type"> {
  type: "place_perp_order_stp";
  selfTradeMode: string;
}

/**
 * Lowers the remaining size of an open perpetual order in place: it keeps its time priority and
 * releases the margin the removed lots held (the kept share rounded up). A larger size is
 * refused (`quantity_too_high`): cancel and place again, which loses the queue place.
 */
export interface AmendPerpOrderSizeCommand extends CommandBase {
  type: "amend_perp_order_size";
  ownerId: string;
  mode: Mode;
  orderId: number;
  quantityLots: number;
}

/** An open perpetual order's size was lowered in place. */
export interface PerpOrderAmendedEvent {
  type: "perp_order_amended";
  orderId: number;
  remainingLots: number;
  heldAmount: bigint;
  releasedAmount: bigint;
}

export interface CancelPerpOrderCommand extends CommandBase {
  type: "cancel_perp_order";
  ownerId: string;
  mode: Mode;
  orderId: number;
}

/** Moves margin between the contract wallet and an isolated position. */
export interface PerpMarginCommand extends CommandBase {
  type: "add_perp_margin" | "remove_perp_margin";
  ownerId: string;
  mode: Mode;
  marketId: string;
  amount: bigint;
}
export interface AddPerpMarginCommand extends PerpMarginCommand {
  type: "add_perp_margin";
}
export interface RemovePerpMarginCommand extends PerpMarginCommand {
  type: "remove_perp_margin";
}

/**
 * Take-profit and stop-loss of the owner's position, fired by the mark (each a reduce-only
 * market order for the whole position). Null leaves that trigger unset.
 */
export interface SetPerpTpSlCommand extends CommandBase {
  type: "set_perp_tp_sl";
  ownerId: string;
  mode: Mode;
  marketId: string;
  takeProfitTicks: number | null;
  stopLossTicks: number | null;
}

export interface CancelPerpTpSlCommand extends CommandBase {
  type: "cancel_perp_tp_sl";
  ownerId: string;
  mode: Mode;
  marketId: string;
}

/** Closes the owner's whole position with a reduce-only market order (`position_not_found`). */
export interface ClosePerpPositionCommand extends CommandBase {
  type: "close_perp_position";
  ownerId: string;
  mode: Mode;
  marketId: string;
}

/**
 * Reverses the position in one action: one market order of twice its size the other way; the
 * margin of the new side is held (and checked) before it trades.
 */
export interface ReversePerpPositionCommand extends CommandBase {
  type: "reverse_perp_position";
  ownerId: string;
  mode: Mode;
  marketId: string;
}

/** Closes every position of the owner in `mode` (markets in id order). */
export interface CloseAllPerpCommand extends CommandBase {
  type: "close_all_perp";
  ownerId: string;
  mode: Mode;
}

/** A position as events and queries report it. */
export interface PerpPositionView {
  marketId: string;
  mode: Mode;
  ownerId: string;
  marginMode: PerpMarginMode;
  leverage: number;
  sizeLots: bigint;
  entryCost: bigint;
  /** Isolated: the position's margin; cross: the initial margin it holds. */
  margin: bigint;
  /** Owed to clearing beyond what the margin could pay (covered at close by the fund). */
  debt: bigint;
  /** Mark price (ticks) at which the position is liquidated, or null. */
  liquidationTicks: bigint | null;
  takeProfitTicks: bigint | null;
  stopLossTicks: bigint | null;
}

export interface PerpMarkEvent {
  type: "perp_mark";
  marketId: string;
  mode: Mode;
  markTicks: bigint;
  indexTicks: bigint;
  tickIds: string[];
}

export interface PerpFillEvent {
  type: "perp_fill";
  fillId: number;
  marketId: string;
  mode: Mode;
  makerOrderId: number;
  takerOrderId: number;
  makerOwnerId: string;
  takerOwnerId: string;
  takerSide: Side;
  priceTicks: number;
  quantityLots: number;
  realisedMaker: bigint;
  realisedTaker: bigint;
  feeMaker: bigint;
  /** The taker's trading fee, or its liquidation fee when `liquidation` is true. */
  feeTaker: bigint;
  liquidation: boolean;
  /** Mark tick ids at the time of the fill. */
  tickIds: string[];
}

export interface PerpPositionChangedEvent {
  type: "perp_position_changed";
  position: PerpPositionView;
}

export interface PerpLiquidationEvent {
  type: "perp_liquidation";
  marketId: string;
  mode: Mode;
  ownerId: string;
  side: Side;
  lots: bigint;
  limitTicks: bigint | null;
  markTicks: bigint;
  equity: bigint;
  maintenance: bigint;
  tickIds: string[];
}

export interface PerpTakeoverEvent {
  type: "perp_insurance_takeover";
  marketId: string;
  mode: Mode;
  ownerId: string;
  lots: bigint;
  quoteAmount: bigint;
  forced: boolean;
  tickIds: string[];
}

export interface PerpAdlEvent {
  type: "perp_auto_deleverage";
  marketId: string;
  mode: Mode;
  ownerId: string;
  counterpartyId: string;
  lots: bigint;
  quoteAmount: bigint;
  rank: number;
  tickIds: string[];
}

export interface PerpNegativeBalanceCoverEvent {
  type: "perp_negative_balance_cover";
  marketId: string;
  mode: Mode;
  ownerId: string;
  amount: bigint;
  tickIds: string[];
}

export interface PerpFundingEvent {
  type: "perp_funding_settled";
  marketId: string;
  mode: Mode;
  rateE8: bigint;
  markTicks: bigint;
  tickIds: string[];
  payments: { ownerId: string; sizeLots: bigint; amount: bigint }[];
  remainder: bigint;
}

export interface PerpTriggerFiredEvent {
  type: "perp_trigger_fired";
  marketId: string;
  mode: Mode;
  ownerId: string;
  kind: "take_profit" | "stop_loss";
  triggerTicks: bigint;
  markTicks: bigint;
  tickIds: string[];
}

export interface PerpOrderDoneEvent {
  type: "perp_order_done";
  orderId: number;
  status: "filled" | "cancelled" | "expired";
  filledLots: number;
  releasedAmount: bigint;
}

declare module "../types.ts" {
  interface CommandMap {
    define_perp_market: DefinePerpMarketCommand;
    set_perp_leverage: SetPerpLeverageCommand;
    set_perp_margin_mode: SetPerpMarginModeCommand;
    place_perp_order: PlacePerpOrderCommand;
    cancel_perp_order: CancelPerpOrderCommand;
    add_perp_margin: AddPerpMarginCommand;
    remove_perp_margin: RemovePerpMarginCommand;
    set_perp_tp_sl: SetPerpTpSlCommand;
    cancel_perp_tp_sl: CancelPerpTpSlCommand;
    close_perp_position: ClosePerpPositionCommand;
    reverse_perp_position: ReversePerpPositionCommand;
    close_all_perp: CloseAllPerpCommand;
    place_perp_order_stp: PlacePerpOrderStpCommand;
    amend_perp_order_size: AmendPerpOrderSizeCommand;
  }
  interface ResultMap {
    define_perp_market: NoValue;
    set_perp_leverage: NoValue;
    set_perp_margin_mode: NoValue;
    place_perp_order: PerpOrderOutcome;
    cancel_perp_order: { orderId: number; cancelledCount: number };
    add_perp_margin: NoValue;
    remove_perp_margin: NoValue;
    set_perp_tp_sl: NoValue;
    cancel_perp_tp_sl: NoValue;
    close_perp_position: PerpOrderOutcome;
    reverse_perp_position: PerpOrderOutcome;
    close_all_perp: NoValue;
    place_perp_order_stp: PerpOrderOutcome;
    amend_perp_order_size: PerpOrderOutcome;
  }
  interface EventMap {
    perp_mark: PerpMarkEvent;
    perp_fill: PerpFillEvent;
    perp_position_changed: PerpPositionChangedEvent;
    perp_liquidation: PerpLiquidationEvent;
    perp_insurance_takeover: PerpTakeoverEvent;
    perp_auto_deleverage: PerpAdlEvent;
    perp_negative_balance_cover: PerpNegativeBalanceCoverEvent;
    perp_funding_settled: PerpFundingEvent;
    perp_trigger_fired: PerpTriggerFiredEvent;
    perp_order_done: PerpOrderDoneEvent;
    perp_order_amended: PerpOrderAmendedEvent;
  }
}
