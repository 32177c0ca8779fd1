// The order book's public surface: the contract and both implementations.
export type * from "./types.ts";
export { priceSpanTicksMaxDefault } from "./types.ts";
export { createReferenceBook } from "./order-book.reference.ts";
export { createOrderBook } from "./order-book.ts";
