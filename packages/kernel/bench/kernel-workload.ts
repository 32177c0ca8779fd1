// W4: the W1 stream through the whole kernel (validation, idempotency, holds, fees, postings,
// events) against the bare peer book. One market, 1,000 funded owners, one kernel command per
// stream operation; a clock tick every 10,000 commands prunes remembered command ids, as a
// server would, and its time counts against us.
import { createOrderBook } from "../src/book/index.ts";
import { apply, createKernelState, type Command, type KernelState } from "../src/index.ts";
import { generate, type Stream } from "./book-streams.ts";

const marketId = "BTC-USDT";

/** W4's owners: few, so every owner has many orders and some trade with themselves. */
export const w4Owners = 1_000;

/** The W4 stream (the W1 shape with `w4Owners` owners); shorter with `operations`. */
export function w4Stream(operations = 1_000_000): Stream {
  return generate({
    seed: 4,
    operations,
    restingTarget: 1_000,
    levelsPerSide: 800,
    quantityMax: 100,
    owners: w4Owners,
  });
}
const clockTickEvery = 10_000;

/** A kernel ready for a stream: assets, an open market with a tick, funded owners. */
export interface KernelRun {
  state: KernelState;
  /** Kernel order id by stream order id. */
  kernelOrderIds: Float64Array;
  atMs: number;
}

/** Command ids and owner names, made once per stream so the timed loop only builds commands. */
export interface KernelNames {
  commandIds: string[];
  ownerIds: string[];
}

export function kernelNames(stream: Stream, owners: number): KernelNames {
  const commandIds: string[] = [];
  for (let index = 0; index < stream.length; index++) commandIds.push(`c${index}`);
  const ownerIds: string[] = [];
  for (let owner = 0; owner <= owners; owner++) ownerIds.push(`u${owner}`);
  return { commandIds, ownerIds };
}

function applyOk(state: KernelState, command: Command): void {
  const { result } = apply(state, command);
  if (!result.ok) throw new Error(`setup command ${command.id} rejected: ${result.code}`);
}

/** Builds the kernel and its market, and funds every owner generously. */
export function kernelSetup(stream: Stream, names: KernelNames): KernelRun {
  const state = createKernelState(
    {
      openOrdersPerOwnerMax: 100_000,
      openOrdersMarketMakerMax: 100_000,
      levelsPerSideMax: 100_000,
      ordersPerBookMax: 10_000_000,
      idempotencyWindowMs: 60_000,
      demoGrants: [],
    },
    createOrderBook,
  );
  let atMs = 1_700_000_000_000;
  const base = { atMs };
  applyOk(state, {
    type: "define_asset",
    id: "s-btc",
    ...base,
    assetId: "BTC",
    scale: 8,
    amountMax: null,
  });
  applyOk(state, {
    type: "define_asset",
    id: "s-usdt",
    ...base,
    assetId: "USDT",
    scale: 6,
    amountMax: null,
  });
  applyOk(state, {
    type: "define_market",
    id: "s-market",
    ...base,
    marketId,
    baseAssetId: "BTC",
    quoteAssetId: "USDT",
    instrumentId: null,
    priceStep: "0.01",
    lotSize: "0.0001",
    quantityLotsMin: 1,
    quantityLotsMax: 1_000_000,
    feeBpsMaker: 1,
    feeBpsTaker: 2,
    priceBandBps: 5_000,
    levelsPerSideMax: null,
    ordersPerBookMax: null,
  });
  applyOk(state, { type: "set_market_session", id: "s-open", ...base, marketId, open: true });
  applyOk(state, {
    type: "record_tick",
    id: "s-tick",
    ...base,
    tickId: "t1",
    instrumentId: marketId,
    price: "1000",
    tickAtMs: atMs,
  });
  for (let owner = 1; owner < names.ownerIds.length; owner++) {
    const ownerId = names.ownerIds[owner]!;
    applyOk(state, {
      type: "open_accounts",
      id: `s-open-${owner}`,
      ...base,
      ownerId,
      mode: "real",
    });
    for (const [assetId, amount] of [
      ["BTC", 100_000n * 10n ** 8n],
      ["USDT", 100_000_000_000n * 10n ** 6n],
    ] as const) {
      applyOk(state, {
        type: "credit_deposit",
        id: `s-deposit-${owner}-${assetId}`,
        ...base,
        ownerId,
        mode: "real",
        assetId,
        amount,
        reference: `bench-${owner}-${assetId}`,
        operatorId: "bench",
      });
    }
  }
  atMs += 1;
  return { state, kernelOrderIds: new Float64Array(stream.orderId.length + 1), atMs };
}

/** Applies stream commands `from` to `to` (exclusive) to the kernel. */
export function runKernel(
  run: KernelRun,
  stream: Stream,
  names: KernelNames,
  from: number,
  to: number,
): void {
  const { state, kernelOrderIds } = run;
  const { kind, orderId, ownerId, side, priceTicks, quantityLots } = stream;
  const { commandIds, ownerIds } = names;
  for (let index = from; index < to; index++) {
    const atMs = run.atMs++;
    const id = commandIds[index]!;
    const owner = ownerIds[ownerId[index]!]!;
    const streamOrderId = orderId[index]!;
    switch (kind[index]) {
      case 0:
      case 1:
      case 2: {
        const market = kind[index] === 2;
        const { result } = apply(state, {
          type: "place_order",
          id,
          atMs,
          ownerId: owner,
          mode: "real",
          marketId,
          side: side[index] === 0 ? "buy" : "sell",
          orderType: market ? "market" : "limit",
          timeInForce: kind[index] === 0 ? "gtc" : "ioc",
          priceTicks: market ? null : priceTicks[index]!,
          quantityLots: quantityLots[index]!,
          quoteAmount: null,
        });
        if (result.ok && result.value.orderId !== null) {
          kernelOrderIds[streamOrderId] = result.value.orderId;
        }
        break;
      }
      case 3:
        apply(state, {
          type: "cancel_order",
          id,
          atMs,
          ownerId: owner,
          mode: "real",
          orderId: kernelOrderIds[streamOrderId]!,
        });
        break;
      case 4:
        apply(state, {
          type: "replace_order",
          id,
          atMs,
          ownerId: owner,
          mode: "real",
          orderId: kernelOrderIds[streamOrderId]!,
          priceTicks: priceTicks[index]!,
          quantityLots: quantityLots[index]!,
        });
        break;
    }
    if (index % clockTickEvery === 0) {
      apply(state, { type: "clock_tick", id: `${id}-clock`, atMs });
    }
  }
}
