import { Badge, NoticeBar } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { fetchNotices, noticeKeys } from "../api/notices-api.ts";
import { useUnreadNotices } from "../api/use-unread-notices.ts";

// Apart from the notices pages, so that the home route does not carry them (the budget).
/** The newest notice as a strip on the home page; tapping it opens the list. */
export function NoticesStrip() {
  const { t, i18n } = useTranslation();
  const latest = useQuery({
    queryKey: noticeKeys.latest(i18n.language),
    queryFn: () => fetchNotices(1, 0),
  });
  const unread = useUnreadNotices();
  const notice = latest.data?.items[0];
  const unreadCount = unread.data?.count ?? 0;
  if (latest.isError) {
    return <NoticeBar color="alert" content={latest.error.message} data-testid="notices-strip" />;
  }
  if (!notice) return null;
  return (
    <div className="notice-row">
      <Link to={`/notices/${notice.id}`} className="notice-link" data-testid="notices-strip">
        <NoticeBar content={notice.title} color="info" aria-label={t("notices.title")} />
      </Link>
      {unreadCount > 0 ? (
        <Link to="/notices" className="notice-unread" data-testid="notices-unread-badge">
          <Badge content={unreadCount} aria-label={t("notices.unread", { count: unreadCount })} />
        </Link>
      ) : null}
    </div>
  );
}
