// Snapshot, restore and state hash. The snapshot is canonical JSON (UTF-8): every collection is
// written in a sorted order (or, for book queues, price-time priority), never in Map order, so
// equal states give equal bytes and the hash is SHA-256 of those bytes.

import { assert } from "./assert.ts";
import type { BookListener, OrderBookFactory, Side } from "./book/types.ts";
import { commandFromJsonArray, commandToJsonArray, utf8Decode } from "./command-codec.ts";
import { sha256Hex, utf8Encode } from "./hash/sha256.ts";
import {
  accountOf,
  buildMarket,
  compareStrings,
  createKernelState,
  installMarket,
  openOwner,
  rememberCommand,
} from "./kernel.ts";
import { rejectCodes, type RejectCode } from "./reject-codes.ts";
import type { KernelState, OrderState } from "./state.ts";
import type {
  CommandResult,
  KernelOptions,
  Mode,
  OrderStatus,
  OrderType,
  Posting,
  PostingReason,
  TimeInForce,
  Wallet,
} from "./types.ts";

const FORMAT = "candor-kernel-snapshot/1";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function big(value: bigint | null): string | null {
  return value === null ? null : value.toString();
}

function resultToJson(result: CommandResult): Json {
  if (!result.ok) return ["reject", result.code];
  const v = result.value;
  return [
    "ok",
    v.orderId,
    v.orderStatus,
    v.filledLots,
    v.restingLots,
    v.cancelledCount,
    v.postingSeq,
  ];
}

function resultFromJson(json: Json): CommandResult {
  assert(Array.isArray(json), "result must be an array");
  if (json[0] === "reject") {
    assert(rejectCodes.includes(json[1] as RejectCode), "unknown reject code in snapshot");
    return { ok: false, code: json[1] as RejectCode };
  }
  assert(json[0] === "ok", "result must be ok or reject");
  return {
    ok: true,
    value: {
      orderId: json[1] as number | null,
      orderStatus: json[2] as OrderStatus | null,
      filledLots: json[3] as number | null,
      restingLots: json[4] as number | null,
      cancelledCount: json[5] as number | null,
      postingSeq: json[6] as number | null,
    },
  };
}

function snapshotJson(state: KernelState): Json {
  const options = state.options;
  const assets = [...state.assets.values()]
    .sort((a, b) => compareStrings(a.assetId, b.assetId))
    .map((asset): Json => [asset.assetId, asset.scale, big(asset.amountMax)]);
  const ticks = [...state.ticks.values()]
    .sort((a, b) => compareStrings(a.instrumentId, b.instrumentId))
    .map((tick): Json => [
      tick.instrumentId,
      tick.tickId,
      tick.price,
      tick.tickAtMs,
      tick.recordedAtMs,
    ]);
  const marketList = [...state.markets.values()].sort((a, b) =>
    compareStrings(a.marketId, b.marketId),
  );
  const markets = marketList.map((market): Json => [
    market.marketId,
    market.base.assetId,
    market.quote.assetId,
    market.instrumentId,
    market.priceStep,
    market.lotSize,
    market.quantityLotsMin,
    market.quantityLotsMax,
    market.feeBpsMaker,
    market.feeBpsTaker,
    market.priceBandBps,
    market.levelsPerSideMax,
    market.ordersPerBookMax,
    market.open,
  ]);
  const owners = [...state.owners.values()]
    .sort((a, b) => compareStrings(a.key, b.key))
    .map((owner): Json => [owner.mode, owner.ownerId, owner.index]);
  // Accounts never used are left out: they are created lazily and carry nothing.
  const accountList = [...state.accounts.values()]
    .filter((a) => a.available !== 0n || a.held !== 0n || a.postings.length > 0)
    .sort((a, b) => compareStrings(a.key, b.key));
  const accounts = accountList.map((a): Json => [
    a.ownerId,
    a.mode,
    a.wallet,
    a.assetId,
    big(a.available),
    big(a.held),
    a.postings.map((p) => p.seq),
  ]);
  // Every posting some account still keeps, once, in sequence order.
  const kept = new Map<number, Posting>();
  for (const account of accountList) for (const p of account.postings) kept.set(p.seq, p);
  const orders = [...state.orders.values()]
    .sort((a, b) => a.orderId - b.orderId)
    .map((o): Json => [
      o.orderId,
      o.clientOrderId,
      o.owner.mode,
      o.owner.ownerId,
      o.market.marketId,
      o.side,
      o.orderType,
      o.timeInForce,
      o.priceTicks,
      o.quantityLots,
      big(o.quoteAmount),
      o.filledLots,
      big(o.heldAmount),
      o.createdAtMs,
    ]);
  const books: Json[] = [];
  for (const market of marketList) {
    for (const mode of ["real", "demo"] as const) {
      const book = mode === "real" ? market.bookReal : market.bookDemo;
      const queue: Json[] = [];
      for (const resting of book.orders()) queue.push(resting.orderId);
      books.push([market.marketId, mode, queue]);
    }
  }
  const withdrawals = [...state.withdrawals.values()]
    .sort((a, b) => compareStrings(a.withdrawalId, b.withdrawalId))
    .map((w): Json => [w.withdrawalId, w.account.key, big(w.amount), w.status, w.reference]);
  const postings = [...kept.values()]
    .sort((a, b) => a.seq - b.seq)
    .map((p): Json => [
      p.seq,
      p.debitAccount,
      p.creditAccount,
      p.assetId,
      big(p.amount),
      p.debitHeld,
      p.reason,
      p.commandId,
      p.atMs,
      p.orderId,
      p.fillId,
      p.tickId,
      p.operatorId,
      p.reference,
    ]);
  const idempotency: Json[] = [];
  for (let i = state.idHead - state.idBase; i < state.idCommands.length; i++) {
    const command = state.idCommands[i]!;
    assert(state.idPositions.get(command.id) === state.idBase + i, "idempotency index broken");
    idempotency.push([commandToJsonArray(command) as Json, resultToJson(state.idResults[i]!)]);
  }
  return {
    format: FORMAT,
    options: {
      openOrdersPerOwnerMax: options.openOrdersPerOwnerMax,
      openOrdersMarketMakerMax: options.openOrdersMarketMakerMax,
      levelsPerSideMax: options.levelsPerSideMax,
      ordersPerBookMax: options.ordersPerBookMax,
      idempotencyWindowMs: options.idempotencyWindowMs,
      statementPostingsMax: options.statementPostingsMax,
      demoGrants: options.demoGrants.map((g): Json => [g.assetId, g.amount]),
    },
    nowMs: state.nowMs,
    postingSeqLast: state.postingSeqLast,
    orderIdNext: state.orderIdNext,
    fillIdNext: state.fillIdNext,
    ownerIndexNext: state.ownerIndexNext,
    assets,
    ticks,
    markets,
    owners,
    accounts,
    orders,
    books,
    withdrawals,
    postings,
    idempotency,
  };
}

/** The whole kernel state as canonical bytes. */
export function snapshot(state: KernelState): Uint8Array {
  return utf8Encode(JSON.stringify(snapshotJson(state)));
}

/** SHA-256 (hex) of the canonical snapshot: equal for equal states, whatever the Map order. */
export function stateHash(state: KernelState): string {
  return sha256Hex(snapshot(state));
}

const refuseFills: BookListener = {
  onFill(): void {
    throw new Error("a restored book order crossed");
  },
  onSelfTradeCancel(): void {
    throw new Error("a restored book order crossed its owner");
  },
};

/** Rebuilds a kernel from {@link snapshot} bytes. */
export function restore(
  bytes: Uint8Array,
  bookFactory: OrderBookFactory | null = null,
): KernelState {
  const json = JSON.parse(utf8Decode(bytes)) as Record<string, Json>;
  assert(json.format === FORMAT, "unknown snapshot format");
  const o = json.options as Record<string, Json>;
  const options: KernelOptions = {
    openOrdersPerOwnerMax: o.openOrdersPerOwnerMax as number,
    openOrdersMarketMakerMax: o.openOrdersMarketMakerMax as number,
    levelsPerSideMax: o.levelsPerSideMax as number,
    ordersPerBookMax: o.ordersPerBookMax as number,
    idempotencyWindowMs: o.idempotencyWindowMs as number,
    statementPostingsMax: o.statementPostingsMax as number,
    demoGrants: (o.demoGrants as [string, string][]).map(([assetId, amount]) => ({
      assetId,
      amount,
    })),
  };
  const state = createKernelState(options, bookFactory);
  state.owners.clear();
  state.ownersReal.clear();
  state.ownersDemo.clear();
  state.accounts.clear();
  state.nowMs = json.nowMs as number;
  state.orderIdNext = json.orderIdNext as number;
  state.fillIdNext = json.fillIdNext as number;

  for (const [assetId, scale, amountMax] of json.assets as [string, number, string | null][]) {
    state.assets.set(assetId, {
      assetId,
      scale,
      amountMax: amountMax === null ? null : BigInt(amountMax),
    });
  }
  for (const [instrumentId, tickId, price, tickAtMs, recordedAtMs] of json.ticks as [
    string,
    string,
    string,
    number,
    number,
  ][]) {
    state.ticks.set(instrumentId, { tickId, instrumentId, price, tickAtMs, recordedAtMs });
  }
  for (const m of json.markets as Json[][]) {
    const market = buildMarket(state, {
      marketId: m[0] as string,
      baseAssetId: m[1] as string,
      quoteAssetId: m[2] as string,
      instrumentId: m[3] as string,
      priceStep: m[4] as string,
      lotSize: m[5] as string,
      quantityLotsMin: m[6] as number,
      quantityLotsMax: m[7] as number,
      feeBpsMaker: m[8] as number,
      feeBpsTaker: m[9] as number,
      priceBandBps: m[10] as number,
      levelsPerSideMax: m[11] as number,
      ordersPerBookMax: m[12] as number,
    });
    assert(typeof market !== "string", "snapshot market does not validate");
    market.open = m[13] as boolean;
    installMarket(state, market);
  }
  for (const [mode, ownerId, index] of json.owners as [Mode, string, number][]) {
    const owner = openOwner(state, ownerId, mode);
    owner.index = index;
  }
  state.ownerIndexNext = json.ownerIndexNext as number;
  state.postingSeqLast = json.postingSeqLast as number;
  const kept = new Map<number, Posting>();
  for (const p of json.postings as Json[][]) {
    const posting = {
      seq: p[0] as number,
      debitAccount: p[1] as string,
      creditAccount: p[2] as string,
      assetId: p[3] as string,
      amount: BigInt(p[4] as string),
      debitHeld: p[5] as boolean,
      reason: p[6] as PostingReason,
      commandId: p[7] as string,
      atMs: p[8] as number,
      orderId: p[9] as number | null,
      fillId: p[10] as number | null,
      tickId: p[11] as string | null,
      operatorId: p[12] as string | null,
      reference: p[13] as string | null,
    };
    kept.set(posting.seq, posting);
  }
  for (const [ownerId, mode, wallet, assetId, available, held, seqs] of json.accounts as [
    string,
    Mode,
    Wallet,
    string,
    string,
    string,
    number[],
  ][]) {
    const owner = state.owners.get(mode + "|" + ownerId);
    assert(owner !== undefined, "snapshot account without owner");
    const account = accountOf(state, owner, wallet, assetId);
    account.available = BigInt(available);
    account.held = BigInt(held);
    for (const seq of seqs) {
      const posting = kept.get(seq);
      assert(posting !== undefined, "snapshot account keeps an unknown posting");
      account.postings.push(posting);
    }
  }
  for (const r of json.orders as Json[][]) {
    const mode = r[2] as Mode;
    const owner = state.owners.get(mode + "|" + (r[3] as string));
    const market = state.markets.get(r[4] as string);
    assert(owner !== undefined && market !== undefined, "snapshot order without owner or market");
    const side = r[5] as Side;
    const baseAccount = accountOf(state, owner, "fund", market.base.assetId);
    const quoteAccount = accountOf(state, owner, "fund", market.quote.assetId);
    const order: OrderState = {
      orderId: r[0] as number,
      clientOrderId: r[1] as string,
      owner,
      market,
      book: mode === "real" ? market.bookReal : market.bookDemo,
      side,
      orderType: r[6] as OrderType,
      timeInForce: r[7] as TimeInForce,
      priceTicks: r[8] as number,
      quantityLots: r[9] as number,
      quoteAmount: r[10] === null ? null : BigInt(r[10] as string),
      filledLots: r[11] as number,
      heldAmount: BigInt(r[12] as string),
      holdAccount: side === "buy" ? quoteAccount : baseAccount,
      baseAccount,
      quoteAccount,
      status: "open",
      createdAtMs: r[13] as number,
    };
    state.orders.set(order.orderId, order);
    owner.orderIds.add(order.orderId);
  }
  for (const [marketId, mode, queue] of json.books as [string, Mode, number[]][]) {
    const market = state.markets.get(marketId)!;
    const book = mode === "real" ? market.bookReal : market.bookDemo;
    for (const orderId of queue) {
      const order = state.orders.get(orderId);
      assert(order !== undefined && order.book === book, "snapshot book order unknown");
      const outcome = book.submit(
        {
          orderId,
          ownerId: order.owner.index,
          side: order.side,
          priceTicks: order.priceTicks,
          quantityLots: order.quantityLots - order.filledLots,
          timeInForce: "gtc",
        },
        refuseFills,
      );
      assert(outcome.outcome === "rested", "a restored order did not rest");
    }
  }
  for (const [withdrawalId, key, amount, status, reference] of json.withdrawals as [
    string,
    string,
    string,
    "pending" | "completed" | "cancelled",
    string | null,
  ][]) {
    const account = state.accounts.get(key);
    assert(account !== undefined, "snapshot withdrawal without account");
    state.withdrawals.set(withdrawalId, {
      withdrawalId,
      account,
      amount: BigInt(amount),
      status,
      reference,
    });
  }
  for (const [commandJson, resultJson] of json.idempotency as [Json, Json][]) {
    rememberCommand(state, commandFromJsonArray(commandJson), resultFromJson(resultJson));
  }
  return state;
}
