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
} from "./movements.ts";
import { grantDemo, openAccounts, resetDemo } from "./owners.ts";
import { createFundsState, type FundsState, type WithdrawalState } from "./state.ts";

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
  },
  handlers: {
    open_accounts: openAccounts,
    reset_demo: resetDemo,
    grant_demo: grantDemo,
    credit_deposit: creditDeposit,
    withdrawal_hold: withdrawalHold,
    withdrawal_complete: withdrawalComplete,
    withdrawal_cancel: withdrawalCancel,
    transfer_wallet: transferWallet,
    transfer_user: transferUser,
  },
  snapshot: {
    write(state) {
      const withdrawals = [...state.funds.withdrawals.values()]
        .sort((a, b) => compareStrings(a.withdrawalId, b.withdrawalId))
        .map((w): Json => [
          w.withdrawalId,
          w.account.key,
          w.amount.toString(),
          w.status,
          w.reference,
        ]);
      return { withdrawals };
    },
    read(state, json) {
      for (const [withdrawalId, key, amount, status, reference] of json.withdrawals as [
        string,
        string,
        string,
        WithdrawalState["status"],
        string | null,
      ][]) {
        const account = state.ledger.accounts.get(key);
        assert(account !== undefined, "snapshot withdrawal without account");
        state.funds.withdrawals.set(withdrawalId, {
          withdrawalId,
          account,
          amount: BigInt(amount),
          status,
          reference,
        });
      }
    },
  },
  checkInvariants(state) {
    // A pending withdrawal holds its amount.
    for (const withdrawal of state.funds.withdrawals.values()) {
      if (withdrawal.status === "pending") withdrawal.account.heldExpected += withdrawal.amount;
    }
  },
} satisfies KernelModule;
