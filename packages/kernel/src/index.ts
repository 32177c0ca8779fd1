// The kernel's public API. See README.md for the command, event, query and reject-code lists.

export type * from "./types.ts";
export { systemOwners } from "./types.ts";
export type { KernelState } from "./state.ts";
export { accountKey, defaultKernelOptions } from "./state.ts";
export { apply, createKernelState, setDefaultBookFactory } from "./kernel.ts";
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
  getDepth,
  getLastTick,
  getMarkets,
  getNowMs,
  getOpenOrders,
  getOrder,
  getStatement,
  getWithdrawal,
  isOpen,
} from "./queries.ts";
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
