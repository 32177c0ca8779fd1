import { List } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { fetchNews, newsKeys } from "../api/news-api.ts";

// Apart from the news pages, so that the home route carries only this (the budget).
/** The three newest headlines on the home page, and a link to all news. */
export function NewsHeadlines() {
  const { t, i18n } = useTranslation();
  const latest = useQuery({
    queryKey: newsKeys.list(i18n.language, "all", "home"),
    queryFn: () => fetchNews("all", 3, 0),
  });
  const items = latest.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <List
      header={
        <span className="list-header-row">
          {t("news.latest")} <Link to="/news">{t("news.more")}</Link>
        </span>
      }
      data-testid="news-headlines"
    >
      {items.map((item) => (
        <List.Item key={item.id}>
          <Link to={`/news/${item.id}`}>{item.title}</Link>
        </List.Item>
      ))}
    </List>
  );
}
