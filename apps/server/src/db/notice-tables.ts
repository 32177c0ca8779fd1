import type { Generated } from "kysely";

/** Tables of notices (migration 0008) and news and read marks (migration 0017). */
export interface NoticeTables {
  notices: {
    id: Generated<bigint>;
    published_at: Date;
    created_at: Generated<Date>;
    operator_id: string | null;
  };
  notice_texts: { notice_id: bigint; locale: string; title: string; body: string };
  notice_reads: { notice_id: bigint; user_id: bigint; read_at: Date };
  news: {
    id: Generated<bigint>;
    category: string;
    symbol: string | null;
    published_at: Date;
    operator_id: string;
    created_at: Generated<Date>;
  };
  news_texts: { news_id: bigint; locale: string; title: string; body: string };
  news_reads: { news_id: bigint; user_id: bigint; read_at: Date };
}
