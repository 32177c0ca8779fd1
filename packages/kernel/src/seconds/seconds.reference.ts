// The slow, obvious model of seconds contracts, the specification the kernel module is tested
// against: a list of contracts and the whole tape, with settlement read off the tape afresh for
// every contract (the first tick observed at or after expiry, if within the grace period),
// instead of the kernel's incremental tick hook and schedule.

export interface ReferenceTick {
  tickId: string;
  price: bigint;
  tickAtMs: number;
  /** Kernel time it was recorded. */
  recordedAtMs: number;
}

export interface ReferenceContract {
  contractId: string;
  direction: "up" | "down";
  stake: bigint;
  payoutMax: bigint;
  boughtAtMs: number;
  expiresAtMs: number;
  refundAtMs: number;
  openTickId: string;
  openPrice: bigint;
}

export interface ReferenceSettlement {
  contractId: string;
  outcome: "win" | "loss" | "tie" | "no_tick";
  settleTickId: string | null;
  /** What the user gets back. */
  returned: bigint;
}

/**
 * Settles every contract whose fate the tape (and the clock, up to `nowMs`) decides. A tick
 * settles a contract when observed at/after expiry and recorded before the refund time passed
 * on the clock (`clockRunAtMs`: kernel times of clock ticks).
 */
export function referenceSettle(
  contract: ReferenceContract,
  ticks: readonly ReferenceTick[],
  clockRunAtMs: readonly number[],
): ReferenceSettlement | null {
  // The refund runs at the first clock tick at or after the refund time.
  const refundRunAt = clockRunAtMs.find((at) => at >= contract.refundAtMs) ?? Infinity;
  const tick = ticks.find(
    (t) =>
      t.tickAtMs >= contract.expiresAtMs &&
      t.tickId !== contract.openTickId &&
      t.recordedAtMs >= contract.boughtAtMs &&
      // Recorded before the clock refunded it (a tick and a clock tick never share a time here).
      t.recordedAtMs < refundRunAt,
  );
  if (tick !== undefined && tick.tickAtMs <= contract.refundAtMs) {
    const order = tick.price === contract.openPrice ? 0 : tick.price > contract.openPrice ? 1 : -1;
    if (order === 0) {
      return {
        contractId: contract.contractId,
        outcome: "tie",
        settleTickId: tick.tickId,
        returned: contract.stake,
      };
    }
    const win = order > 0 === (contract.direction === "up");
    return {
      contractId: contract.contractId,
      outcome: win ? "win" : "loss",
      settleTickId: tick.tickId,
      returned: win ? contract.stake + contract.payoutMax : 0n,
    };
  }
  if (tick !== undefined || refundRunAt !== Infinity) {
    return {
      contractId: contract.contractId,
      outcome: "no_tick",
      settleTickId: null,
      returned: contract.stake,
    };
  }
  return null;
}
