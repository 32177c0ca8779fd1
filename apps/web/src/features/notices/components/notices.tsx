import { InfiniteScroll, List } from "antd-mobile";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { fetchNotice, fetchNotices, noticeKeys } from "../api/notices-api.ts";

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
  return (
    <section className="page" aria-labelledby="notices-title">
      <h1 id="notices-title">{t("notices.title")}</h1>
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
