// The slow, obvious model of one loan, the specification the module is tested against: days are
// counted afresh from the start time at every clock tick (instead of a chain of schedule
// entries), prices are read as fractions from the tape's decimal text, and the LTV tests are
// cross-multiplied instead of rounded.

export interface ReferenceTerms {
  termDays: number;
  dailyRatePpm: number;
  ltvMarginCallBps: number;
  ltvLiquidationBps: number;
  collateralScale: number;
  loanScale: number;
}

export class ReferenceLoan {
  status: "active" | "repaid" | "liquidated" = "active";
  principal: bigint;
  interest = 0n;
  lateFees = 0n;
  days = 0;
  forced = false;
  marginCall = false;
  seized = 0n;
  shortfall = 0n;

  constructor(
    readonly terms: ReferenceTerms,
    principal: bigint,
    public collateral: bigint,
    readonly startMs: number,
  ) {
    this.principal = principal;
  }

  debt(): bigint {
    return this.principal + this.interest + this.lateFees;
  }

  /** A clock tick at `nowMs`: every whole day since the start not yet counted is counted. */
  clock(nowMs: number): void {
    const DAY = 86_400_000;
    while (this.status === "active" && this.startMs + (this.days + 1) * DAY <= nowMs) {
      this.days++;
      const overdue = this.days > this.terms.termDays;
      const yearly = this.principal * BigInt(this.terms.dailyRatePpm);
      this.interest += overdue ? (yearly * 110n) / 100n / 1_000_000n : yearly / 1_000_000n;
      if (overdue) this.lateFees += this.principal / 100n;
      if (this.days >= this.terms.termDays + 3) this.forced = true;
    }
  }

  private fraction(price: string): [bigint, bigint] {
    const [whole, decimals = ""] = price.split(".");
    return [BigInt(whole! + decimals), 10n ** BigInt(decimals.length)];
  }

  /** A recorded tick of the collateral's instrument. */
  tick(price: string): void {
    if (this.status !== "active") return;
    const [num, den] = this.fraction(price);
    const sc = 10n ** BigInt(this.terms.collateralScale);
    const sl = 10n ** BigInt(this.terms.loanScale);
    const value = (this.collateral * num * sl) / (sc * den);
    const debt = this.debt();
    // ceil(debt × 10,000 / value) ≥ limit  ⟺  debt × 10,000 > (limit − 1) × value
    const reaches = (limit: number): boolean =>
      value === 0n || debt * 10_000n > BigInt(limit - 1) * value;
    if (this.forced || reaches(this.terms.ltvLiquidationBps)) {
      let needed = (debt * sc * den) / (num * sl);
      if ((needed * num * sl) / (sc * den) < debt) needed++;
      while (needed > 0n && ((needed - 1n) * num * sl) / (sc * den) >= debt) needed--;
      this.seized = needed < this.collateral ? needed : this.collateral;
      const got = (this.seized * num * sl) / (sc * den);
      this.shortfall = got >= debt ? 0n : debt - got;
      this.principal = this.interest = this.lateFees = 0n;
      this.status = "liquidated";
      this.marginCall = false;
      return;
    }
    this.marginCall = reaches(this.terms.ltvMarginCallBps);
  }

  /** Repays up to `amount`; returns what was taken. */
  repay(amount: bigint): bigint {
    const remaining = BigInt(Math.max(0, this.terms.termDays - this.days));
    const early =
      (remaining * ((this.principal * BigInt(this.terms.dailyRatePpm)) / 1_000_000n)) / 2n;
    const due = this.debt() + early;
    if (amount >= due) {
      this.principal = this.interest = this.lateFees = 0n;
      this.status = "repaid";
      this.marginCall = false;
      return due;
    }
    let left = amount;
    for (const part of ["lateFees", "interest", "principal"] as const) {
      const paid = left < this[part] ? left : this[part];
      this[part] -= paid;
      left -= paid;
    }
    return amount;
  }
}
