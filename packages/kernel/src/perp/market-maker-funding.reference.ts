// The slow, obvious model of the operator's market-maker perp funding (type code 42) and the
// money around it: the specification `market-maker-funding.property.test.ts` checks the kernel
// against. Plain maps of the labelled market maker's REAL balances per wallet and asset, one rule
// per line, in the order the kernel applies them. Nothing here reads kernel code.

export interface MmReferenceAsset {
  /** The largest amount one command may move; null means the kernel's sanity maximum. */
  amountMax: bigint | null;
}

export interface MmReference {
  assets: Map<string, MmReferenceAsset>;
  /** Assets some perpetual market is quoted in. */
  perpQuotes: Set<string>;
  /** The market maker's real fund wallet, per asset (only operator deposits fill it here). */
  fund: Map<string, bigint>;
  /** The market maker's real contract wallet, per asset: available + held (no fills here). */
  contract: Map<string, bigint>;
  /** Money that entered from outside (operator deposits), per asset. */
  deposited: Map<string, bigint>;
}

export type MmReferenceCommand =
  | { type: "define_asset"; assetId: string; amountMax: bigint | null }
  | { type: "define_perp_quote"; assetId: string }
  /** credit_deposit to the market maker (an operator-funded deposit into its fund wallet). */
  | { type: "deposit"; assetId: string; amount: bigint; reference: string }
  /** fund_perp_market_maker. */
  | { type: "fund"; assetId: string; amount: bigint; reference: string; reason: string }
  /** The market maker's own transfer_wallet in real mode: always refused. */
  | { type: "transfer"; assetId: string; amount: bigint };

export type MmReferenceResult = { ok: true; state: MmReference } | { ok: false; code: string };

/** The kernel's sanity maximum for assets without their own. */
const SANITY_MAX = 10n ** 36n;

export function createMmReference(): MmReference {
  return {
    assets: new Map(),
    perpQuotes: new Set(),
    fund: new Map(),
    contract: new Map(),
    deposited: new Map(),
  };
}

function copy(s: MmReference): MmReference {
  return {
    assets: new Map(s.assets),
    perpQuotes: new Set(s.perpQuotes),
    fund: new Map(s.fund),
    contract: new Map(s.contract),
    deposited: new Map(s.deposited),
  };
}

function amountRefusal(asset: MmReferenceAsset, amount: bigint): string | null {
  if (amount < 1n) return "amount_must_be_positive";
  if (amount > (asset.amountMax ?? SANITY_MAX)) return "amount_above_maximum";
  return null;
}

const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);

export function applyMmReference(state: MmReference, c: MmReferenceCommand): MmReferenceResult {
  const next = copy(state);
  switch (c.type) {
    case "define_asset":
      next.assets.set(c.assetId, { amountMax: c.amountMax });
      return { ok: true, state: next };
    case "define_perp_quote":
      next.perpQuotes.add(c.assetId);
      return { ok: true, state: next };
    case "deposit": {
      const asset = state.assets.get(c.assetId);
      if (asset === undefined) return { ok: false, code: "asset_not_found" };
      const refused = amountRefusal(asset, c.amount);
      if (refused !== null) return { ok: false, code: refused };
      if (c.reference === "") return { ok: false, code: "reference_missing" };
      add(next.fund, c.assetId, c.amount);
      add(next.deposited, c.assetId, c.amount);
      return { ok: true, state: next };
    }
    case "fund": {
      // 1. Only a known asset that some perpetual is quoted in.
      const asset = state.assets.get(c.assetId);
      if (asset === undefined || !state.perpQuotes.has(c.assetId)) {
        return { ok: false, code: "asset_not_found" };
      }
      // 2. A positive amount within the asset's maximum.
      const refused = amountRefusal(asset, c.amount);
      if (refused !== null) return { ok: false, code: refused };
      // 3. A reference and a reason, not just blanks.
      if (c.reference.trim() === "" || c.reason.trim() === "") {
        return { ok: false, code: "reference_missing" };
      }
      // 4. No more than the fund wallet holds.
      if ((state.fund.get(c.assetId) ?? 0n) < c.amount) {
        return { ok: false, code: "insufficient_balance" };
      }
      // One move between the market maker's own wallets: nothing created, nothing lost.
      add(next.fund, c.assetId, -c.amount);
      add(next.contract, c.assetId, c.amount);
      return { ok: true, state: next };
    }
    case "transfer":
      return { ok: false, code: "owner_not_allowed" };
  }
}

/** What must hold in every reference state. */
export function mmReferenceViolations(s: MmReference): string[] {
  const out: string[] = [];
  for (const [assetId, deposited] of s.deposited) {
    const fund = s.fund.get(assetId) ?? 0n;
    const contract = s.contract.get(assetId) ?? 0n;
    if (fund < 0n || contract < 0n) out.push(`${assetId}: a wallet below zero`);
    if (fund + contract !== deposited) out.push(`${assetId}: fund + contract ≠ deposits`);
    if (contract > 0n && !s.perpQuotes.has(assetId)) {
      out.push(`${assetId}: contract money in an asset no perpetual is quoted in`);
    }
  }
  return out;
}
