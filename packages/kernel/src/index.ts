// The kernel's public API. See README.md for the command, event, query and reject-code lists.

export type * from "./types.ts";
export type * from "./ledger/types.ts";
export type * from "./reference/types.ts";
export type * from "./funds/types.ts";
export type * from "./spot/types.ts";
export type * from "./perp/kernel-types.ts";
export type { PerpMarketInfo, PerpOrderView, PerpPositionFigures } from "./perp/queries.ts";
export type { SetPerpMarketTermsCommand, PerpMarketTermsView } from "./perp/terms.ts";
export { getPerpMarketTerms } from "./perp/terms.ts";
export type { SetMarketFeesCommand, MarketFeesSetEvent } from "./spot/fees.ts";
export {
  getPerpDepth,
  getPerpMark,
  getPerpMarkets,
  getPerpOpenOrders,
  getPerpPositionFigures,
  getPerpPositions,
} from "./perp/queries.ts";
export type {
  PerpConditionalDoneEvent,
  PerpConditionalPlacedEvent,
  PlacePerpConditionalCommand,
  CancelPerpConditionalCommand,
} from "./perp/conditional.ts";
export { getPerpConditionalOrders } from "./perp/conditional.ts";
export type { PlacePerpOcoCommand } from "./perp/oco.ts";
export type * from "./seconds/types.ts";
export type * from "./savings/types.ts";
export type * from "./stocks/types.ts";
export type * from "./loans/types.ts";
export type * from "./referral/types.ts";
export { inviterOf as referralInviterOf, referralShares } from "./referral/state.ts";
export { rebateOf as referralRebateOf } from "./referral/rebate.ts";
export type * from "./vip/types.ts";
export type * from "./agent/types.ts";
export {
  agentLevels,
  agentLevelOf,
  nextLevel as agentNextLevel,
  AGENT_LEVEL_MAX,
  type AgentLevel,
  type AgentChange,
  type AgentTotals,
  type TeamDay,
} from "./agent/state.ts";
export {
  agentView,
  agentTeam,
  agentHistory,
  type AgentView,
  type AgentTeamMember,
} from "./agent/queries.ts";
export type * from "./activity/types.ts";
export {
  DEPOSIT_WINDOW_MS as ACTIVITY_DEPOSIT_WINDOW_MS,
  promotionBalance,
  type Activity,
  type Reservation as ActivityReservation,
} from "./activity/state.ts";
export {
  discountedFee as vipDiscountedFee,
  vipLevels,
  vipAsset,
  type VipLevel,
} from "./vip/state.ts";
export { vipBalance, vipLevelOf, vipVolume, vipWithdrawnToday } from "./vip/apply.ts";
export { systemOwners } from "./types.ts";
export type { KernelState, KernelSlices } from "./state.ts";
export { accountKey, createKernelState, defaultKernelOptions } from "./state.ts";
export { apply } from "./apply.ts";
export type { KernelModule } from "./module.ts";
export type { ScheduledEntry } from "./schedule.ts";
export { encodeCommand, decodeCommand, commandSchemas } from "./command-codec.ts";
export { snapshot, restore, stateHash } from "./snapshot.ts";
export { checkInvariants } from "./invariants.ts";
export {
  formatPriceTicks,
  formatQuantityLots,
  parsePriceTicks,
  parseQuantityLots,
  PRICE_TICKS_MAX,
} from "./market-units.ts";
export {
  getAssets,
  getBalance,
  getBalances,
  getConditionalOrder,
  getConditionalOrders,
  getDepth,
  getExchangeQuote,
  getLastTick,
  getMarket,
  getMarkets,
  getMarketsOfInstrument,
  getNowMs,
  getOpenOrders,
  getOrder,
  getStatement,
  getLiabilities,
  getSystemAccounts,
  getSystemBalances,
  getWithdrawal,
  isOpen,
} from "./queries.ts";
export type { Liabilities } from "./queries.ts";
export {
  getSecondsOpenContract,
  getSecondsOpenContracts,
  getSecondsProducts,
} from "./seconds/views.ts";
export { payoutOf as secondsPayoutOf } from "./seconds/contracts.ts";
export {
  getSavingsActiveSubscriptions,
  getSavingsPlanStatus,
  getSavingsPlans,
  getSavingsSubscription,
  getSavingsYieldAvailable,
} from "./savings/views.ts";
export { savingsOwners } from "./savings/accounts.ts";
export {
  DAY_MS as SAVINGS_DAY_MS,
  interestOfDay as savingsInterestOfDay,
  interestTotalOf as savingsInterestTotalOf,
  penaltyOf as savingsPenaltyOf,
} from "./savings/math.ts";
export {
  getStockConfigs,
  getStockHolding,
  getStockHoldings,
  getStockInventory,
  getStockPendingOrder,
  getStockPendingOrders,
  getStockSession,
} from "./stocks/views.ts";
export {
  commissionOf as stockCommissionOf,
  executablePrice as stockExecutablePrice,
  fillCost as stockFillCost,
  limitUnitsOf as stockLimitUnitsOf,
  priceUnitsOf as stockPriceUnitsOf,
  stampDutyOf as stockStampDutyOf,
} from "./stocks/pricing.ts";
export { priceText as stockPriceText } from "./stocks/orders.ts";
export { rejectCodes, type RejectCode, type Result } from "./reject-codes.ts";
export { AssertionError } from "./assert.ts";
export {
  divCeil,
  divFloor,
  formatAmount,
  mulDiv,
  parseAmount,
  pow10,
  SCALE_MAX,
  type Amount,
  type Rounding,
} from "./amount/amount.ts";
export type {
  BookLimits,
  DepthLevel,
  OrderBook,
  OrderBookFactory,
  RestingOrder,
} from "./book/types.ts";
export { selfTradeModes } from "./book/types.ts";
export {
  getLoan,
  getLoanFigures,
  getLoanPool,
  getLoanProducts,
  getLoans,
  getPendingLoans,
  type LoanFigures,
} from "./loans/views.ts";
export {
  collateralFor as loansCollateralFor,
  collateralValue as loansCollateralValue,
  dayInterest as loansDayInterest,
  earlyRepaymentFee as loansEarlyRepaymentFee,
  limitPrice18 as loansLimitPrice18,
  ltvBps as loansLtvBps,
  price18 as loansPrice18,
  DAY_MS as LOANS_DAY_MS,
  GRACE_DAYS as LOANS_GRACE_DAYS,
} from "./loans/math.ts";
