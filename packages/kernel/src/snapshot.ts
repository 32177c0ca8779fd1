// Snapshot, restore and state hash. The snapshot is canonical JSON (UTF-8): every collection is
// written in a sorted order (or, for book queues, price-time priority), never in Map order, so
// equal states give equal bytes and the hash is SHA-256 of those bytes. Each module writes and
// reads its own section (`KernelModule.snapshot`); this file puts the sections in one object.

import { assert } from "./assert.ts";
import type { OrderBookFactory } from "./book/types.ts";
import { commandSchemas, utf8Decode } from "./command-codec.ts";
import { sha256Hex, utf8Encode } from "./hash/sha256.ts";
import type { Json } from "./module.ts";
import { rejectCodes, type RejectCode } from "./reject-codes.ts";
import type { OrderStatus } from "./spot/types.ts";
import { createKernelState, type KernelState } from "./state.ts";
import type { CommandResult, CommandType, KernelOptions } from "./types.ts";

const FORMAT = "candor-kernel-snapshot/1";

/**
 * Where the fields of the snapshot object go, in the order the first kernel wrote them: the
 * sections of the ledger, reference data, funds and spot interleave. Fields of later modules
 * follow in registry order, and only when they have something to say, so the bytes (and hash)
 * of every state an older kernel could reach stay the same.
 */
const FIELD_ORDER = [
  "options",
  "nowMs",
  "postingSeqLast",
  "orderIdNext",
  "fillIdNext",
  "ownerIndexNext",
  "assets",
  "ticks",
  "markets",
  "owners",
  "accounts",
  "orders",
  "books",
  "withdrawals",
  "postings",
  "idempotency",
] as const;

/**
 * A remembered result as snapshots write it: the six result fields, null where absent
 * (`CommandMemory.rows` writes the same without building the result; a test holds them equal).
 */
export function resultToJson(result: CommandResult): Json {
  if (!result.ok) return ["reject", result.code];
  const v = result.value as Record<string, number | string | undefined>;
  const field = (name: string): Json => v[name] ?? null;
  return [
    "ok",
    field("orderId"),
    field("orderStatus"),
    field("filledLots"),
    field("restingLots"),
    field("cancelledCount"),
    field("postingSeq"),
  ];
}

function resultFromJson(json: Json): CommandResult {
  assert(Array.isArray(json), "result must be an array");
  if (json[0] === "reject") {
    assert(rejectCodes.includes(json[1] as RejectCode), "unknown reject code in snapshot");
    return { ok: false, code: json[1] as RejectCode };
  }
  assert(json[0] === "ok", "result must be ok or reject");
  // The memory keeps the fields its command type's result has.
  const value = {
    orderId: json[1] as number | null,
    orderStatus: json[2] as OrderStatus | null,
    filledLots: json[3] as number | null,
    restingLots: json[4] as number | null,
    cancelledCount: json[5] as number | null,
    postingSeq: json[6] as number | null,
  };
  return { ok: true, value } as unknown as CommandResult;
}

/**
 * The whole kernel state as canonical JSON values (what {@link snapshot} serialises); exported so
 * a host with native UTF-8 and SHA-256 can compute the same bytes and hash faster.
 */
export function snapshotJson(state: KernelState): Record<string, Json | undefined> {
  const options = state.options;
  const fields: Record<string, Json | undefined> = {
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
  };
  const later: string[] = [];
  for (const module of state.modules) {
    const section = module.snapshot?.write(state) ?? {};
    for (const [name, value] of Object.entries(section)) {
      assert(!Object.hasOwn(fields, name), `two modules write the snapshot field ${name}`);
      fields[name] = value;
      if (!(FIELD_ORDER as readonly string[]).includes(name)) later.push(name);
    }
  }
  // `[id, atMs, type, print0, print1, resultToJson(result)]` rows, oldest first.
  fields.idempotency = state.memory.rows();
  const out: Record<string, Json | undefined> = { format: FORMAT };
  for (const name of [...FIELD_ORDER, ...later]) {
    if (fields[name] !== undefined) out[name] = fields[name];
  }
  return out;
}

/** The whole kernel state as canonical bytes. */
export function snapshot(state: KernelState): Uint8Array {
  return utf8Encode(JSON.stringify(snapshotJson(state)));
}

/** SHA-256 (hex) of the canonical snapshot: equal for equal states, whatever the Map order. */
export function stateHash(state: KernelState): string {
  return sha256Hex(snapshot(state));
}

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
  state.nowMs = json.nowMs as number;
  for (const module of state.modules) module.snapshot?.read(state, json);
  for (const [id, atMs, type, print0, print1, result] of json.idempotency as [
    string,
    number,
    CommandType,
    number,
    number,
    Json,
  ][]) {
    assert(Object.hasOwn(commandSchemas, type), "unknown command type in snapshot");
    state.memory.restoreEntry({
      id,
      atMs,
      type,
      print: [print0, print1],
      result: resultFromJson(result),
    });
  }
  return state;
}
