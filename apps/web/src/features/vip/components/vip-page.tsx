import { List, ProgressBar, Tag } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { bpsToPercent } from "../../../lib/bps.ts";
import { fetchMyVip, vipKeys } from "../api/vip-api.ts";

/**
 * The VIP tab (spec: home navigation "VIP"): the level reached in this mode, the 30-day volume
 * and balance it comes from, progress to the next level, and every level's benefits (trading
 * fee discount, daily withdrawal limit). Every figure comes from the kernel, as decimal strings.
 */
export function VipPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const session = useSession();
  const vip = useQuery({
    queryKey: vipKeys.me(session?.user.id ?? "", session?.user.is_virtual === 1 ? "demo" : "real"),
    queryFn: () => fetchMyVip(),
  });
  const data = vip.data;
  const money = (amount: string) => `${format.amount(amount)} ${data?.asset ?? ""}`;
  const levelName = (level: number) => t("vip.levelName", { level });
  return (
    <section className="page" aria-labelledby="vip-title">
      <h1 id="vip-title">{t("nav.vip")}</h1>
      {vip.isPending ? <LoadingState /> : null}
      {vip.isError ? (
        <ErrorState message={vip.error.message} onRetry={() => void vip.refetch()} />
      ) : null}
      {data && data.asset === null ? (
        <p className="hint" data-testid="vip-not-offered">
          {t("vip.notOffered")}
        </p>
      ) : null}
      {data && data.asset !== null ? (
        <>
          <p className="hint">{t("vip.intro", { asset: data.asset })}</p>
          <List>
            <List.Item
              extra={
                <strong data-testid="vip-level">
                  {data.level === null ? t("vip.noLevel") : levelName(data.level)}
                </strong>
              }
            >
              {t("vip.current")}
            </List.Item>
            <List.Item extra={<span data-testid="vip-volume">{money(data.volume30d)}</span>}>
              {t("vip.volume30d")}
            </List.Item>
            <List.Item extra={money(data.balance)}>{t("vip.balance")}</List.Item>
            <List.Item extra={money(data.withdrawnToday)}>{t("vip.withdrawnToday")}</List.Item>
          </List>
          {data.next === null ? (
            <p className="hint" data-testid="vip-top">
              {t("vip.top")}
            </p>
          ) : (
            <div className="vip-progress" data-testid="vip-progress">
              <h2>{t("vip.next", { level: levelName(data.next.level) })}</h2>
              <ProgressBar
                percent={data.next.progressBps / 100}
                text={format.percent(bpsToPercent(data.next.progressBps))}
              />
              {data.next.volumeNeeded !== null ? (
                <p>{t("vip.needVolume", { amount: money(data.next.volumeNeeded) })}</p>
              ) : null}
              {data.next.balanceNeeded !== null ? (
                <p>{t("vip.needBalance", { amount: money(data.next.balanceNeeded) })}</p>
              ) : null}
              {data.next.volumeNeeded !== null && data.next.balanceNeeded !== null ? (
                <p className="hint">{t("vip.either")}</p>
              ) : null}
            </div>
          )}
          <h2>{t("vip.benefits")}</h2>
          <List data-testid="vip-levels">
            {data.levels.map((level) => {
              const conditions = [
                level.minVolume !== "0" ? t("vip.condVolume", { amount: money(level.minVolume) }) : null, // prettier-ignore
                level.minBalance !== "0" ? t("vip.condBalance", { amount: money(level.minBalance) }) : null, // prettier-ignore
              ].filter((c): c is string => c !== null);
              return (
                <List.Item
                  key={level.level}
                  title={conditions.length === 0 ? t("vip.condNone") : conditions.join(` ${t("vip.or")} `)} // prettier-ignore
                  description={
                    <>
                      <div>
                        {t("vip.feeDiscount", {
                          percent: format.percent(bpsToPercent(level.feeDiscountBps)),
                        })}
                      </div>
                      <div>
                        {level.withdrawDailyLimit === null
                          ? t("vip.withdrawNoLimit")
                          : t("vip.withdrawLimit", { amount: money(level.withdrawDailyLimit) })}
                      </div>
                    </>
                  }
                  extra={
                    level.level === data.level ? (
                      <Tag color="primary">{t("vip.current")}</Tag>
                    ) : null
                  }
                >
                  {levelName(level.level)}
                </List.Item>
              );
            })}
          </List>
        </>
      ) : null}
    </section>
  );
}
