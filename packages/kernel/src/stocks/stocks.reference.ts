// The slow, obvious model of the stock product, the specification the kernel module is tested
// against: prices as exact fractions of the tape's decimal text (not 10^-18 units), every
// pending order re-checked against each tick by a plain loop over a list, cash and shares as
// plain totals per owner. No holds, no indexes, no incremental bookkeeping.

export interface RefTerms {
  priceScale: number;
  assetScale: number;
  lotSize: bigint;
  spreadBps: bigint;
  commissionBps: bigint;
  commissionMin: bigint;
  stampDutyBps: bigint;
  stampDutyRound: bigint;
}

const ceilDiv = (a: bigint, b: bigint) => (a % b === 0n ? a / b : a / b + 1n);

/** "194.5" → [1945n, 10n]. */
export function fraction(text: string): [bigint, bigint] {
  const [whole, frac = ""] = text.split(".");
  return [BigInt(whole! + frac), 10n ** BigInt(frac.length)];
}

/** Executable price as an integer count of 10^-priceScale. */
export function refExecutable(terms: RefTerms, side: "buy" | "sell", quote: string): bigint {
  const [num, den] = fraction(quote);
  const scale = 10n ** BigInt(terms.priceScale);
  if (side === "buy") return ceilDiv(num * (10_000n + terms.spreadBps) * scale, den * 10_000n);
  return (num * (10_000n - terms.spreadBps) * scale) / (den * 10_000n);
}

export interface RefCost {
  notional: bigint;
  commission: bigint;
  duty: bigint;
  net: bigint;
}

/** Cost of `quantity` at `price` (10^-priceScale units). */
export function refCost(
  terms: RefTerms,
  side: "buy" | "sell",
  price: bigint,
  quantity: bigint,
): RefCost {
  const num = price * quantity * 10n ** BigInt(terms.assetScale);
  const den = 10n ** BigInt(terms.priceScale);
  const notional = side === "buy" ? ceilDiv(num, den) : num / den;
  let commission = ceilDiv(notional * terms.commissionBps, 10_000n);
  if (commission < terms.commissionMin) commission = terms.commissionMin;
  const duty =
    terms.stampDutyBps === 0n
      ? 0n
      : ceilDiv(ceilDiv(notional * terms.stampDutyBps, 10_000n), terms.stampDutyRound) *
        terms.stampDutyRound;
  const fees = commission + duty;
  return { notional, commission, duty, net: side === "buy" ? notional + fees : notional - fees };
}

export interface RefOrder {
  orderId: number;
  owner: string;
  side: "buy" | "sell";
  quantity: bigint;
  /** 10^-priceScale units; null: market. */
  limit: bigint | null;
  gtc: boolean;
}

/** One stock, one mode: the whole model. */
export class StockReference {
  cash = new Map<string, bigint>();
  shares = new Map<string, bigint>();
  houseShares = 0n;
  houseCash = 0n;
  fees = 0n;
  pending: RefOrder[] = [];
  open = false;
  fills: { orderId: number; price: bigint; net: bigint }[] = [];

  constructor(readonly terms: RefTerms) {}

  private fill(order: RefOrder, price: bigint): void {
    const cost = refCost(this.terms, order.side, price, order.quantity);
    const sign = order.side === "buy" ? 1n : -1n;
    this.cash.set(order.owner, (this.cash.get(order.owner) ?? 0n) - sign * cost.net);
    this.shares.set(order.owner, (this.shares.get(order.owner) ?? 0n) + sign * order.quantity);
    this.houseShares -= sign * order.quantity;
    this.houseCash += sign * cost.notional;
    this.fees += cost.commission + cost.duty;
    this.fills.push({ orderId: order.orderId, price, net: cost.net });
  }

  /** Shares the house can still promise: its shares less pending buys. */
  private houseFree(): bigint {
    return this.pending.reduce((n, o) => (o.side === "buy" ? n - o.quantity : n), this.houseShares);
  }

  private ownerFree(owner: string): bigint {
    return this.pending.reduce(
      (n, o) => (o.owner === owner && o.side === "sell" ? n - o.quantity : n),
      this.shares.get(owner) ?? 0n,
    );
  }

  private cashFree(owner: string): bigint {
    let free = this.cash.get(owner) ?? 0n;
    for (const o of this.pending) {
      if (o.owner === owner && o.side === "buy")
        free -= refCost(this.terms, "buy", o.limit!, o.quantity).net;
    }
    return free;
  }

  /** Returns whether the order was accepted. */
  place(order: RefOrder, quote: string | null): boolean {
    if (order.quantity <= 0n || order.quantity % this.terms.lotSize !== 0n) return false;
    if (!this.open || (order.limit === null && quote === null)) return false;
    const price = order.limit ?? refExecutable(this.terms, order.side, quote!);
    const cost = refCost(this.terms, order.side, price, order.quantity);
    if (order.side === "buy") {
      if (this.houseFree() < order.quantity || this.cashFree(order.owner) < cost.net) return false;
    } else {
      if (this.ownerFree(order.owner) < order.quantity || cost.net <= 0n) return false;
    }
    if (quote !== null) {
      const executable = refExecutable(this.terms, order.side, quote);
      const crosses =
        order.limit === null ||
        (order.side === "buy" ? executable <= order.limit : executable >= order.limit);
      if (crosses) {
        this.fill(order, executable);
        return true;
      }
    }
    this.pending.push(order);
    return true;
  }

  cancel(orderId: number): void {
    this.pending = this.pending.filter((o) => o.orderId !== orderId);
  }

  tick(quote: string): void {
    if (!this.open) return;
    for (const order of [...this.pending]) {
      const executable = refExecutable(this.terms, order.side, quote);
      if (order.side === "buy" ? executable <= order.limit! : executable >= order.limit!) {
        this.pending = this.pending.filter((o) => o !== order);
        this.fill(order, executable);
      }
    }
  }

  session(open: boolean): void {
    if (this.open && !open) this.pending = this.pending.filter((o) => o.gtc);
    this.open = open;
  }
}
