// Loans as a kernel module: products, the pool, applications, the daily schedule and
// liquidation from the tape.

import { assert } from "../assert.ts";
import { accountOf, compareStrings, ownerOf, systemOwner } from "../ledger/accounts.ts";
import type { FieldKind, Json, KernelModule } from "../module.ts";
import { systemOwners, type Mode } from "../types.ts";
import { addLive, loansAddCollateral, loansApply, loansDecide, loansRepay } from "./loans.ts";
import { loansConfigure, loansFundPool } from "./terms.ts";
import { loansOnDemoReset, loansOnTick, loansRunScheduled } from "./ticks.ts";
import { createLoansState, type LoanState, type LoansState } from "./state.ts";
import type { LoanStatus } from "./types.ts";

declare module "../state.ts" {
  interface KernelSlices {
    loans: LoansState;
  }
}

const ownerMode = [
  ["ownerId", "string"],
  ["mode", "mode"],
] as const satisfies readonly (readonly [string, FieldKind])[];

const big = (value: bigint): string => value.toString();
const bigOrNull = (value: string | null): string | null => value;

export const loansModule = {
  name: "loans",
  createState: createLoansState,
  commands: {
    // Type codes 70–79 are the loans product's; 76–79 are kept for it.
    loans_configure: {
      typeCode: 70,
      fields: [
        ["productId", "string"],
        ["loanAssetId", "string"],
        ["collateralAssetId", "string"],
        ["instrumentId", "string"],
        ["ltvInitialBps", "int"],
        ["ltvMarginCallBps", "int"],
        ["ltvLiquidationBps", "int"],
        ["amountMin", "bigint"],
        ["amountMax", "bigint"],
        ["termDays", "int"],
        ["dailyRatePpm", "int"],
        ["reviewRequired", "bool"],
        ["tickAgeMaxMs", "int"],
        ["open", "bool"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    loans_fund_pool: {
      typeCode: 71,
      fields: [
        ["mode", "mode"],
        ["assetId", "string"],
        ["amount", "bigint"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    loans_apply: {
      typeCode: 72,
      fields: [
        ...ownerMode,
        ["productId", "string"],
        ["amount", "bigint"],
        ["collateral", "bigint"],
      ],
      result: [],
    },
    loans_decide: {
      typeCode: 73,
      fields: [
        ["loanId", "string"],
        ["approve", "bool"],
        ["reason", "string?"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    loans_repay: {
      typeCode: 74,
      fields: [...ownerMode, ["loanId", "string"], ["amount", "bigint"]],
      result: [],
    },
    loans_add_collateral: {
      typeCode: 75,
      fields: [...ownerMode, ["loanId", "string"], ["amount", "bigint"]],
      result: [],
    },
  },
  handlers: {
    loans_configure: loansConfigure,
    loans_fund_pool: loansFundPool,
    loans_apply: loansApply,
    loans_decide: loansDecide,
    loans_repay: loansRepay,
    loans_add_collateral: loansAddCollateral,
  },
  onTick: loansOnTick,
  runScheduled: loansRunScheduled,
  onDemoReset: (state, owner) => loansOnDemoReset(state, owner.ownerId),
  snapshot: {
    write(state) {
      const loans = state.loans;
      // Nothing configured: no fields, so states without the product hash as before it.
      if (loans.products.size === 0 && loans.seqNext === 1) {
        return { loansProducts: undefined, loans: undefined };
      }
      const products = [...loans.products.values()]
        .sort((a, b) => compareStrings(a.productId, b.productId))
        .map((p): Json => [
          p.productId,
          p.loanAssetId,
          p.collateralAssetId,
          p.instrumentId,
          p.ltvInitialBps,
          p.ltvMarginCallBps,
          p.ltvLiquidationBps,
          big(p.amountMin),
          big(p.amountMax),
          p.termDays,
          p.dailyRatePpm,
          p.reviewRequired,
          p.tickAgeMaxMs,
          p.open,
        ]);
      const records = [...loans.loans.values()]
        .sort((a, b) => a.seq - b.seq)
        .map((l): Json => [
          l.seq,
          l.loanId,
          l.ownerId,
          l.mode,
          l.productId,
          l.loanAssetId,
          l.collateralAssetId,
          l.instrumentId,
          l.ltvInitialBps,
          l.ltvMarginCallBps,
          l.ltvLiquidationBps,
          l.termDays,
          l.dailyRatePpm,
          l.status,
          big(l.principalLent),
          big(l.principal),
          big(l.interest),
          big(l.lateFees),
          big(l.interestPaid),
          big(l.lateFeesPaid),
          big(l.principalPaid),
          big(l.collateral),
          l.appliedAtMs,
          l.startedAtMs,
          l.dueAtMs,
          l.daysAccrued,
          l.marginCall,
          l.forcedClose,
          l.openTickId,
          l.openPrice,
          l.closeTickId,
          bigOrNull(l.closePrice),
          big(l.collateralSeized),
          big(l.shortfall),
          l.closedAtMs,
          l.reason,
        ]);
      return { loansProducts: products, loans: [loans.seqNext, records] };
    },
    read(state, json) {
      const loans = state.loans;
      for (const p of (json.loansProducts ?? []) as Json[][]) {
        loans.products.set(p[0] as string, {
          productId: p[0] as string,
          loanAssetId: p[1] as string,
          collateralAssetId: p[2] as string,
          instrumentId: p[3] as string,
          ltvInitialBps: p[4] as number,
          ltvMarginCallBps: p[5] as number,
          ltvLiquidationBps: p[6] as number,
          amountMin: BigInt(p[7] as string),
          amountMax: BigInt(p[8] as string),
          termDays: p[9] as number,
          dailyRatePpm: p[10] as number,
          reviewRequired: p[11] as boolean,
          tickAgeMaxMs: p[12] as number,
          open: p[13] as boolean,
        });
      }
      const section = json.loans as [number, Json[][]] | undefined;
      if (section === undefined) return;
      const [seqNext, records] = section;
      for (const l of records) {
        const loan: LoanState = {
          seq: l[0] as number,
          loanId: l[1] as string,
          ownerId: l[2] as string,
          mode: l[3] as Mode,
          productId: l[4] as string,
          loanAssetId: l[5] as string,
          collateralAssetId: l[6] as string,
          instrumentId: l[7] as string,
          ltvInitialBps: l[8] as number,
          ltvMarginCallBps: l[9] as number,
          ltvLiquidationBps: l[10] as number,
          termDays: l[11] as number,
          dailyRatePpm: l[12] as number,
          status: l[13] as LoanStatus,
          principalLent: BigInt(l[14] as string),
          principal: BigInt(l[15] as string),
          interest: BigInt(l[16] as string),
          lateFees: BigInt(l[17] as string),
          interestPaid: BigInt(l[18] as string),
          lateFeesPaid: BigInt(l[19] as string),
          principalPaid: BigInt(l[20] as string),
          collateral: BigInt(l[21] as string),
          appliedAtMs: l[22] as number,
          startedAtMs: l[23] as number | null,
          dueAtMs: l[24] as number | null,
          daysAccrued: l[25] as number,
          marginCall: l[26] as boolean,
          forcedClose: l[27] as boolean,
          openTickId: l[28] as string | null,
          openPrice: l[29] as string | null,
          closeTickId: l[30] as string | null,
          closePrice: l[31] as string | null,
          collateralSeized: BigInt(l[32] as string),
          shortfall: BigInt(l[33] as string),
          closedAtMs: l[34] as number | null,
          reason: l[35] as string | null,
        };
        loans.loans.set(loan.loanId, loan);
        if (loan.status === "pending" || loan.status === "active") addLive(state, loan);
        if (loan.status === "pending") {
          const key = loan.mode + "|" + loan.loanAssetId;
          loans.reserved.set(key, (loans.reserved.get(key) ?? 0n) + loan.principalLent);
        }
      }
      loans.seqNext = seqNext;
    },
  },
  checkInvariants(state) {
    const loans = state.loans;
    const reserved = new Map<string, bigint>();
    let live = 0;
    for (const loan of loans.loans.values()) {
      assert(loan.seq < loans.seqNext, "a loan's seq is ahead of the counter");
      const isLive = loan.status === "pending" || loan.status === "active";
      assert(
        (loans.liveByInstrument.get(loan.instrumentId)?.get(loan.loanId) === loan) === isLive,
        "live loans are exactly the indexed ones",
      );
      assert(
        loan.principal >= 0n && loan.interest >= 0n && loan.lateFees >= 0n,
        "a loan owes nothing negative",
      );
      if (!isLive) {
        assert(loan.principal + loan.interest + loan.lateFees === 0n, "a closed loan owes nothing");
        continue;
      }
      live++;
      assert(loan.collateral > 0n, "a live loan has collateral");
      const owner = ownerOf(state, loan.mode, loan.ownerId);
      assert(owner !== undefined, "a loan's owner exists");
      accountOf(state, owner, "fund", loan.collateralAssetId).heldExpected += loan.collateral;
      if (loan.status === "pending") {
        assert(loan.principal === 0n && loan.startedAtMs === null, "a pending loan lent nothing");
        const key = loan.mode + "|" + loan.loanAssetId;
        reserved.set(key, (reserved.get(key) ?? 0n) + loan.principalLent);
      } else {
        assert(
          loan.principal + loan.principalPaid === loan.principalLent,
          "an active loan's principal is lent = owed + repaid",
        );
        assert(loan.daysAccrued >= 0 && loan.startedAtMs !== null, "an active loan started");
      }
    }
    let indexed = 0;
    for (const byInstrument of loans.liveByInstrument.values()) indexed += byInstrument.size;
    assert(indexed === live, "the live index lists closed loans");
    // The pool holds back exactly the principal reserved for pending applications.
    assert(reserved.size === loans.reserved.size, "pool reservations out of step");
    for (const [key, amount] of reserved) {
      assert(loans.reserved.get(key) === amount, "a pool reservation is wrong");
      const [mode, assetId] = key.split("|") as [Mode, string];
      const treasury = systemOwner(state, mode, systemOwners.treasury);
      accountOf(state, treasury, "contract", assetId).heldExpected += amount;
    }
  },
} satisfies KernelModule;
