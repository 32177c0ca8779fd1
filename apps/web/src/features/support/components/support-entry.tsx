import { MessageOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSupportUnread } from "../api/use-support.ts";

/**
 * The customer-service entry with its unread badge (spec `getCustomerUnread`): support's
 * answers not read yet, live over the WebSocket. A plain count, not antd's Badge: sharing Badge
 * with the home route split it into a chunk of its own, past the home route's 180 KB budget.
 */
export default function SupportEntry() {
  const { t } = useTranslation();
  const unread = useSupportUnread();
  const label =
    unread > 0
      ? `${t("support.entry")} (${t("support.unread", { count: unread })})`
      : t("support.entry");
  return (
    <Link to="/support" className="support-entry" aria-label={label} data-testid="support-entry">
      <MessageOutline aria-hidden="true" fontSize={22} />
      {unread > 0 ? (
        <span className="support-entry-count" aria-hidden="true" data-testid="support-unread">
          {unread}
        </span>
      ) : null}
    </Link>
  );
}
