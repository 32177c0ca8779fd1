import { sql } from "kysely";
import type { UploadPurpose } from "@candor/contract";
import type { Database } from "../../db/database.ts";

/** One stored upload as the `uploads` table records it. */
export interface UploadRow {
  id: string;
  ownerId: string;
  purpose: UploadPurpose;
  contentType: "image/jpeg" | "image/png";
  byteSize: number;
  width: number;
  height: number;
  sha256: string;
  createdAtMs: number;
}

/** The only file of the uploads module that speaks SQL. */
export class UploadsRepository {
  constructor(private readonly database: Database) {}

  async insert(row: UploadRow): Promise<void> {
    await sql`
      INSERT INTO uploads (id, owner_id, purpose, content_type, byte_size, width, height, sha256,
        created_at_ms)
      VALUES (${row.id}, ${row.ownerId}, ${row.purpose}, ${row.contentType}, ${row.byteSize},
        ${row.width}, ${row.height}, ${row.sha256}, ${row.createdAtMs})`.execute(this.database.db);
  }

  async delete(id: string): Promise<void> {
    await sql`DELETE FROM uploads WHERE id = ${id}`.execute(this.database.db);
  }

  async find(id: string): Promise<UploadRow | undefined> {
    const rows = await sql<Record<string, unknown>>`
      SELECT * FROM uploads WHERE id = ${id}`.execute(this.database.db);
    const row = rows.rows[0];
    if (!row) return undefined;
    return {
      id: String(row.id),
      ownerId: String(row.owner_id),
      purpose: row.purpose as UploadPurpose,
      contentType: row.content_type as UploadRow["contentType"],
      byteSize: Number(row.byte_size),
      width: Number(row.width),
      height: Number(row.height),
      sha256: String(row.sha256),
      createdAtMs: Number(row.created_at_ms),
    };
  }
}
