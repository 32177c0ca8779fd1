// Seconds contracts: configure, purchase, and the one settlement path. Settlement runs only
// from the tape (`onTick`: the first tick observed at or after expiry) or from the schedule
// (`runScheduled` at expiry + grace: no tick came, the stake is refunded). No command carries a
// price or a result, and nothing else calls `settle`.

import { parseAmount, SCALE_MAX } from "../amount/amount.ts";
import { assert } from "../assert.ts";
import { emit } from "../events.ts";
import { accountOf, availableOf, findOwner, ownerOf, systemOwner } from "../ledger/accounts.ts";
import { amountCode, AMOUNT_SANITY_MAX, hold, post, release } from "../ledger/post.ts";
import { ownerKey } from "../ledger/state.ts";
import type { Handler } from "../module.ts";
import { ID_PATTERN } from "../reference/markets.ts";
import type { Tick } from "../reference/types.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { scheduleEntry, type ScheduledEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import { productIdOf, type SecondsContractState } from "./state.ts";
import type { SecondsContractView, SecondsOutcome } from "./types.ts";

/** Bounds of product terms. */
export const PERIOD_MS_MIN = 5_000;
export const PERIOD_MS_MAX = 3_600_000;
export const PAYOUT_BPS_MAX = 20_000;
export const GRACE_MS_MIN = 1_000;
export const GRACE_MS_MAX = 600_000;
export const TICK_AGE_MS_MAX = 60_000;
/** Most open contracts per owner and mode. */
export const OPEN_CONTRACTS_PER_OWNER_MAX = 50;
/** The schedule entry kind: refund at expiry + grace when no tick settled the contract. */
export const REFUND_KIND = "refund_no_tick";

/** A win pays this on top of the stake: stake × payoutBps / 10,000, rounded down (disclosed). */
export function payoutOf(stake: bigint, payoutBps: number): bigint {
  return (stake * BigInt(payoutBps)) / 10_000n;
}

function reservedKey(mode: Mode, productId: string): string {
  return mode + "|" + productId;
}

export function contractView(contract: SecondsContractState): SecondsContractView {
  const { seq: _seq, ...view } = contract;
  return view;
}

export const secondsConfigure: Handler<"seconds_configure"> = (state, command) => {
  if (!ID_PATTERN.test(command.instrumentId)) return fail("instrument_id_invalid");
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const productId = productIdOf(command.instrumentId, command.periodMs);
  const existing = state.seconds.products.get(productId);
  if (
    !Number.isSafeInteger(command.periodMs) ||
    command.periodMs < PERIOD_MS_MIN ||
    command.periodMs > PERIOD_MS_MAX ||
    command.periodMs % 1_000 !== 0 ||
    !Number.isInteger(command.payoutBps) ||
    command.payoutBps < 1 ||
    command.payoutBps > PAYOUT_BPS_MAX ||
    !Number.isSafeInteger(command.graceMs) ||
    command.graceMs < GRACE_MS_MIN ||
    command.graceMs > GRACE_MS_MAX ||
    !Number.isSafeInteger(command.tickAgeMaxMs) ||
    command.tickAgeMaxMs < 1 ||
    command.tickAgeMaxMs > TICK_AGE_MS_MAX ||
    command.stakeMin <= 0n ||
    command.stakeMax < command.stakeMin ||
    command.exposureMax < 0n ||
    command.exposureMax > AMOUNT_SANITY_MAX ||
    // The asset of a product never changes: reservations are counted in it.
    (existing !== undefined && existing.assetId !== asset.assetId)
  ) {
    return fail("seconds_terms_invalid");
  }
  const code = amountCode(asset, command.stakeMax);
  if (code !== null) return fail(code);
  const product = {
    productId,
    instrumentId: command.instrumentId,
    periodMs: command.periodMs,
    assetId: asset.assetId,
    payoutBps: command.payoutBps,
    stakeMin: command.stakeMin,
    stakeMax: command.stakeMax,
    exposureMax: command.exposureMax,
    graceMs: command.graceMs,
    tickAgeMaxMs: command.tickAgeMaxMs,
    open: command.open,
  };
  state.seconds.products.set(productId, product);
  emit(state, {
    type: "seconds_configured",
    product: { ...product },
    operatorId: command.operatorId,
  });
  return DONE;
};

export const secondsPurchase: Handler<"seconds_purchase"> = (state, command) => {
  const seconds = state.seconds;
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  if (command.direction !== "up" && command.direction !== "down") {
    return fail("seconds_direction_invalid");
  }
  const product = seconds.products.get(productIdOf(command.instrumentId, command.periodMs));
  if (product === undefined) return fail("seconds_product_not_found");
  if (!product.open) return fail("seconds_product_closed");
  const asset = state.reference.assets.get(product.assetId);
  assert(asset !== undefined, "a product's asset is defined");
  const code = amountCode(asset, command.stake);
  if (code !== null) return fail(code);
  if (command.stake < product.stakeMin) return fail("seconds_stake_below_minimum");
  if (command.stake > product.stakeMax) return fail("seconds_stake_above_maximum");
  const payoutMax = payoutOf(command.stake, product.payoutBps);
  if (payoutMax <= 0n) return fail("seconds_stake_below_minimum");
  // The open price: the instrument's last tick recorded before this command.
  const tick = state.reference.ticks.get(product.instrumentId);
  if (tick === undefined) return fail("no_reference_price");
  if (command.atMs - tick.tickAtMs > product.tickAgeMaxMs) return fail("reference_price_stale");
  const openCount = seconds.openPerOwner.get(owner.key) ?? 0;
  if (openCount >= OPEN_CONTRACTS_PER_OWNER_MAX) return fail("too_many_open_contracts");
  if (seconds.open.has(command.id)) return fail("seconds_contract_exists");
  const key = reservedKey(owner.mode, product.productId);
  const reserved = seconds.reserved.get(key) ?? 0n;
  if (reserved + payoutMax > product.exposureMax) return fail("seconds_exposure_limit");
  if (availableOf(owner, "fund", asset.assetId) < command.stake) {
    return fail("insufficient_balance");
  }
  const house = systemOwner(state, owner.mode, systemOwners.house);
  if (availableOf(house, "fund", asset.assetId) < payoutMax) return fail("house_insufficient");

  const refs = { tickId: tick.tickId, reference: command.id };
  post(state, {
    debit: accountOf(state, owner, "fund", asset.assetId),
    credit: accountOf(state, house, "contract", asset.assetId),
    amount: command.stake,
    reason: "seconds_stake",
    refs,
  });
  hold(state, accountOf(state, house, "fund", asset.assetId), payoutMax);
  const expiresAtMs = command.atMs + product.periodMs;
  const contract: SecondsContractState = {
    contractId: command.id,
    ownerId: owner.ownerId,
    mode: owner.mode,
    productId: product.productId,
    instrumentId: product.instrumentId,
    periodMs: product.periodMs,
    assetId: asset.assetId,
    direction: command.direction,
    stake: command.stake,
    payoutBps: product.payoutBps,
    payoutMax,
    boughtAtMs: command.atMs,
    expiresAtMs,
    refundAtMs: expiresAtMs + product.graceMs,
    openTickId: tick.tickId,
    openPrice: tick.price,
    openTickAtMs: tick.tickAtMs,
    status: "open",
    settleTickId: null,
    settlePrice: null,
    settleTickAtMs: null,
    settledAtMs: null,
    outcome: null,
    returned: null,
    seq: seconds.seqNext++,
  };
  addOpen(state, contract);
  seconds.purchasedCount++;
  scheduleEntry(state, {
    dueMs: contract.refundAtMs,
    module: "seconds",
    kind: REFUND_KIND,
    // The seq too: a contract id may come again once the first contract is long settled.
    payload: [contract.contractId, contract.seq],
  });
  emit(state, { type: "seconds_purchased", contract: contractView(contract) });
  return DONE;
};

/** Lists an open contract in every index (purchase, and snapshot restore). */
export function addOpen(state: KernelState, contract: SecondsContractState): void {
  const seconds = state.seconds;
  seconds.open.set(contract.contractId, contract);
  let byInstrument = seconds.openByInstrument.get(contract.instrumentId);
  if (byInstrument === undefined) {
    byInstrument = new Map();
    seconds.openByInstrument.set(contract.instrumentId, byInstrument);
  }
  byInstrument.set(contract.contractId, contract);
  const owner = ownerKey(contract.mode, contract.ownerId);
  seconds.openPerOwner.set(owner, (seconds.openPerOwner.get(owner) ?? 0) + 1);
  const key = reservedKey(contract.mode, contract.productId);
  seconds.reserved.set(key, (seconds.reserved.get(key) ?? 0n) + contract.payoutMax);
}

function removeOpen(state: KernelState, contract: SecondsContractState): void {
  const seconds = state.seconds;
  seconds.open.delete(contract.contractId);
  const byInstrument = seconds.openByInstrument.get(contract.instrumentId)!;
  byInstrument.delete(contract.contractId);
  if (byInstrument.size === 0) seconds.openByInstrument.delete(contract.instrumentId);
  const owner = ownerKey(contract.mode, contract.ownerId);
  const count = (seconds.openPerOwner.get(owner) ?? 1) - 1;
  if (count > 0) seconds.openPerOwner.set(owner, count);
  else seconds.openPerOwner.delete(owner);
  const key = reservedKey(contract.mode, contract.productId);
  const reserved = (seconds.reserved.get(key) ?? 0n) - contract.payoutMax;
  assert(reserved >= 0n, "a reservation went negative");
  if (reserved > 0n) seconds.reserved.set(key, reserved);
  else seconds.reserved.delete(key);
}

/** Compares two tape prices exactly (decimal strings of up to 18 decimals). */
function comparePrices(a: string, b: string): number {
  const left = parseAmount(a, SCALE_MAX);
  const right = parseAmount(b, SCALE_MAX);
  assert(left.ok && right.ok, "tape prices parse");
  return left.value < right.value ? -1 : left.value > right.value ? 1 : 0;
}

/** The outcome a settlement tick gives; null tick: no tick within the grace period. */
export function outcomeOf(
  direction: "up" | "down",
  openPrice: string,
  settlePrice: string | null,
): SecondsOutcome {
  if (settlePrice === null) return "no_tick";
  const order = comparePrices(settlePrice, openPrice);
  if (order === 0) return "tie";
  return order > 0 === (direction === "up") ? "win" : "loss";
}

/**
 * Settles one open contract, exactly once: with its settlement tick, or (null) as a refund
 * because no tick came within the grace period. Called only from `onTick` and `runScheduled`.
 */
function settle(state: KernelState, contract: SecondsContractState, tick: Tick | null): void {
  assert(contract.status === "open", "a contract settles once");
  assert(state.seconds.open.get(contract.contractId) === contract, "settling an unknown contract");
  const owner = ownerOf(state, contract.mode, contract.ownerId);
  assert(owner !== undefined, "a contract's owner exists");
  const house = systemOwner(state, contract.mode, systemOwners.house);
  const escrow = accountOf(state, house, "contract", contract.assetId);
  const houseFund = accountOf(state, house, "fund", contract.assetId);
  const userFund = accountOf(state, owner, "fund", contract.assetId);
  const outcome = outcomeOf(contract.direction, contract.openPrice, tick?.price ?? null);
  const refs = { tickId: tick?.tickId ?? null, reference: contract.contractId };
  let returned = 0n;
  if (outcome === "loss") {
    post(state, {
      debit: escrow,
      credit: houseFund,
      amount: contract.stake,
      reason: "seconds_stake_lost",
      refs,
    });
    release(state, houseFund, contract.payoutMax);
  } else {
    post(state, {
      debit: escrow,
      credit: userFund,
      amount: contract.stake,
      reason: "seconds_stake_return",
      refs,
    });
    returned = contract.stake;
    if (outcome === "win") {
      post(state, {
        debit: houseFund,
        debitHeld: true,
        credit: userFund,
        amount: contract.payoutMax,
        reason: "seconds_payout",
        refs,
      });
      returned += contract.payoutMax;
    } else {
      release(state, houseFund, contract.payoutMax);
    }
  }
  removeOpen(state, contract);
  contract.status = "settled";
  contract.settleTickId = tick?.tickId ?? null;
  contract.settlePrice = tick?.price ?? null;
  contract.settleTickAtMs = tick?.tickAtMs ?? null;
  contract.settledAtMs = state.nowMs;
  contract.outcome = outcome;
  contract.returned = returned;
  state.seconds.settledCount++;
  emit(state, { type: "seconds_settled", contract: contractView(contract) });
}

/**
 * record_tick: the first tick of the instrument observed at or after a contract's expiry
 * settles it; one observed after expiry + grace refunds it (the tape had a gap longer than the
 * grace period). The open tick itself never settles its contract.
 */
export function settleOnTick(state: KernelState, tick: Tick): void {
  const byInstrument = state.seconds.openByInstrument.get(tick.instrumentId);
  if (byInstrument === undefined) return;
  const due: SecondsContractState[] = [];
  for (const contract of byInstrument.values()) {
    if (contract.expiresAtMs <= tick.tickAtMs && contract.openTickId !== tick.tickId) {
      due.push(contract);
    }
  }
  due.sort((a, b) => a.seq - b.seq);
  for (const contract of due)
    settle(state, contract, tick.tickAtMs <= contract.refundAtMs ? tick : null);
}

/** The schedule at expiry + grace: a contract no tick settled is refunded. */
export function runRefund(state: KernelState, entry: ScheduledEntry): void {
  assert(entry.kind === REFUND_KIND, "unknown seconds schedule entry");
  const [contractId, seq] = entry.payload as [string, number];
  const contract = state.seconds.open.get(contractId);
  // Settled by a tick already: nothing to do.
  if (contract === undefined || contract.seq !== seq) return;
  settle(state, contract, null);
}
