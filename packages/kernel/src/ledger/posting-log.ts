// The postings accounts keep for their statements (`KernelOptions.statementPostingsMax`), in
// columns instead of objects. Each account lists the slots of its latest postings; a slot is
// freed when no account lists it any more. Kept as objects, the postings were most of the
// kernel's live heap (~200 bytes each, a posting object, its BigInt amount and the list slots):
// every one survived into the old generation, and the trading path's speed rose and fell with
// the machine's memory traffic. In typed arrays they cost the garbage collector nothing, and the
// `posting` event's object dies young. The postings read back are equal to the ones posted.

import type { Posting, PostingReason } from "./types.ts";

const INITIAL_CAPACITY = 1_024;
export class PostingLog {
  private capacity = INITIAL_CAPACITY;
  private seq = new Float64Array(INITIAL_CAPACITY);
  private atMs = new Float64Array(INITIAL_CAPACITY);
  /** The amount while it is a safe integer, else NaN and the BigInt is in `largeAmounts`. */
  private amountUnits = new Float64Array(INITIAL_CAPACITY);
  /** NaN = null. */
  private orderId = new Float64Array(INITIAL_CAPACITY);
  private fillId = new Float64Array(INITIAL_CAPACITY);
  private debitHeld = new Uint8Array(INITIAL_CAPACITY);
  /** How many accounts list the slot (0 = free, 1 or 2). */
  private keptBy = new Uint8Array(INITIAL_CAPACITY);
  private debitAccount = new Array<string>(INITIAL_CAPACITY).fill("");
  private creditAccount = new Array<string>(INITIAL_CAPACITY).fill("");
  private assetId = new Array<string>(INITIAL_CAPACITY).fill("");
  private reason = new Array<PostingReason>(INITIAL_CAPACITY).fill("deposit");
  private commandId = new Array<string>(INITIAL_CAPACITY).fill("");
  private tickId = new Array<string | null>(INITIAL_CAPACITY).fill(null);
  private operatorId = new Array<string | null>(INITIAL_CAPACITY).fill(null);
  private reference = new Array<string | null>(INITIAL_CAPACITY).fill(null);
  private readonly largeAmounts = new Map<number, bigint>();
  /** Freed slots, reused last-freed first; `next` is the first slot never used. */
  private readonly free: number[] = [];
  private next = 0;

  /** How many postings are kept. */
  get size(): number {
    return this.next - this.free.length;
  }

  /** Stores a posting that no account lists yet; `keep` it next. */
  add(posting: Posting): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      if (this.next === this.capacity) this.grow();
      slot = this.next++;
    }
    this.seq[slot] = posting.seq;
    this.atMs[slot] = posting.atMs;
    const amount = posting.amount;
    if (amount <= SAFE_MAX) {
      this.amountUnits[slot] = Number(amount);
    } else {
      this.amountUnits[slot] = Number.NaN;
      this.largeAmounts.set(slot, amount);
    }
    this.orderId[slot] = posting.orderId ?? Number.NaN;
    this.fillId[slot] = posting.fillId ?? Number.NaN;
    this.debitHeld[slot] = posting.debitHeld ? 1 : 0;
    this.debitAccount[slot] = posting.debitAccount;
    this.creditAccount[slot] = posting.creditAccount;
    this.assetId[slot] = posting.assetId;
    this.reason[slot] = posting.reason;
    this.commandId[slot] = posting.commandId;
    this.tickId[slot] = posting.tickId;
    this.operatorId[slot] = posting.operatorId;
    this.reference[slot] = posting.reference;
    return slot;
  }

  /** One more account lists `slot`. */
  keep(slot: number): void {
    this.keptBy[slot]!++;
  }

  /** One account fewer lists `slot`; the last one frees it. */
  drop(slot: number): void {
    if (--this.keptBy[slot]! > 0) return;
    // Let the strings go with the posting.
    this.commandId[slot] = "";
    this.tickId[slot] = null;
    this.operatorId[slot] = null;
    this.reference[slot] = null;
    if (Number.isNaN(this.amountUnits[slot]!)) this.largeAmounts.delete(slot);
    this.free.push(slot);
  }

  seqOf(slot: number): number {
    return this.seq[slot]!;
  }

  /** The posting in `slot`, as a fresh object. */
  posting(slot: number): Posting {
    const units = this.amountUnits[slot]!;
    const orderId = this.orderId[slot]!;
    const fillId = this.fillId[slot]!;
    return {
      seq: this.seq[slot]!,
      debitAccount: this.debitAccount[slot]!,
      creditAccount: this.creditAccount[slot]!,
      assetId: this.assetId[slot]!,
      amount: Number.isNaN(units) ? this.largeAmounts.get(slot)! : BigInt(units),
      debitHeld: this.debitHeld[slot] === 1,
      reason: this.reason[slot]!,
      commandId: this.commandId[slot]!,
      atMs: this.atMs[slot]!,
      orderId: Number.isNaN(orderId) ? null : orderId,
      fillId: Number.isNaN(fillId) ? null : fillId,
      tickId: this.tickId[slot]!,
      operatorId: this.operatorId[slot]!,
      reference: this.reference[slot]!,
    };
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const floats = (from: Float64Array) => {
      const to = new Float64Array(capacity);
      to.set(from);
      return to;
    };
    const bytes = (from: Uint8Array) => {
      const to = new Uint8Array(capacity);
      to.set(from);
      return to;
    };
    const refs = <T>(from: T[], empty: T) => {
      const to = new Array<T>(capacity).fill(empty);
      for (let i = 0; i < from.length; i++) to[i] = from[i]!;
      return to;
    };
    this.seq = floats(this.seq);
    this.atMs = floats(this.atMs);
    this.amountUnits = floats(this.amountUnits);
    this.orderId = floats(this.orderId);
    this.fillId = floats(this.fillId);
    this.debitHeld = bytes(this.debitHeld);
    this.keptBy = bytes(this.keptBy);
    this.debitAccount = refs(this.debitAccount, "");
    this.creditAccount = refs(this.creditAccount, "");
    this.assetId = refs(this.assetId, "");
    this.reason = refs<PostingReason>(this.reason, "deposit");
    this.commandId = refs(this.commandId, "");
    this.tickId = refs<string | null>(this.tickId, null);
    this.operatorId = refs<string | null>(this.operatorId, null);
    this.reference = refs<string | null>(this.reference, null);
    this.capacity = capacity;
  }
}

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
