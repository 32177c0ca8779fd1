import { Button, Card, Tag } from "antd-mobile";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { confirmThenRun } from "../../../lib/dialogs.tsx";
import { useFormat } from "../../../lib/format.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { useSession } from "../../../lib/session.ts";
import {
  activityKeys,
  fetchActivities,
  reserveActivity,
  type ActivityView,
} from "../api/activities-api.ts";

const stateColor = {
  upcoming: "default",
  bookable: "success",
  reserved: "primary",
  ended: "default",
} as const;

/**
 * Deposit-bonus activities (spec: index/activity): each activity's terms (deposit at least X,
 * get a bonus of Y, deposit within a week of reserving), its state for me (upcoming, bookable,
 * reserved, ended) and places left. The terms are shown again before reserving; a reservation
 * sets the bonus aside at once. Ended activities point to customer service.
 */
export function ActivityPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const session = useSession();
  const client = useQueryClient();
  const demo = session?.user.is_virtual === 1;
  const key = activityKeys.list(session?.user.id ?? "", demo ? "demo" : "real");
  const activities = useQuery({ queryKey: key, queryFn: () => fetchActivities() });

  const terms = (a: ActivityView) =>
    t("activity.terms", {
      minDeposit: `${format.amount(a.minDeposit)} ${a.asset}`,
      bonus: `${format.amount(a.bonus)} ${a.asset}`,
      days: a.depositDays,
    });

  const reserve = async (a: ActivityView) => {
    const outcome = await confirmThenRun(
      {
        title: t("activity.confirmTitle"),
        content: (
          <div data-testid="activity-confirm-terms">
            <p>{terms(a)}</p>
            <p>{t("activity.lapseRule", { days: a.depositDays })}</p>
          </div>
        ),
        confirmText: t("activity.reserve"),
      },
      () => reserveActivity(a.activityId, newIdempotencyKey()),
      t("activity.reserved"),
    );
    if (outcome !== "dismissed") await client.invalidateQueries({ queryKey: key });
  };

  const list = activities.data?.activities;
  return (
    <section className="page" aria-labelledby="activity-title">
      <h1 id="activity-title">{t("activity.title")}</h1>
      <p className="hint">{t("activity.intro")}</p>
      {activities.isPending ? <LoadingState /> : null}
      {activities.isError ? (
        <ErrorState message={activities.error.message} onRetry={() => void activities.refetch()} />
      ) : null}
      {list && list.length === 0 ? <EmptyState /> : null}
      {list?.map((a) => (
        <Card
          key={a.activityId}
          data-testid="activity-card"
          title={t("activity.cardTitle", {
            bonus: `${format.amount(a.bonus)} ${a.asset}`,
          })}
          extra={<Tag color={stateColor[a.state]}>{t(`activity.state.${a.state}`)}</Tag>}
        >
          <p>{terms(a)}</p>
          <p className="hint">
            {t("activity.window", {
              from: format.dateTime(Date.parse(a.startsAt)),
              to: format.dateTime(Date.parse(a.endsAt)),
            })}{" "}
            · {t("activity.remaining", { count: a.remaining, capacity: a.capacity })}
          </p>
          {a.state === "bookable" ? (
            <Button color="primary" size="small" onClick={() => void reserve(a)}>
              {t("activity.reserve")}
            </Button>
          ) : null}
          {a.state === "reserved" && a.reservation ? (
            <p data-testid="activity-reserved">
              {t("activity.depositBy", {
                minDeposit: `${format.amount(a.minDeposit)} ${a.asset}`,
                due: format.dateTime(Date.parse(a.reservation.dueAt)),
              })}{" "}
              {/* In demo mode the qualifying deposit is demo money added on the assets page. */}
              {demo ? (
                <Link to="/assets">{t("coinCoin.funds.getDemo")}</Link>
              ) : (
                <Link to="/assets/recharge">{t("activity.toDeposit")}</Link>
              )}
            </p>
          ) : null}
          {a.state === "ended" ? (
            <p className="hint" data-testid="activity-ended">
              {a.reservation?.status === "paid" ? t("activity.paid") : null}{" "}
              <Link to="/support">{t("activity.endedContact")}</Link>
            </p>
          ) : null}
          {a.state === "bookable" && a.reservation?.status === "lapsed" ? (
            <p className="hint">{t("activity.lapsed")}</p>
          ) : null}
        </Card>
      ))}
    </section>
  );
}
