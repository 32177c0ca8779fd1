// The slow, obvious model of quick exchange: the specification the kernel's handlers are tested
// against (exchange.property.test.ts). Plain maps of balances, one user-side rule per line, and
// the amount received found by search over exact rational inequalities rather than by the
// kernel's single division.

/** Balances the model tracks: `mode|owner|asset` → available smallest units. */
export type ReferenceBalances = Map<string, bigint>;

export interface ReferenceMarket {
  base: string;
  quote: string;
  baseScale: number;
  quoteScale: number;
  instrumentId: string;
}

export interface ReferenceQuote {
  quoteId: string;
  ownerId: string;
  mode: "real" | "demo";
  source: string;
  target: string;
  sourceAmount: bigint;
  targetAmount: bigint;
  expiresAtMs: number;
}

/** A decimal string as an exact fraction n / d. */
function fraction(text: string): { n: bigint; d: bigint } {
  const [whole, part = ""] = text.split(".");
  return { n: BigInt(whole! + part), d: 10n ** BigInt(part.length) };
}

/**
 * The largest t with t ≤ value, where value is the exact amount received:
 * sell: source/10^bs × price × (1 − s/10⁴) × 10^qs; buy: source/10^qs ÷ (price × (1 + s/10⁴)) × 10^bs.
 * Found by doubling then bisection over `t × d ≤ n`.
 */
export function referenceTarget(
  side: "buy" | "sell",
  price: string,
  spreadBps: number,
  market: ReferenceMarket,
  sourceAmount: bigint,
): bigint {
  const p = fraction(price);
  const s = BigInt(spreadBps);
  let n: bigint;
  let d: bigint;
  if (side === "sell") {
    n = sourceAmount * p.n * (10_000n - s) * 10n ** BigInt(market.quoteScale);
    d = p.d * 10_000n * 10n ** BigInt(market.baseScale);
  } else {
    n = sourceAmount * p.d * 10_000n * 10n ** BigInt(market.baseScale);
    d = p.n * (10_000n + s) * 10n ** BigInt(market.quoteScale);
  }
  let high = 1n;
  while (high * d <= n) high *= 2n;
  let low = 0n; // low * d <= n < high * d
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (middle * d <= n) low = middle;
    else high = middle;
  }
  return low;
}

/** The whole model: balances, last prices and standing quotes. */
export class ExchangeReference {
  readonly balances: ReferenceBalances = new Map();
  readonly prices = new Map<string, { price: string; atMs: number; tickId: string }>();
  readonly quotes = new Map<string, ReferenceQuote>();

  constructor(readonly markets: readonly ReferenceMarket[]) {}

  balance(mode: string, owner: string, asset: string): bigint {
    return this.balances.get(`${mode}|${owner}|${asset}`) ?? 0n;
  }

  add(mode: string, owner: string, asset: string, amount: bigint): void {
    this.balances.set(`${mode}|${owner}|${asset}`, this.balance(mode, owner, asset) + amount);
  }

  tick(instrumentId: string, price: string, atMs: number, tickId: string): void {
    this.prices.set(instrumentId, { price, atMs, tickId });
  }

  clock(nowMs: number): void {
    for (const [id, q] of this.quotes) if (q.expiresAtMs < nowMs) this.quotes.delete(id);
  }

  /** Returns the rejection code, or null when the quote stands. */
  quote(
    quoteId: string,
    ownerId: string,
    mode: "real" | "demo",
    source: string,
    sourceAmount: bigint,
    target: string,
    atMs: number,
    terms: { spreadBps: number; ttlMs: number; tickAgeMaxMs: number },
  ): string | null {
    if (source === target) return "same_account";
    if (sourceAmount <= 0n) return "amount_must_be_positive";
    let market: ReferenceMarket | undefined;
    let side: "buy" | "sell" = "sell";
    for (const m of this.markets) {
      if (m.base === source && m.quote === target) {
        market = m;
        side = "sell";
        break;
      }
      if (m.quote === source && m.base === target) {
        market = m;
        side = "buy";
        break;
      }
    }
    if (market === undefined) return "market_not_found";
    const last = this.prices.get(market.instrumentId);
    if (last === undefined) return "no_reference_price";
    if (atMs - last.atMs > terms.tickAgeMaxMs) return "reference_price_stale";
    let standing = 0;
    for (const q of this.quotes.values()) if (q.ownerId === ownerId && q.mode === mode) standing++;
    if (standing >= 20) return "too_many_quotes";
    if (this.balance(mode, ownerId, source) < sourceAmount) return "insufficient_balance";
    const targetAmount = referenceTarget(side, last.price, terms.spreadBps, market, sourceAmount);
    if (targetAmount === 0n) return "quote_amount_too_small";
    if (this.balance(mode, "system:house", target) < targetAmount) return "house_insufficient";
    this.quotes.set(quoteId, {
      quoteId,
      ownerId,
      mode,
      source,
      target,
      sourceAmount,
      targetAmount,
      expiresAtMs: atMs + terms.ttlMs,
    });
    return null;
  }

  accept(quoteId: string, ownerId: string, mode: "real" | "demo", atMs: number): string | null {
    const q = this.quotes.get(quoteId);
    if (q === undefined || q.ownerId !== ownerId || q.mode !== mode) return "quote_not_found";
    if (atMs > q.expiresAtMs) return "quote_expired";
    if (this.balance(mode, ownerId, q.source) < q.sourceAmount) return "insufficient_balance";
    if (this.balance(mode, "system:house", q.target) < q.targetAmount) {
      return "house_insufficient";
    }
    this.add(mode, ownerId, q.source, -q.sourceAmount);
    this.add(mode, "system:house", q.source, q.sourceAmount);
    this.add(mode, "system:house", q.target, -q.targetAmount);
    this.add(mode, ownerId, q.target, q.targetAmount);
    this.quotes.delete(quoteId);
    return null;
  }
}
