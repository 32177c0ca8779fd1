// Funds as a kernel module: accounts, demo money, deposits, withdrawals and transfers.

import { assert } from "../assert.ts";
import { compareStrings } from "../ledger/accounts.ts";
import type { FieldKind, Json, KernelModule } from "../module.ts";
import {
  creditDeposit,
  transferUser,
  transferWallet,
  withdrawalCancel,
  withdrawalComplete,
  withdrawalHold,
  withdrawalHoldFee,
  withdrawalHoldWallet,
} from "./movements.ts";
import { exchangeAccept, exchangeQuote, pruneQuotes, QUOTES_PER_OWNER_MAX } from "./exchange.ts";
import { grantDemo, openAccounts, resetDemo } from "./owners.ts";
import {
  createFundsState,
  type ExchangeQuoteState,
  type FundsState,
  type WithdrawalState,
} from "./state.ts";
import { ownerKey } from "../ledger/state.ts";
import type { Mode } from "../types.ts";

declare module "../state.ts" {
  interface KernelSlices {
    funds: FundsState;
  }
}

const ownerMode = [
  ["ownerId", "string"],
  ["mode", "mode"],
] as const satisfies readonly (readonly [string, FieldKind])[];

export const fundsModule = {
  name: "funds",
  createState: createFundsState,
  commands: {
    open_accounts: { typeCode: 3, fields: [...ownerMode], result: [] },
    reset_demo: { typeCode: 4, fields: [...ownerMode], result: ["cancelledCount"] },
    grant_demo: {
      typeCode: 5,
      fields: [...ownerMode, ["assetId", "string"], ["amount", "bigint"]],
      result: ["postingSeq"],
    },
    credit_deposit: {
      typeCode: 6,
      fields: [
        ...ownerMode,
        ["assetId", "string"],
        ["amount", "bigint"],
        ["reference", "string"],
        ["operatorId", "string?"],
      ],
      result: ["postingSeq"],
    },
    withdrawal_hold: {
      typeCode: 7,
      fields: [
        ...ownerMode,
        ["assetId", "string"],
        ["amount", "bigint"],
        ["withdrawalId", "string"],
      ],
      result: [],
    },
    withdrawal_complete: {
      typeCode: 8,
      fields: [
        ["withdrawalId", "string"],
        ["reference", "string"],
        ["operatorId", "string?"],
      ],
      result: ["postingSeq"],
    },
    withdrawal_cancel: {
      typeCode: 9,
      fields: [
        ["withdrawalId", "string"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    transfer_wallet: {
      typeCode: 10,
      fields: [
        ...ownerMode,
        ["assetId", "string"],
        ["amount", "bigint"],
        ["sourceWallet", "wallet"],
        ["targetWallet", "wallet"],
      ],
      result: ["postingSeq"],
    },
    transfer_user: {
      typeCode: 11,
      fields: [
        ...ownerMode,
        ["assetId", "string"],
        ["amount", "bigint"],
        ["targetOwnerId", "string"],
      ],
      result: ["postingSeq"],
    },
    exchange_quote: {
      typeCode: 18,
      fields: [
        ...ownerMode,
        ["sourceAssetId", "string"],
        ["sourceAmount", "bigint"],
        ["targetAssetId", "string"],
        ["spreadBps", "int"],
        ["ttlMs", "int"],
        ["tickAgeMaxMs", "int"],
      ],
      result: [],
    },
    exchange_accept: {
      typeCode: 19,
      fields: [...ownerMode, ["quoteId", "string"]],
      result: ["postingSeq"],
    },
    withdrawal_hold_fee: {
      typeCode: 25,
      fields: [
        ...ownerMode,
        ["assetId", "string"],
        ["amount", "bigint"],
        ["fee", "bigint"],
        ["withdrawalId", "string"],
      ],
      result: [],
    },
    // Issue 16, bank-card withdrawals: a hold on the fiat wallet (or the fund wallet).
    withdrawal_hold_wallet: {
      typeCode: 81,
      fields: [
        ...ownerMode,
        ["wallet", "wallet"],
        ["assetId", "string"],
        ["amount", "bigint"],
        ["fee", "bigint"],
        ["withdrawalId", "string"],
      ],
      result: [],
    },
  },
  handlers: {
    open_accounts: openAccounts,
    reset_demo: resetDemo,
    grant_demo: grantDemo,
    credit_deposit: creditDeposit,
    withdrawal_hold: withdrawalHold,
    withdrawal_hold_fee: withdrawalHoldFee,
    withdrawal_hold_wallet: withdrawalHoldWallet,
    withdrawal_complete: withdrawalComplete,
    withdrawal_cancel: withdrawalCancel,
    transfer_wallet: transferWallet,
    transfer_user: transferUser,
    exchange_quote: exchangeQuote,
    exchange_accept: exchangeAccept,
  },
  snapshot: {
    write(state) {
      const withdrawals = [...state.funds.withdrawals.values()]
        .sort((a, b) => compareStrings(a.withdrawalId, b.withdrawalId))
        // The fee is appended only when there is one, so fee-less states keep their hash.
        .map((w): Json =>
          w.fee === 0n
            ? [w.withdrawalId, w.account.key, w.amount.toString(), w.status, w.reference]
            : [
                w.withdrawalId,
                w.account.key,
                w.amount.toString(),
                w.status,
                w.reference,
                w.fee.toString(),
              ],
        );
      // Written only while quotes stand, so states without any keep their snapshot and hash.
      const quotes =
        state.funds.quotes.size === 0
          ? undefined
          : [...state.funds.quotes.values()].map((q): Json => [
              q.quoteId,
              q.ownerId,
              q.mode,
              q.sourceAssetId,
              q.sourceAmount.toString(),
              q.targetAssetId,
              q.targetAmount.toString(),
              q.marketId,
              q.instrumentId,
              q.tickId,
              q.price,
              q.spreadBps,
              q.side,
              q.quotedAtMs,
              q.expiresAtMs,
            ]);
      return { withdrawals, exchangeQuotes: quotes };
    },
    read(state, json) {
      for (const [withdrawalId, key, amount, status, reference, fee] of json.withdrawals as [
        string,
        string,
        string,
        WithdrawalState["status"],
        string | null,
        string | undefined,
      ][]) {
        const account = state.ledger.accounts.get(key);
        assert(account !== undefined, "snapshot withdrawal without account");
        state.funds.withdrawals.set(withdrawalId, {
          withdrawalId,
          account,
          amount: BigInt(amount),
          fee: BigInt(fee ?? "0"),
          status,
          reference,
        });
      }
      const quotes = (json.exchangeQuotes ?? []) as [
        string,
        string,
        Mode,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        number,
        "buy" | "sell",
        number,
        number,
      ][];
      for (const q of quotes) {
        const quote: ExchangeQuoteState = {
          quoteId: q[0],
          ownerId: q[1],
          mode: q[2],
          sourceAssetId: q[3],
          sourceAmount: BigInt(q[4]),
          targetAssetId: q[5],
          targetAmount: BigInt(q[6]),
          marketId: q[7],
          instrumentId: q[8],
          tickId: q[9],
          price: q[10],
          spreadBps: q[11],
          side: q[12],
          quotedAtMs: q[13],
          expiresAtMs: q[14],
        };
        state.funds.quotes.set(quote.quoteId, quote);
        const key = ownerKey(quote.mode, quote.ownerId);
        state.funds.quotesPerOwner.set(key, (state.funds.quotesPerOwner.get(key) ?? 0) + 1);
      }
    },
  },
  onClock: pruneQuotes,
  checkInvariants(state) {
    // A pending withdrawal holds its amount.
    for (const withdrawal of state.funds.withdrawals.values()) {
      if (withdrawal.status === "pending") {
        withdrawal.account.heldExpected += withdrawal.amount + withdrawal.fee;
      }
    }
    // Standing quotes are counted per owner, bounded, and promise something positive.
    const counted = new Map<string, number>();
    for (const quote of state.funds.quotes.values()) {
      const key = ownerKey(quote.mode, quote.ownerId);
      counted.set(key, (counted.get(key) ?? 0) + 1);
      assert(quote.sourceAmount > 0n, "quote without a source amount");
      assert(quote.targetAmount > 0n, "quote without a target amount");
      assert(quote.expiresAtMs > quote.quotedAtMs, "quote expires before it was made");
    }
    assert(counted.size === state.funds.quotesPerOwner.size, "quote counts out of step");
    for (const [key, count] of counted) {
      assert(state.funds.quotesPerOwner.get(key) === count, "quote count out of step");
      assert(count <= QUOTES_PER_OWNER_MAX, "too many standing quotes");
    }
  },
} satisfies KernelModule;
