import { Button, List, Toast } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { toastMs } from "../../../lib/feedback.ts";
import { useFormat } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { bpsToPercent } from "../../../lib/bps.ts";
import { fetchMyInvitations, invitationKeys } from "../api/invitations-api.ts";

/**
 * Invite friends (spec: index/friend): my id, invite code and link with copy buttons, the link's
 * QR code (rendered by the server), how many registered with my code and who (masked), and the
 * rebates paid to me in this mode: the shares in force, totals (all, today, this month) and records.
 */

export function InvitePage() {
  const { t } = useTranslation();
  const format = useFormat();
  const session = useSession();
  const navigate = useNavigate();
  const invitations = useQuery({
    queryKey: invitationKeys.me(session?.user.id ?? ""),
    queryFn: () => fetchMyInvitations(),
  });

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      Toast.show({ content: t("invite.copied"), duration: toastMs });
    } catch {
      Toast.show({ content: t("invite.copyFailed"), duration: toastMs });
    }
  };

  const data = invitations.data;
  return (
    <section className="page" aria-labelledby="invite-title">
      <h1 id="invite-title">{t("invite.title")}</h1>
      {invitations.isPending ? <LoadingState /> : null}
      {invitations.isError ? (
        <ErrorState
          message={invitations.error.message}
          onRetry={() => void invitations.refetch()}
        />
      ) : null}
      {data ? (
        <>
          <List>
            <List.Item extra={<span data-testid="invite-user-id">{data.userId}</span>}>
              {t("invite.userId")}
            </List.Item>
            <List.Item
              extra={
                <>
                  <code data-testid="invite-code">{data.inviteCode}</code>{" "}
                  <Button size="mini" onClick={() => void copy(data.inviteCode)}>
                    {t("invite.copy")}
                  </Button>
                </>
              }
            >
              {t("invite.code")}
            </List.Item>
            <List.Item
              description={
                <span className="invite-link" data-testid="invite-link">
                  {data.link}
                </span>
              }
              extra={
                <Button size="mini" onClick={() => void copy(data.link)}>
                  {t("invite.copy")}
                </Button>
              }
            >
              {t("invite.link")}
            </List.Item>
            <List.Item extra={<span data-testid="invite-count">{data.invitedCount}</span>}>
              {t("invite.invitedCount")}
            </List.Item>
          </List>
          <p className="hint">{t("invite.scan")}</p>
          <img
            className="qr-code"
            width={200}
            height={200}
            alt={t("invite.qrAlt")}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(data.qrSvg)}`}
          />
          <List>
            <List.Item
              arrow
              data-testid="invite-agent-link"
              onClick={() => void navigate("/agent")}
            >
              {t("agents.title")}
            </List.Item>
            <List.Item arrow onClick={() => void navigate("/agent/team")}>
              {t("agents.myTeam")}
            </List.Item>
          </List>
          <h2>{t("invite.rebates")}</h2>
          <p className="hint" data-testid="invite-rebate-shares">
            {data.rebateShares.spot + data.rebateShares.perp + data.rebateShares.stocks === 0
              ? t("invite.rebatesNone")
              : t("invite.rebateShares", {
                  spot: format.percent(bpsToPercent(data.rebateShares.spot)),
                  perp: format.percent(bpsToPercent(data.rebateShares.perp)),
                  stocks: format.percent(bpsToPercent(data.rebateShares.stocks)),
                })}
          </p>
          <p className="hint">{t("invite.rebatesHint")}</p>
          {data.rebateTotals.length === 0 ? (
            <EmptyState />
          ) : (
            <List data-testid="invite-rebate-totals">
              {data.rebateTotals.map((total) => (
                <List.Item
                  key={total.asset}
                  description={`${t("invite.rebateToday")}: ${format.amount(total.today)} · ${t("invite.rebateMonth")}: ${format.amount(total.month)}`}
                  extra={`${format.amount(total.total)} ${total.asset}`}
                >
                  {t("invite.rebateTotal")}
                </List.Item>
              ))}
            </List>
          )}
          <h2>{t("invite.rebateRecords")}</h2>
          {data.rebateRecords.length === 0 ? (
            <EmptyState />
          ) : (
            <List data-testid="invite-rebate-records">
              {data.rebateRecords.map((record, index) => (
                <List.Item
                  key={index}
                  description={`${t(`invite.product.${record.product}`)} · ${t(
                    "invite.rebateOfFee",
                    {
                      fee: `${format.amount(record.fee)} ${record.asset}`,
                    },
                  )} · ${format.dateTime(Date.parse(record.paidAt))}`}
                  extra={`+${format.amount(record.rebate)} ${record.asset}`}
                >
                  {record.account}
                </List.Item>
              ))}
            </List>
          )}
          <h2>{t("invite.records")}</h2>
          {data.records.length === 0 ? (
            <EmptyState />
          ) : (
            <List data-testid="invite-records">
              {data.records.map((record, index) => (
                <List.Item key={index} extra={format.date(Date.parse(record.joinedAt))}>
                  {record.account}
                </List.Item>
              ))}
            </List>
          )}
        </>
      ) : null}
    </section>
  );
}
