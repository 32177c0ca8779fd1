import type { Generated } from "kysely";

/** Tables of notices (migration 0008). */
export interface NoticeTables {
  notices: { id: Generated<bigint>; published_at: Date; created_at: Generated<Date> };
  notice_texts: { notice_id: bigint; locale: string; title: string; body: string };
}
