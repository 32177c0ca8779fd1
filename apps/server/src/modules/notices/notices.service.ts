import type { Locale, NoticeView } from "@candor/contract";
import { AppError } from "../../http/app-error.ts";
import type { NoticeRow, NoticesRepository } from "./notices.repository.ts";

function toView(row: NoticeRow): NoticeView {
  return {
    id: String(row.id),
    locale: row.locale,
    title: row.title,
    body: row.body,
    publishedAtMs: new Date(row.publishedAt).getTime(),
  };
}

/** Published notices in the reader's language (English where a notice has no translation). */
export class NoticesService {
  constructor(
    private readonly repository: NoticesRepository,
    /** Milliseconds since the epoch: notices published later stay hidden. */
    private readonly now: () => number,
  ) {}

  async list(locale: Locale, limit: number, offset: number) {
    const page = await this.repository.page(locale, limit, offset, new Date(this.now()));
    return { items: page.items.map(toView), total: page.total };
  }

  /** One published notice; `not_found` when it does not exist or is not published yet. */
  async get(locale: Locale, noticeId: bigint): Promise<NoticeView> {
    const row = await this.repository.byId(locale, noticeId, new Date(this.now()));
    if (!row) throw new AppError("not_found");
    return toView(row);
  }

  /** The user's unread notices. */
  async unread(userId: bigint) {
    const unread = await this.repository.unread(userId, new Date(this.now()));
    return { count: unread.count, ids: unread.ids.map(String) };
  }

  /** Marks a notice read (again: nothing changes) and answers what is still unread. */
  async markRead(userId: bigint, noticeId: bigint) {
    if (!(await this.repository.markRead(userId, noticeId, new Date(this.now())))) {
      throw new AppError("not_found");
    }
    return this.unread(userId);
  }

  /** Publishes a notice (operator): its texts per locale, English required. */
  async publish(
    operatorId: string,
    input: {
      publishAtMs?: number;
      texts: Partial<Record<Locale, { title: string; body: string }>>;
    },
  ) {
    const publishedAtMs = input.publishAtMs ?? this.now();
    const texts = Object.entries(input.texts).flatMap(([locale, text]) =>
      text ? [{ locale, title: text.title, body: text.body }] : [],
    );
    const id = await this.repository.insert(new Date(publishedAtMs), operatorId, texts);
    return { id: String(id), publishedAtMs };
  }
}
