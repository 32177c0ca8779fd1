// The loans' slice of kernel state: products and every loan (loans are few and operator-reviewed,
// so closed ones stay as the record the views read).

import type { LoanView, LoansProductView } from "./types.ts";

export type LoansProductState = LoansProductView;

/** A loan with its order `seq` (schedule entries cite it: a loan id may never repeat, but the
 * seq makes stale entries harmless). */
export interface LoanState extends LoanView {
  seq: number;
}

/** The slice: `state.loans`. */
export interface LoansState {
  products: Map<string, LoansProductState>;
  /** Every loan by id, in application order. */
  loans: Map<string, LoanState>;
  /** Pending and active loans per instrument (the tick hook visits only these). */
  liveByInstrument: Map<string, Map<string, LoanState>>;
  /** Pool money reserved for pending applications, by `mode|assetId`. */
  reserved: Map<string, bigint>;
  seqNext: number;
}

export function createLoansState(): LoansState {
  return {
    products: new Map(),
    loans: new Map(),
    liveByInstrument: new Map(),
    reserved: new Map(),
    seqNext: 1,
  };
}
