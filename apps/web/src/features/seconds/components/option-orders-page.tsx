import { useInfiniteQuery } from "@tanstack/react-query";
import { Button, Selector, Tabs } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, EndOfList, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { fetchSecondsContracts, secondsKeys } from "../api/seconds-api.ts";

type Outcome = "win" | "loss" | "tie" | "no_tick";
const outcomes: readonly Outcome[] = ["win", "loss", "tie", "no_tick"];

/** The OptionOrder list: in trade and completed contracts, with filters, newest first. */
export function OptionOrdersPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [tab, setTab] = useState<"open" | "settled">("open");
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const filter = { status: tab, ...(tab === "settled" && outcome ? { outcome } : {}) };
  const list = useInfiniteQuery({
    queryKey: secondsKeys.contracts(filter),
    queryFn: ({ pageParam }) =>
      fetchSecondsContracts({ ...filter, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: tab === "open" ? 1_000 : false,
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="page" aria-labelledby="option-orders-title">
      <h1 id="option-orders-title">{t("seconds.orders.title")}</h1>
      <Tabs activeKey={tab} onChange={(key) => setTab(key as "open" | "settled")}>
        <Tabs.Tab key="open" title={t("seconds.status.open")} />
        <Tabs.Tab key="settled" title={t("seconds.status.settled")} />
      </Tabs>
      {tab === "settled" ? (
        <Selector<Outcome>
          aria-label={t("seconds.orders.filter")}
          showCheckMark={false}
          columns={4}
          value={outcome ? [outcome] : []}
          onChange={(value) => setOutcome(value[0])}
          options={outcomes.map((value) => ({ label: t(`seconds.outcome.${value}`), value }))}
        />
      ) : null}
      {list.isPending ? <LoadingState /> : null}
      {list.isError ? (
        <ErrorState message={list.error.message} onRetry={() => void list.refetch()} />
      ) : null}
      {list.isSuccess && items.length === 0 ? <EmptyState /> : null}
      <ul className="order-list">
        {items.map((c) => (
          <li key={c.contractId} className="order-card" data-testid="option-order">
            <Link to={`/options/contracts/${encodeURIComponent(c.contractId)}`}>
              <dl>
                <dt>{c.instrumentId}</dt>
                <dd className={c.direction === "up" ? "change up" : "change down"}>
                  {t(`seconds.direction.${c.direction}`)} ·{" "}
                  {t("seconds.seconds", { count: c.periodS })}
                </dd>
                <dt>{t("seconds.contract.boughtAt")}</dt>
                <dd>{format.dateTime(c.boughtAtMs)}</dd>
                <dt>{t("seconds.contract.stake")}</dt>
                <dd>
                  <Amount value={c.stake} /> {c.asset}
                </dd>
                <dt>{t("seconds.contract.result")}</dt>
                <dd>
                  {c.outcome ? t(`seconds.outcome.${c.outcome}`) : t("seconds.status.open")}
                  {c.profit ? (
                    <>
                      {" "}
                      · <Amount value={c.profit} /> {c.asset}
                    </>
                  ) : null}
                </dd>
              </dl>
            </Link>
          </li>
        ))}
      </ul>
      {list.hasNextPage ? (
        <Button block onClick={() => void list.fetchNextPage()}>
          {t("seconds.orders.more")}
        </Button>
      ) : list.isSuccess && items.length > 0 ? (
        <EndOfList />
      ) : null}
      <Link to="/options">{t("seconds.title")}</Link>
    </section>
  );
}
