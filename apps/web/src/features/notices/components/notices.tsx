import { Badge, InfiniteScroll, List } from "antd-mobile";
import { useEffect } from "react";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { fetchNotice, fetchNotices, markNoticeRead, noticeKeys } from "../api/notices-api.ts";
import { useUnreadNotices } from "../api/use-unread-notices.ts";

const pageSize = 20;

/** All notices, newest first, loading more as the list scrolls. */
export function NoticesPage() {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const notices = useInfiniteQuery({
    queryKey: noticeKeys.list(i18n.language),
    queryFn: ({ pageParam }) => fetchNotices(pageSize, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? loaded : undefined;
    },
  });
  const items = notices.data?.pages.flatMap((page) => page.items) ?? [];
  const unread = useUnreadNotices();
  const unreadIds = new Set(unread.data?.ids ?? []);
  return (
    <section className="page" aria-labelledby="notices-title">
      <h1 id="notices-title">{t("notices.title")}</h1>
      {unread.data && unread.data.count > 0 ? (
        <p className="hint" data-testid="notices-unread">
          {t("notices.unread", { count: unread.data.count })}
        </p>
      ) : null}
      {notices.isPending ? <LoadingState /> : null}
      {notices.isError ? (
        <ErrorState message={notices.error.message} onRetry={() => void notices.refetch()} />
      ) : null}
      {notices.isSuccess && items.length === 0 ? <EmptyState /> : null}
      {items.length > 0 ? (
        <>
          <List>
            {items.map((notice) => (
              <List.Item
                key={notice.id}
                description={format.relative(notice.publishedAtMs, Date.now())}
                arrowIcon
              >
                <Link to={`/notices/${notice.id}`}>{notice.title}</Link>
                {unreadIds.has(notice.id) ? (
                  <Badge content={t("notices.new")} className="unread-badge" />
                ) : null}
              </List.Item>
            ))}
          </List>
          <InfiniteScroll
            hasMore={notices.hasNextPage}
            loadMore={async () => {
              await notices.fetchNextPage();
            }}
          >
            {notices.hasNextPage ? t("common.loading") : t("common.noMoreData")}
          </InfiniteScroll>
        </>
      ) : null}
    </section>
  );
}

/** One notice: title, publish time and body. */
export function NoticeDetailPage() {
  const { i18n } = useTranslation();
  const format = useFormat();
  const { noticeId = "" } = useParams();
  const notice = useQuery({
    queryKey: noticeKeys.one(i18n.language, noticeId),
    queryFn: () => fetchNotice(noticeId),
  });
  const session = useSession();
  const queryClient = useQueryClient();
  const shown = notice.isSuccess;
  // Opening a notice marks it read for the signed-in user; the answer is the new unread state.
  useEffect(() => {
    if (!shown || !session) return;
    void markNoticeRead(noticeId).then((unread) =>
      queryClient.setQueryData(noticeKeys.unread(session.user.id), unread),
    );
  }, [shown, session, noticeId, queryClient]);
  if (notice.isPending) return <LoadingState />;
  if (notice.isError) return <ErrorState message={notice.error.message} />;
  return (
    <article className="page" aria-labelledby="notice-title">
      <h1 id="notice-title">{notice.data.title}</h1>
      <p className="hint">{format.dateTime(notice.data.publishedAtMs)}</p>
      <p className="pre-line">{notice.data.body}</p>
    </article>
  );
}
