import { Button, List, ProgressBar, Tag } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { bpsToPercent } from "../../../lib/bps.ts";
import { useFormat } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { agentKeys, fetchMyAgent, fetchMyAgentHistory } from "../api/agents-api.ts";

/** Stock fees are the stock product's; contract fees the perpetual's (spec §3); spot its own. */
const productOrder = ["stocks", "perp", "spot"] as const;

/**
 * Agent statistics (spec §2, §3 "Agent"): my level (LV) in this mode, the rebate ratios it gives
 * per product, the team (members, valid members and volume today, the last counted day), what
 * keeps the level and what the next one needs, the team's fees and my rebates split into stock
 * and contract (and spot), today, this month and in total, every level's conditions, and my
 * level history. Every figure comes from the kernel or the journal's read model as decimal
 * strings; levels change only at the UTC day boundary.
 */
export function AgentPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const session = useSession();
  const userId = session?.user.id ?? "";
  const mode = session?.user.is_virtual === 1 ? "demo" : "real";
  const agent = useQuery({ queryKey: agentKeys.me(userId, mode), queryFn: () => fetchMyAgent() });
  const history = useQuery({
    queryKey: agentKeys.history(userId, mode),
    queryFn: () => fetchMyAgentHistory(),
  });
  const data = agent.data;
  const money = (amount: string) => `${format.amount(amount)} ${data?.asset ?? ""}`;
  const levelName = (level: number) =>
    level === 0 ? t("agents.noLevel") : t("agents.levelName", { level });
  const ratios = (bps: { spot: number; perp: number; stocks: number }) =>
    t("agents.ratios", {
      stocks: format.percent(bpsToPercent(bps.stocks)),
      perp: format.percent(bpsToPercent(bps.perp)),
      spot: format.percent(bpsToPercent(bps.spot)),
    });
  const conditions = (members: number, volume: string) =>
    [
      members > 0 ? t("agents.condMembers", { members }) : null,
      volume !== "0" ? t("agents.condVolume", { amount: money(volume) }) : null,
    ]
      .filter((c): c is string => c !== null)
      .join(` ${t("agents.and")} `) || t("agents.condNone");
  return (
    <section className="page" aria-labelledby="agent-title">
      <h1 id="agent-title">{t("agents.title")}</h1>
      {agent.isPending ? <LoadingState /> : null}
      {agent.isError ? (
        <ErrorState message={agent.error.message} onRetry={() => void agent.refetch()} />
      ) : null}
      {data && data.asset === null ? (
        <p className="hint" data-testid="agent-not-offered">
          {t("agents.notOffered")}
        </p>
      ) : null}
      {data && data.asset !== null ? (
        <>
          <p className="hint">{t("agents.intro", { asset: data.asset })}</p>
          <List>
            <List.Item extra={<strong data-testid="agent-level">{levelName(data.level)}</strong>}>
              {t("agents.current")}
            </List.Item>
            <List.Item description={ratios(data.rebateBps)}>{t("agents.rebateRatio")}</List.Item>
            <List.Item extra={<span data-testid="agent-members">{data.team.members}</span>}>
              {t("agents.members")}
            </List.Item>
            <List.Item extra={<span data-testid="agent-valid">{data.team.validMembersToday}</span>}>
              {t("agents.validToday")}
            </List.Item>
            <List.Item
              extra={<span data-testid="agent-volume">{money(data.team.volumeToday)}</span>}
            >
              {t("agents.volumeToday")}
            </List.Item>
            {data.team.lastDay !== null ? (
              <List.Item
                description={t("agents.lastDayFigures", {
                  members: data.team.lastDay.validMembers,
                  amount: money(data.team.lastDay.volume),
                })}
                extra={format.date(Date.parse(data.team.lastDay.date))}
              >
                {t("agents.lastDay")}
              </List.Item>
            ) : null}
          </List>
          <Button
            block
            fill="outline"
            data-testid="agent-team-link"
            onClick={() => void navigate("/agent/team")}
          >
            {t("agents.myTeam")}
          </Button>
          {data.keep !== null ? (
            <div data-testid="agent-keep">
              <h2>{t("agents.keepTitle", { level: levelName(data.level) })}</h2>
              <p>
                {conditions(data.keep.members, data.keep.volume)}{" "}
                <Tag color={data.keep.met ? "primary" : "default"} fill="outline">
                  {data.keep.met ? t("agents.keepMet") : t("agents.keepNotYet")}
                </Tag>
              </p>
            </div>
          ) : null}
          {data.next === null ? (
            <p className="hint" data-testid="agent-top">
              {t("agents.top")}
            </p>
          ) : (
            <div data-testid="agent-progress">
              <h2>{t("agents.next", { level: levelName(data.next.level) })}</h2>
              <ProgressBar
                percent={data.next.progressBps / 100}
                text={format.percent(bpsToPercent(data.next.progressBps))}
              />
              <p>
                {t("agents.needed", {
                  members: data.next.membersNeeded,
                  amount: money(data.next.volumeNeeded),
                })}
              </p>
            </div>
          )}
          <p className="hint">{t("agents.dayBoundary")}</p>
        </>
      ) : null}
      {data ? (
        <>
          <h2>{t("agents.earnings")}</h2>
          {data.earnings.length === 0 ? (
            <EmptyState />
          ) : (
            <List data-testid="agent-earnings">
              {productOrder.flatMap((product) =>
                data.earnings
                  .filter((row) => row.product === product)
                  .map((row) => (
                    <List.Item
                      key={`${row.product}-${row.asset}`}
                      data-testid={`agent-earnings-${row.product}`}
                      description={
                        <>
                          <div>
                            {t("agents.fees")}: {t("agents.today")} {format.amount(row.fees.today)}{" "}
                            · {t("agents.month")} {format.amount(row.fees.month)} ·{" "}
                            {t("agents.total")} {format.amount(row.fees.total)}
                          </div>
                          <div>
                            {t("agents.rebates")}: {t("agents.today")}{" "}
                            <span data-testid={`agent-rebate-today-${row.product}`}>
                              {format.amount(row.rebates.today)}
                            </span>{" "}
                            · {t("agents.month")} {format.amount(row.rebates.month)} ·{" "}
                            {t("agents.total")} {format.amount(row.rebates.total)}
                          </div>
                        </>
                      }
                      extra={row.asset}
                    >
                      {t(`agents.product.${row.product}`)}
                    </List.Item>
                  )),
              )}
            </List>
          )}
        </>
      ) : null}
      {data && data.levels.length > 0 ? (
        <>
          <h2>{t("agents.levels")}</h2>
          <List data-testid="agent-levels">
            {data.levels.map((level) => (
              <List.Item
                key={level.level}
                title={levelName(level.level)}
                description={
                  <>
                    <div>
                      {t("agents.upgrade")}: {conditions(level.upgradeMembers, level.upgradeVolume)}
                    </div>
                    <div>
                      {t("agents.keep")}: {conditions(level.keepMembers, level.keepVolume)}
                    </div>
                    <div>{ratios(level.rebateBps)}</div>
                  </>
                }
                extra={
                  level.level === data.level ? (
                    <Tag color="primary">{t("agents.current")}</Tag>
                  ) : null
                }
              />
            ))}
          </List>
        </>
      ) : null}
      <h2>{t("agents.history")}</h2>
      {history.data && history.data.changes.length === 0 ? <EmptyState /> : null}
      {history.data && history.data.changes.length > 0 ? (
        <List data-testid="agent-history">
          {history.data.changes.map((change, index) => (
            <List.Item
              key={index}
              description={t("agents.lastDayFigures", {
                members: change.validMembers,
                amount: money(change.volume),
              })}
              extra={format.date(Date.parse(change.date))}
            >
              {t("agents.change", {
                from: levelName(change.fromLevel),
                to: levelName(change.toLevel),
              })}
            </List.Item>
          ))}
        </List>
      ) : null}
    </section>
  );
}
