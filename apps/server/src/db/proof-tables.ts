/** Tables of the proof of liabilities (migration 0009). */
export interface ProofTables {
  proof_publications: {
    sequence: bigint;
    published_at: Date;
    root_hash: string;
    root_json: string;
  };
  proof_secret: { id: number; secret: string };
}
