import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** One contract as the read model holds it (amounts as bigint). */
export interface SecondsContractRow {
  id: bigint;
  contractId: string;
  ownerId: string;
  mode: "real" | "demo";
  instrumentId: string;
  periodMs: number;
  assetId: string;
  direction: "up" | "down";
  stake: bigint;
  payoutBps: number;
  payoutMax: bigint;
  boughtAtMs: number;
  expiresAtMs: number;
  openTickId: string;
  openPrice: string;
  status: "open" | "settled";
  settleTickId: string | null;
  settlePrice: string | null;
  settleTickAtMs: number | null;
  settledAtMs: number | null;
  outcome: "win" | "loss" | "tie" | "no_tick" | null;
  returned: bigint | null;
}

export interface SecondsListFilter {
  status?: "open" | "settled";
  instrumentId?: string;
  outcome?: "win" | "loss" | "tie" | "no_tick";
  direction?: "up" | "down";
  /** Rows with `id` below this (the previous page's last). */
  beforeId?: bigint;
  limit: number;
}

const columns = sql`id::text AS id, contract_id, owner_id, mode, instrument_id, period_ms::text AS period_ms,
  asset_id, direction, stake::text AS stake, payout_bps, payout_max::text AS payout_max,
  bought_at_ms::text AS bought_at_ms, expires_at_ms::text AS expires_at_ms, open_tick_id, open_price,
  status, settle_tick_id, settle_price, settle_tick_at_ms::text AS settle_tick_at_ms,
  settled_at_ms::text AS settled_at_ms, outcome, returned::text AS returned`;

type Raw = Record<string, string | number | null>;

const num = (v: string | number | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);

function rowOf(r: Raw): SecondsContractRow {
  return {
    id: BigInt(r.id as string),
    contractId: r.contract_id as string,
    ownerId: r.owner_id as string,
    mode: r.mode as "real" | "demo",
    instrumentId: r.instrument_id as string,
    periodMs: Number(r.period_ms),
    assetId: r.asset_id as string,
    direction: r.direction as "up" | "down",
    stake: BigInt(r.stake as string),
    payoutBps: Number(r.payout_bps),
    payoutMax: BigInt(r.payout_max as string),
    boughtAtMs: Number(r.bought_at_ms),
    expiresAtMs: Number(r.expires_at_ms),
    openTickId: r.open_tick_id as string,
    openPrice: r.open_price as string,
    status: r.status as "open" | "settled",
    settleTickId: (r.settle_tick_id as string | null) ?? null,
    settlePrice: (r.settle_price as string | null) ?? null,
    settleTickAtMs: num(r.settle_tick_at_ms),
    settledAtMs: num(r.settled_at_ms),
    outcome: (r.outcome as SecondsContractRow["outcome"]) ?? null,
    returned: r.returned === null ? null : BigInt(r.returned as string),
  };
}

/** The seconds contracts' read model (projected from the kernel's events) and the disclosure. */
export class SecondsRepository {
  constructor(private readonly database: Database) {}

  async contract(contractId: string): Promise<SecondsContractRow | undefined> {
    const rows = await sql<Raw>`SELECT ${columns} FROM rm_seconds_contracts
      WHERE contract_id = ${contractId}`.execute(this.database.db);
    return rows.rows[0] ? rowOf(rows.rows[0]) : undefined;
  }

  async page(ownerId: string, mode: string, f: SecondsListFilter): Promise<SecondsContractRow[]> {
    const rows = await sql<Raw>`SELECT ${columns} FROM rm_seconds_contracts
      WHERE owner_id = ${ownerId} AND mode = ${mode}
        AND (${f.status ?? null}::text IS NULL OR status = ${f.status ?? null})
        AND (${f.instrumentId ?? null}::text IS NULL OR instrument_id = ${f.instrumentId ?? null})
        AND (${f.outcome ?? null}::text IS NULL OR outcome = ${f.outcome ?? null})
        AND (${f.direction ?? null}::text IS NULL OR direction = ${f.direction ?? null})
        AND (${f.beforeId === undefined ? null : String(f.beforeId)}::int8 IS NULL
             OR id < ${f.beforeId === undefined ? null : String(f.beforeId)}::int8)
      ORDER BY id DESC LIMIT ${f.limit}`.execute(this.database.db);
    return rows.rows.map(rowOf);
  }

  /** Settled contracts of one mode since `fromMs`, counted by outcome. */
  async outcomes(mode: string, fromMs: number): Promise<Map<string, number>> {
    const rows = await sql<{ outcome: string; count: string }>`
      SELECT outcome, count(*)::text AS count FROM rm_seconds_contracts
      WHERE mode = ${mode} AND status = 'settled' AND settled_at_ms >= ${fromMs}
      GROUP BY outcome`.execute(this.database.db);
    return new Map(rows.rows.map((r) => [r.outcome, Number(r.count)]));
  }

  /**
   * Users' net result per asset from the ledger: the postings of contracts settled since
   * `fromMs` on the users' own accounts (stakes out, returned stakes and payouts in).
   */
  async usersNet(mode: string, fromMs: number): Promise<{ assetId: string; amount: bigint }[]> {
    const rows = await sql<{ asset_id: string; amount: string }>`
      SELECT l.asset_id, sum(l.amount)::text AS amount
      FROM rm_seconds_contracts c
      JOIN rm_statement_lines l ON l.reference = c.contract_id AND l.owner_id = c.owner_id
        AND l.mode = c.mode AND l.reason LIKE 'seconds_%'
      WHERE c.mode = ${mode} AND c.status = 'settled' AND c.settled_at_ms >= ${fromMs}
      GROUP BY l.asset_id ORDER BY l.asset_id`.execute(this.database.db);
    return rows.rows.map((r) => ({ assetId: r.asset_id, amount: BigInt(r.amount) }));
  }
}
