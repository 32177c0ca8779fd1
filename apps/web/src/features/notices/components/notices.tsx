import { InfiniteScroll, List } from "antd-mobile";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { bcp47ByLocale, type Locale } from "@candor/contract/locales";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { formatDateTime } from "../../../lib/timestamp.ts";
import { fetchNotice, fetchNotices, noticeKeys } from "../api/notices-api.ts";

const pageSize = 20;

function useDateLocale() {
  const { i18n } = useTranslation();
  return bcp47ByLocale[i18n.language as Locale] ?? "en";
}

/** All notices, newest first, loading more as the list scrolls. */
export function NoticesPage() {
  const { t, i18n } = useTranslation();
  const dateLocale = useDateLocale();
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
                description={formatDateTime(notice.publishedAtMs, dateLocale)}
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
  const dateLocale = useDateLocale();
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
      <p className="hint">{formatDateTime(notice.data.publishedAtMs, dateLocale)}</p>
      <p className="pre-line">{notice.data.body}</p>
    </article>
  );
}
