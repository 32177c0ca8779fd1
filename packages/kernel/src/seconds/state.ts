// The seconds contracts' slice of kernel state: products, open contracts and counters.
// Settled contracts leave the kernel (their `seconds_settled` event is the record the server
// projects); only the counters remember them, so "settled exactly once" can be checked.

import type { SecondsContractView, SecondsProductView } from "./types.ts";

/** A configured product; `productId` is `instrumentId:periodMs`. */
export type SecondsProductState = SecondsProductView;

/** An open contract, with its purchase order `seq` (settlement order among equals). */
export interface SecondsContractState extends SecondsContractView {
  seq: number;
}

/** The slice: `state.seconds`. */
export interface SecondsState {
  products: Map<string, SecondsProductState>;
  /** Open contracts by contract id, in purchase order. */
  open: Map<string, SecondsContractState>;
  /** Open contracts per instrument (the tape's tick hook visits only these). */
  openByInstrument: Map<string, Map<string, SecondsContractState>>;
  /** Open contracts per owner (`mode|ownerId`), to bound them. */
  openPerOwner: Map<string, number>;
  /** House reservation per product and mode (`mode|productId`): sum of open `payoutMax`. */
  reserved: Map<string, bigint>;
  /** Contracts ever bought and ever settled; bought = settled + open. */
  purchasedCount: number;
  settledCount: number;
  seqNext: number;
}

export function createSecondsState(): SecondsState {
  return {
    products: new Map(),
    open: new Map(),
    openByInstrument: new Map(),
    openPerOwner: new Map(),
    reserved: new Map(),
    purchasedCount: 0,
    settledCount: 0,
    seqNext: 1,
  };
}

/** `instrumentId:periodMs`. */
export function productIdOf(instrumentId: string, periodMs: number): string {
  return instrumentId + ":" + String(periodMs);
}
