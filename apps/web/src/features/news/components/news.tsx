import { InfiniteScroll, List, Tabs } from "antd-mobile";
import { useEffect, useState } from "react";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import {
  fetchNews,
  fetchNewsItem,
  markNewsRead,
  newsKeys,
  newsTabs,
  type NewsTab,
} from "../api/news-api.ts";

const pageSize = 20;

/** News by category, newest first, loading more as the list scrolls. */
export function NewsPage() {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const [tab, setTab] = useState<NewsTab>("all");
  const news = useInfiniteQuery({
    queryKey: newsKeys.list(i18n.language, tab, undefined),
    queryFn: ({ pageParam }) => fetchNews(tab, pageSize, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? loaded : undefined;
    },
  });
  const items = news.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="page" aria-labelledby="news-title">
      <h1 id="news-title">{t("news.title")}</h1>
      <Tabs activeKey={tab} onChange={(key) => setTab(key as NewsTab)}>
        {newsTabs.map((key) => (
          <Tabs.Tab key={key} title={t(`news.categories.${key}`)} />
        ))}
      </Tabs>
      {news.isPending ? <LoadingState /> : null}
      {news.isError ? (
        <ErrorState message={news.error.message} onRetry={() => void news.refetch()} />
      ) : null}
      {news.isSuccess && items.length === 0 ? <EmptyState /> : null}
      {items.length > 0 ? (
        <>
          <List data-testid="news-list">
            {items.map((item) => (
              <List.Item
                key={item.id}
                description={`${format.relative(item.publishedAtMs, Date.now())} · ${t("news.reads", { count: item.readCount })}`}
                arrowIcon
              >
                <Link to={`/news/${item.id}`}>{item.title}</Link>
              </List.Item>
            ))}
          </List>
          <InfiniteScroll
            hasMore={news.hasNextPage}
            loadMore={async () => {
              await news.fetchNextPage();
            }}
          >
            {news.hasNextPage ? t("common.loading") : t("common.noMoreData")}
          </InfiniteScroll>
        </>
      ) : null}
    </section>
  );
}

/** One news item: title, time, readers and body; opening it counts the signed-in reader. */
export function NewsDetailPage() {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const { newsId = "" } = useParams();
  const queryClient = useQueryClient();
  const session = useSession();
  const item = useQuery({
    queryKey: newsKeys.one(i18n.language, newsId),
    queryFn: () => fetchNewsItem(newsId),
  });
  const shown = item.isSuccess;
  useEffect(() => {
    if (!shown || !session) return;
    void markNewsRead(newsId).then(({ readCount }) =>
      queryClient.setQueryData(newsKeys.one(i18n.language, newsId), (old: typeof item.data) =>
        old ? { ...old, readCount } : old,
      ),
    );
    // item.data is not a dependency: the count is written into it, once per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown, session, newsId, queryClient, i18n.language]);
  if (item.isPending) return <LoadingState />;
  if (item.isError) return <ErrorState message={item.error.message} />;
  return (
    <article className="page" aria-labelledby="news-item-title">
      <h1 id="news-item-title">{item.data.title}</h1>
      <p className="hint" data-testid="news-meta">
        {format.dateTime(item.data.publishedAtMs)} ·{" "}
        {t("news.reads", { count: item.data.readCount })}
      </p>
      <p className="pre-line">{item.data.body}</p>
    </article>
  );
}
