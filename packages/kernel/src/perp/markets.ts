// Perpetual markets from their definitions: parameters, tiers and the two sides (real, demo).

import { accountOf, openOwner } from "../ledger/accounts.ts";
import type { FieldKind } from "../module.ts";
import { type RejectCode } from "../reject-codes.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import type { DefinePerpMarketCommand } from "./kernel-types.ts";
import {
  CLEARING_OWNER,
  FUNDING_REMAINDER_OWNER,
  type PerpMarketState,
  type PerpSide,
} from "./kernel-state.ts";
import { definePerpMarket, type MaintenanceTier } from "./params.ts";
import { createTriggerIndex } from "./trigger-index.ts";

export const ownerMode = [
  ["ownerId", "string"],
  ["mode", "mode"],
] as const satisfies readonly (readonly [string, FieldKind])[];
export const ownerMarket = [...ownerMode, ["marketId", "string"]] as const;

/** `define_perp_market`'s fields in codec order: also the order a market's definition keeps. */
export const definitionFields = [
  ["marketId", "string"],
  ["instrumentId", "string"],
  ["quoteAssetId", "string"],
  ["priceStep", "string"],
  ["contractSize", "string"],
  ["quantityLotsMin", "int"],
  ["quantityLotsMax", "int"],
  ["leverageMax", "int"],
  ["leverageDefault", "int"],
  ["tiers", "string"],
  ["feeBpsMaker", "int"],
  ["feeBpsTaker", "int"],
  ["fundingIntervalMs", "int"],
  ["fundingCapBps", "int"],
  ["interestBpsPerDay", "int"],
  ["priceBandBps", "int"],
  ["markBasisCapBps", "int"],
  ["liquidationFeeBps", "int"],
] as const satisfies readonly (readonly [string, FieldKind])[];

export const PRICE_MAX = 1_000_000_000_000;

export function parseTiers(text: string): MaintenanceTier[] | null {
  const tiers: MaintenanceTier[] = [];
  for (const row of text.split(";")) {
    const parts = row.split(":");
    if (parts.length !== 4 || parts.some((p) => !/^\d{1,30}$/.test(p))) return null;
    tiers.push({
      notionalFloor: BigInt(parts[0]!),
      maintenanceMarginRateBps: Number(parts[1]),
      maintenanceAmount: BigInt(parts[2]!),
      leverageMax: Number(parts[3]),
    });
  }
  return tiers;
}

export function systemAccount(state: KernelState, mode: Mode, ownerId: string, assetId: string) {
  const owner = state.ledger.owners.get(mode + "|" + ownerId) ?? openOwner(state, ownerId, mode);
  return accountOf(state, owner, "contract", assetId);
}

export function createSide(
  state: KernelState,
  market: PerpMarketState,
  mode: Mode,
  nowMs: number,
): PerpSide {
  const assetId = market.params.quoteAssetId;
  const clearing = systemAccount(state, mode, CLEARING_OWNER, assetId);
  clearing.negativeAllowed = true;
  const fund = systemAccount(state, mode, systemOwners.insuranceFund, assetId);
  fund.negativeAllowed = true;
  return {
    market,
    mode,
    book: state.bookFactory({
      levelsPerSideMax: state.options.levelsPerSideMax,
      ordersMax: state.options.ordersPerBookMax,
    }),
    mark: null,
    triggers: createTriggerIndex(),
    accounts: new Map(),
    multiCross: new Set(),
    premiumSamples: [],
    fundingStartMs: nowMs,
    clearing,
    fund,
    fees: systemAccount(state, mode, systemOwners.fees, assetId),
    remainder: systemAccount(state, mode, FUNDING_REMAINDER_OWNER, assetId),
  };
}

/** Builds a market from its definition (command or snapshot); a code when it is refused. */
export function buildMarket(
  state: KernelState,
  c: Omit<DefinePerpMarketCommand, "type" | "id" | "atMs">,
  nowMs: number,
): PerpMarketState | RejectCode {
  const asset = state.reference.assets.get(c.quoteAssetId);
  if (asset === undefined) return "asset_not_found";
  const tiers = parseTiers(c.tiers);
  if (tiers === null) return "perp_tiers_invalid";
  const defined = definePerpMarket({ ...c, quoteScale: asset.scale, tiers });
  if (!defined.ok) return defined.codes[0]!;
  // In codec order, not the caller's key order: the snapshot writes it as it is, so a market
  // defined live and the same market replayed from the journal must hash the same.
  const definition: Record<string, string | number> = {};
  for (const [name] of definitionFields) definition[name] = c[name];
  const market = { params: defined.value, definition } as PerpMarketState;
  market.real = createSide(state, market, "real", nowMs);
  market.demo = createSide(state, market, "demo", nowMs);
  return market;
}

// ---- Handlers -------------------------------------------------------------------------------
