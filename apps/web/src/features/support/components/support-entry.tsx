import { Badge } from "antd-mobile";
import { MessageOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSupportUnread } from "../api/use-support.ts";

/**
 * The customer-service entry with its unread badge (spec `getCustomerUnread`): support's
 * answers not read yet, live over the WebSocket.
 */
export function SupportEntry() {
  const { t } = useTranslation();
  const unread = useSupportUnread();
  const label =
    unread > 0
      ? `${t("support.entry")} (${t("support.unread", { count: unread })})`
      : t("support.entry");
  return (
    <Link to="/support" className="support-entry" aria-label={label} data-testid="support-entry">
      <Badge content={unread > 0 ? String(unread) : null} data-testid="support-unread">
        <MessageOutline aria-hidden="true" fontSize={22} />
      </Badge>
    </Link>
  );
}
