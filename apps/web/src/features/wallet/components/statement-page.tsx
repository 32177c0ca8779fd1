import type { StatementLineView } from "@candor/contract";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, EndOfList, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { accountName } from "../../../lib/names.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { fetchStatement, useBalances, walletKeys } from "../api/wallet-api.ts";
import { BalanceTable } from "./balance-table.tsx";

function Line({ line }: { line: StatementLineView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const negative = line.amount.startsWith("-");
  return (
    <li className="order-card" data-testid="statement-line">
      <div className="order-card-head">
        <span>{t(`coinCoin.statement.reasons.${line.reason}`, { defaultValue: line.reason })}</span>
        <span className={negative ? "change down" : "change up"}>
          {negative ? "" : "+"}
          <Amount value={line.amount} /> {line.asset}
        </span>
      </div>
      <dl>
        <dt>{t("coinCoin.order.time")}</dt>
        <dd>{format.dateTime(line.atMs)}</dd>
        <dt>{t("coinCoin.statement.counterparty")}</dt>
        <dd>{accountName(line.counterparty, t)}</dd>
        {line.orderId ? (
          <>
            <dt>{t("coinCoin.order.number")}</dt>
            <dd>{line.orderId}</dd>
          </>
        ) : null}
        {line.fillId ? (
          <>
            <dt>{t("coinCoin.fill.id")}</dt>
            <dd>{line.fillId}</dd>
          </>
        ) : null}
        {line.tickId ? (
          <>
            <dt>{t("coinCoin.fill.tick")}</dt>
            <dd>{line.tickId}</dd>
          </>
        ) : null}
        {line.operatorId ? (
          <>
            <dt>{t("coinCoin.statement.operator")}</dt>
            <dd>{line.operatorId}</dd>
          </>
        ) : null}
        {line.reference ? (
          <>
            <dt>{t("coinCoin.statement.reference")}</dt>
            <dd>{line.reference}</dd>
          </>
        ) : null}
        <dt>{t("coinCoin.statement.posting")}</dt>
        <dd>{line.postingSeq}</dd>
      </dl>
    </li>
  );
}

/** The fund wallet: balances per asset and the statement of postings, newest first. */
export function StatementPage() {
  const { t } = useTranslation();
  const session = useSession();
  const balances = useBalances();
  const lines = useInfiniteQuery({
    queryKey: walletKeys.statement(),
    queryFn: ({ pageParam }) =>
      fetchStatement({ limit: 20, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: "",
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const items = lines.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="page" aria-labelledby="statement-title">
      <h1 id="statement-title">{t("coinCoin.statement.title")}</h1>
      {isDemo(session) ? <p className="hint">{t("mode.demo")}</p> : null}
      <h2>{t("coinCoin.funds.title")}</h2>
      {balances.isPending ? <LoadingState /> : null}
      {balances.isError ? <ErrorState message={balances.error.message} /> : null}
      {balances.isSuccess ? (
        <BalanceTable balances={balances.data.items} testId="fund-balances" />
      ) : null}
      <h2>{t("coinCoin.statement.lines")}</h2>
      {lines.isPending ? <LoadingState /> : null}
      {lines.isError ? (
        <ErrorState message={lines.error.message} onRetry={() => void lines.refetch()} />
      ) : null}
      {lines.isSuccess && items.length === 0 ? <EmptyState /> : null}
      <ul className="order-list">
        {items.map((line) => (
          <Line key={`${line.postingSeq}:${line.asset}:${line.amount}`} line={line} />
        ))}
      </ul>
      {lines.hasNextPage ? (
        <Button size="small" onClick={() => void lines.fetchNextPage()}>
          {t("coinCoin.order.more")}
        </Button>
      ) : items.length > 0 ? (
        <EndOfList />
      ) : null}
    </section>
  );
}
