import { sql } from "kysely";
import type { Hex } from "viem";
import type { Database } from "../../db/database.ts";

export type ChainDepositState =
  "confirming" | "crediting" | "credited" | "dropped" | "below_minimum";

/** One row of `chain_deposits`. */
export interface ChainDepositRow {
  id: bigint;
  network: string;
  chainId: number;
  txHash: string;
  logIndex: number;
  ownerId: string;
  address: string;
  token: string;
  assetId: string;
  /** Token units. */
  amount: bigint;
  /** The asset's smallest units. */
  creditAmount: bigint;
  blockNumber: bigint;
  blockHash: string;
  state: ChainDepositState;
  postingSeq: number | null;
  seenAtMs: number;
  creditedAtMs: number | null;
}

function toRow(row: Record<string, unknown>): ChainDepositRow {
  return {
    id: BigInt(String(row.id)),
    network: String(row.network),
    chainId: Number(row.chain_id),
    txHash: String(row.tx_hash),
    logIndex: Number(row.log_index),
    ownerId: String(row.owner_id),
    address: String(row.address),
    token: String(row.token),
    assetId: String(row.asset_id),
    amount: BigInt(String(row.amount)),
    creditAmount: BigInt(String(row.credit_amount)),
    blockNumber: BigInt(String(row.block_number)),
    blockHash: String(row.block_hash),
    state: row.state as ChainDepositState,
    postingSeq: row.posting_seq === null ? null : Number(row.posting_seq),
    seenAtMs: Number(row.seen_at_ms),
    creditedAtMs: row.credited_at_ms === null ? null : Number(row.credited_at_ms),
  };
}

/** The only file of the chain module that speaks SQL. */
export class ChainRepository {
  constructor(private readonly database: Database) {}

  /** Records a derived address (idempotent); the address recorded for the owner. */
  async saveAddress(input: {
    ownerId: string;
    network: string;
    index: bigint;
    address: string;
    atMs: number;
  }): Promise<string> {
    await sql`
      INSERT INTO chain_deposit_addresses (owner_id, network, derivation_index, address, created_at_ms)
      VALUES (${input.ownerId}, ${input.network}, ${input.index.toString()}, ${input.address}, ${input.atMs})
      ON CONFLICT DO NOTHING`.execute(this.database.db);
    const rows = await sql<{ address: string }>`
      SELECT address FROM chain_deposit_addresses
      WHERE owner_id = ${input.ownerId} AND network = ${input.network}`.execute(this.database.db);
    return rows.rows[0]!.address;
  }

  /** Owners of the given (lower-case) addresses on a network. */
  async ownersOf(network: string, addresses: string[]): Promise<Map<string, string>> {
    if (addresses.length === 0) return new Map();
    const rows = await sql<{ address: string; owner_id: string }>`
      SELECT address, owner_id FROM chain_deposit_addresses
      WHERE network = ${network} AND address = ANY(${addresses}::text[])`.execute(this.database.db);
    return new Map(rows.rows.map((r) => [r.address, r.owner_id]));
  }

  async cursor(chainId: number): Promise<bigint | undefined> {
    const rows = await sql<{ scanned_to: string }>`
      SELECT scanned_to FROM chain_cursors WHERE chain_id = ${chainId}`.execute(this.database.db);
    return rows.rows[0] ? BigInt(rows.rows[0].scanned_to) : undefined;
  }

  async setCursor(chainId: number, scannedTo: bigint): Promise<void> {
    await sql`
      INSERT INTO chain_cursors (chain_id, scanned_to) VALUES (${chainId}, ${scannedTo.toString()})
      ON CONFLICT (chain_id) DO UPDATE SET scanned_to = EXCLUDED.scanned_to`.execute(
      this.database.db,
    );
  }

  /**
   * Records a seen transfer once. Seen again (the same chain, hash and log index) it only moves
   * a dropped one back to confirming in its new block; a credited one never changes.
   */
  async recordSeen(input: Omit<ChainDepositRow, "id" | "postingSeq" | "creditedAtMs">) {
    await sql`
      INSERT INTO chain_deposits (network, chain_id, tx_hash, log_index, owner_id, address, token,
        asset_id, amount, credit_amount, block_number, block_hash, state, seen_at_ms)
      VALUES (${input.network}, ${input.chainId}, ${input.txHash}, ${input.logIndex},
        ${input.ownerId}, ${input.address}, ${input.token}, ${input.assetId},
        ${input.amount.toString()}, ${input.creditAmount.toString()},
        ${input.blockNumber.toString()}, ${input.blockHash}, ${input.state}, ${input.seenAtMs})
      ON CONFLICT (chain_id, tx_hash, log_index) DO UPDATE
        SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash,
          state = CASE WHEN chain_deposits.state = 'dropped' THEN EXCLUDED.state
            ELSE chain_deposits.state END
        WHERE chain_deposits.state IN ('dropped', 'confirming', 'below_minimum')`.execute(
      this.database.db,
    );
  }

  /** Deposits of a chain still waiting (confirming) or interrupted while crediting. */
  async open(chainId: number): Promise<ChainDepositRow[]> {
    const rows = await sql<Record<string, unknown>>`
      SELECT * FROM chain_deposits WHERE chain_id = ${chainId}
        AND state IN ('confirming', 'crediting') ORDER BY id`.execute(this.database.db);
    return rows.rows.map(toRow);
  }

  /** confirming → dropped (a reorganisation removed its block). */
  async drop(id: bigint): Promise<void> {
    await sql`
      UPDATE chain_deposits SET state = 'dropped'
      WHERE id = ${id.toString()} AND state = 'confirming'`.execute(this.database.db);
  }

  /** confirming → crediting; false when another caller claimed it first. */
  async claim(id: bigint): Promise<boolean> {
    const rows = await sql`
      UPDATE chain_deposits SET state = 'crediting'
      WHERE id = ${id.toString()} AND state = 'confirming' RETURNING id`.execute(this.database.db);
    return rows.rows.length === 1;
  }

  async credited(id: bigint, postingSeq: number, atMs: number): Promise<void> {
    await sql`
      UPDATE chain_deposits SET state = 'credited', posting_seq = ${postingSeq},
        credited_at_ms = ${atMs}
      WHERE id = ${id.toString()} AND state = 'crediting'`.execute(this.database.db);
  }

  /** The posting of an earlier credit by this command id, from the statement read model. */
  async postingOfCommand(commandId: string): Promise<number | undefined> {
    const rows = await sql<{ posting_seq: string }>`
      SELECT posting_seq FROM rm_statement_lines WHERE command_id = ${commandId}
      LIMIT 1`.execute(this.database.db);
    return rows.rows[0] ? Number(rows.rows[0].posting_seq) : undefined;
  }

  async ofOwner(ownerId: string, limit: number): Promise<ChainDepositRow[]> {
    const rows = await sql<Record<string, unknown>>`
      SELECT * FROM chain_deposits WHERE owner_id = ${ownerId}
      ORDER BY id DESC LIMIT ${limit}`.execute(this.database.db);
    return rows.rows.map(toRow);
  }

  /** The signed payout of a withdrawal, if one was signed. */
  async sendOf(
    withdrawalId: bigint,
  ): Promise<{ txHash: Hex; raw: Hex; chainId: number } | undefined> {
    const rows = await sql<{ tx_hash: string; raw_tx: string; chain_id: number }>`
      SELECT tx_hash, raw_tx, chain_id FROM chain_withdrawal_sends
      WHERE withdrawal_id = ${withdrawalId.toString()}`.execute(this.database.db);
    const row = rows.rows[0];
    return row
      ? { txHash: row.tx_hash as Hex, raw: row.raw_tx as Hex, chainId: Number(row.chain_id) }
      : undefined;
  }

  /** Stores a signed payout once per withdrawal; false when one was stored first. */
  async saveSend(input: {
    withdrawalId: bigint;
    chainId: number;
    txHash: Hex;
    raw: Hex;
    nonce: bigint;
    atMs: number;
  }): Promise<boolean> {
    const rows = await sql`
      INSERT INTO chain_withdrawal_sends (withdrawal_id, chain_id, tx_hash, raw_tx, nonce, signed_at_ms)
      VALUES (${input.withdrawalId.toString()}, ${input.chainId}, ${input.txHash}, ${input.raw},
        ${input.nonce.toString()}, ${input.atMs})
      ON CONFLICT (withdrawal_id) DO NOTHING RETURNING withdrawal_id`.execute(this.database.db);
    return rows.rows.length === 1;
  }
}
