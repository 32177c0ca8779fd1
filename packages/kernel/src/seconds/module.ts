// Seconds contracts as a kernel module: products, purchases, settlement from the tape.

import { assert } from "../assert.ts";
import { accountOf, compareStrings, systemOwner } from "../ledger/accounts.ts";
import type { FieldKind, Json, KernelModule } from "../module.ts";
import { systemOwners, type Mode } from "../types.ts";
import {
  addOpen,
  runRefund,
  secondsConfigure,
  secondsPurchase,
  settleOnTick,
  OPEN_CONTRACTS_PER_OWNER_MAX,
  payoutOf,
} from "./contracts.ts";
import { createSecondsState, type SecondsContractState, type SecondsState } from "./state.ts";
import type { SecondsDirection } from "./types.ts";

declare module "../state.ts" {
  interface KernelSlices {
    seconds: SecondsState;
  }
}

const ownerMode = [
  ["ownerId", "string"],
  ["mode", "mode"],
] as const satisfies readonly (readonly [string, FieldKind])[];

const big = (value: bigint): string => value.toString();

export const secondsModule = {
  name: "seconds",
  createState: createSecondsState,
  commands: {
    // Type codes 20–21 are the seconds product's (22 and 23 went to operator fee changes).
    seconds_configure: {
      typeCode: 20,
      fields: [
        ["instrumentId", "string"],
        ["periodMs", "int"],
        ["assetId", "string"],
        ["payoutBps", "int"],
        ["stakeMin", "bigint"],
        ["stakeMax", "bigint"],
        ["exposureMax", "bigint"],
        ["graceMs", "int"],
        ["tickAgeMaxMs", "int"],
        ["open", "bool"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
    seconds_purchase: {
      typeCode: 21,
      fields: [
        ...ownerMode,
        ["instrumentId", "string"],
        ["periodMs", "int"],
        ["direction", "string"],
        ["stake", "bigint"],
      ],
      result: [],
    },
  },
  handlers: { seconds_configure: secondsConfigure, seconds_purchase: secondsPurchase },
  onTick: settleOnTick,
  runScheduled: runRefund,
  snapshot: {
    write(state) {
      const seconds = state.seconds;
      // Nothing configured: no fields, so states without the product hash as before it.
      if (seconds.products.size === 0 && seconds.seqNext === 1) {
        return { secondsProducts: undefined, secondsContracts: undefined };
      }
      const products = [...seconds.products.values()]
        .sort((a, b) => compareStrings(a.productId, b.productId))
        .map((p): Json => [
          p.instrumentId,
          p.periodMs,
          p.assetId,
          p.payoutBps,
          big(p.stakeMin),
          big(p.stakeMax),
          big(p.exposureMax),
          p.graceMs,
          p.tickAgeMaxMs,
          p.open,
        ]);
      const contracts = [...seconds.open.values()]
        .sort((a, b) => a.seq - b.seq)
        .map((c): Json => [
          c.seq,
          c.contractId,
          c.ownerId,
          c.mode,
          c.productId,
          c.instrumentId,
          c.periodMs,
          c.assetId,
          c.direction,
          big(c.stake),
          c.payoutBps,
          big(c.payoutMax),
          c.boughtAtMs,
          c.expiresAtMs,
          c.refundAtMs,
          c.openTickId,
          c.openPrice,
          c.openTickAtMs,
        ]);
      return {
        secondsProducts: products,
        secondsContracts: [
          seconds.seqNext,
          seconds.purchasedCount,
          seconds.settledCount,
          contracts,
        ],
      };
    },
    read(state, json) {
      const seconds = state.seconds;
      for (const p of (json.secondsProducts ?? []) as Json[][]) {
        const instrumentId = p[0] as string;
        const periodMs = p[1] as number;
        seconds.products.set(instrumentId + ":" + String(periodMs), {
          productId: instrumentId + ":" + String(periodMs),
          instrumentId,
          periodMs,
          assetId: p[2] as string,
          payoutBps: p[3] as number,
          stakeMin: BigInt(p[4] as string),
          stakeMax: BigInt(p[5] as string),
          exposureMax: BigInt(p[6] as string),
          graceMs: p[7] as number,
          tickAgeMaxMs: p[8] as number,
          open: p[9] as boolean,
        });
      }
      const section = json.secondsContracts as [number, number, number, Json[][]] | undefined;
      if (section === undefined) return;
      const [seqNext, purchasedCount, settledCount, contracts] = section;
      for (const c of contracts) {
        const contract: SecondsContractState = {
          seq: c[0] as number,
          contractId: c[1] as string,
          ownerId: c[2] as string,
          mode: c[3] as Mode,
          productId: c[4] as string,
          instrumentId: c[5] as string,
          periodMs: c[6] as number,
          assetId: c[7] as string,
          direction: c[8] as SecondsDirection,
          stake: BigInt(c[9] as string),
          payoutBps: c[10] as number,
          payoutMax: BigInt(c[11] as string),
          boughtAtMs: c[12] as number,
          expiresAtMs: c[13] as number,
          refundAtMs: c[14] as number,
          openTickId: c[15] as string,
          openPrice: c[16] as string,
          openTickAtMs: c[17] as number,
          status: "open",
          settleTickId: null,
          settlePrice: null,
          settleTickAtMs: null,
          settledAtMs: null,
          outcome: null,
          returned: null,
        };
        addOpen(state, contract);
      }
      seconds.seqNext = seqNext;
      seconds.purchasedCount = purchasedCount;
      seconds.settledCount = settledCount;
    },
  },
  checkInvariants(state) {
    const seconds = state.seconds;
    // Every contract bought is open or settled, once.
    assert(
      seconds.purchasedCount === seconds.settledCount + seconds.open.size,
      "contracts bought ≠ settled + open",
    );
    const escrow = new Map<string, bigint>();
    const reserved = new Map<string, bigint>();
    const perOwner = new Map<string, number>();
    let indexed = 0;
    for (const index of seconds.openByInstrument.values()) indexed += index.size;
    assert(indexed === seconds.open.size, "open contracts indexed by instrument disagree");
    for (const c of seconds.open.values()) {
      assert(c.status === "open", "a settled contract is listed open");
      assert(c.stake > 0n && c.payoutMax > 0n, "an open contract stakes and reserves something");
      assert(c.payoutMax === payoutOf(c.stake, c.payoutBps), "a reservation is not the payout");
      assert(c.seq < seconds.seqNext, "a contract's seq is ahead of the counter");
      assert(seconds.openByInstrument.get(c.instrumentId)?.get(c.contractId) === c, "unindexed");
      const assetKey = c.mode + "|" + c.assetId;
      escrow.set(assetKey, (escrow.get(assetKey) ?? 0n) + c.stake);
      reserved.set(assetKey, (reserved.get(assetKey) ?? 0n) + c.payoutMax);
      const productKey = c.mode + "|" + c.productId;
      perOwner.set(c.mode + "|" + c.ownerId, (perOwner.get(c.mode + "|" + c.ownerId) ?? 0) + 1);
      reserved.set("p|" + productKey, (reserved.get("p|" + productKey) ?? 0n) + c.payoutMax);
    }
    // Reservations per product and mode are the sum of the open contracts' most payouts.
    let products = 0;
    for (const [key, value] of reserved) {
      if (!key.startsWith("p|")) continue;
      products++;
      assert(seconds.reserved.get(key.slice(2)) === value, "a product's reservation is wrong");
    }
    assert(products === seconds.reserved.size, "reservations of products without contracts");
    for (const [key, count] of perOwner) {
      assert(seconds.openPerOwner.get(key) === count, "open contracts per owner out of step");
      assert(count <= OPEN_CONTRACTS_PER_OWNER_MAX, "too many open contracts");
    }
    assert(perOwner.size === seconds.openPerOwner.size, "owner counts out of step");
    // The house's escrow holds exactly the open stakes; its fund wallet holds the reservations.
    for (const mode of ["real", "demo"] as const) {
      const house = systemOwner(state, mode, systemOwners.house);
      for (const account of house.accounts.values()) {
        if (account.wallet !== "contract") continue;
        assert(account.held === 0n, "the house's escrow holds nothing back");
        const expected = escrow.get(mode + "|" + account.assetId) ?? 0n;
        assert(account.available === expected, "the house's escrow is not the open stakes");
      }
      for (const [key, stake] of escrow) {
        if (!key.startsWith(mode + "|")) continue;
        const assetId = key.slice(mode.length + 1);
        assert(house.accounts.get("contract|" + assetId)?.available === stake, "escrow missing");
        accountOf(state, house, "fund", assetId).heldExpected += reserved.get(key) ?? 0n;
      }
    }
  },
} satisfies KernelModule;
