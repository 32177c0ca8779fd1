import { List } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Transparency } from "@candor/contract";
import { formatDecimal } from "@candor/decimal";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { accountName } from "../../../lib/names.ts";
import { fetchSecondsOutcomes, fetchTransparency, proofKeys } from "../api/proof-api.ts";

/**
 * Transparency (issue 24): what Candor owes its real-money users, what its own system accounts
 * hold, and the latest proof of liabilities — every figure read from the ledger by the server
 * at one journal sequence, none typed in by an operator.
 */
export function TransparencyPage() {
  const { t } = useTranslation();
  const figures = useQuery({ queryKey: proofKeys.transparency(), queryFn: fetchTransparency });
  if (figures.isPending) return <LoadingState />;
  if (figures.isError) {
    return <ErrorState message={figures.error.message} onRetry={() => void figures.refetch()} />;
  }
  const data = figures.data;
  const owed = data.liabilities.filter((row) => row.amount !== "0");
  return (
    <section className="page" aria-labelledby="transparency-title">
      <h1 id="transparency-title">{t("proof.transparency.title")}</h1>
      <p className="hint">{t("proof.transparency.explain", { sequence: data.sequence })}</p>
      <List header={t("proof.transparency.owed", { users: data.users })} data-testid="owed">
        {owed.map((row) => (
          <List.Item key={row.assetId} extra={<Amount value={row.amount} />}>
            {row.assetId}
          </List.Item>
        ))}
      </List>
      <List header={t("proof.transparency.system")} data-testid="system-accounts">
        {data.systemAccounts.map((row) => (
          <List.Item
            key={`${row.ownerId} ${row.assetId}`}
            description={accountName(row.ownerId, t)}
            extra={<Amount value={row.amount} />}
          >
            {row.assetId}
          </List.Item>
        ))}
      </List>
      <p className="hint">{t("proof.transparency.external")}</p>
      <SpotResults results={data.spotResults} />
      <SecondsResults />
      <SystemHistory history={data.systemHistory} />
      <p>
        <Link to="/proof">
          {data.proof
            ? t("proof.transparency.proofAt", { sequence: data.proof.sequence })
            : t("proof.transparency.noProof")}
        </Link>
      </p>
    </section>
  );
}

/** How many real-money spot traders lost money over the period, from the ledger. */
function SpotResults({ results }: { results: Transparency["spotResults"] }) {
  const { t } = useTranslation();
  const format = useFormat();
  // Percent with two decimals, rounded down, in integers: lost × 10,000 / accounts hundredths.
  const share =
    results.accounts === 0
      ? null
      : formatDecimal((BigInt(results.lost) * 10_000n) / BigInt(results.accounts), 2);
  return (
    <List
      header={t("proof.transparency.spotTitle", { days: results.days })}
      data-testid="spot-results"
    >
      <List.Item
        description={t("proof.transparency.spotHow", {
          asset: results.valuationAsset,
          unpriced: results.unpriced,
        })}
      >
        {share === null
          ? t("proof.transparency.spotNone")
          : t("proof.transparency.spotLost", {
              lost: results.lost,
              accounts: results.accounts,
              share: format.percent(share),
            })}
      </List.Item>
    </List>
  );
}

/** Each system account's balance 30, 7 and 1 days ago and now, from its postings. */
function SystemHistory({ history }: { history: Transparency["systemHistory"] }) {
  const { t } = useTranslation();
  const labels = [
    t("proof.transparency.ago30"),
    t("proof.transparency.ago7"),
    t("proof.transparency.ago1"),
    t("proof.transparency.now"),
  ];
  return (
    <List header={t("proof.transparency.historyTitle")} data-testid="system-history">
      {history.accounts.map((row) => (
        <List.Item
          key={`${row.ownerId} ${row.assetId}`}
          description={
            <dl className="history-points">
              {row.amounts.map((amount, i) => (
                <div key={history.atMs[i]}>
                  <dt>{labels[i]}</dt>
                  <dd>
                    <Amount value={amount} />
                  </dd>
                </div>
              ))}
            </dl>
          }
        >
          {accountName(row.ownerId, t)} · {row.assetId}
        </List.Item>
      ))}
    </List>
  );
}

/** Seconds contracts settled over the last 30 days with real money: outcomes and users' net. */
function SecondsResults() {
  const { t } = useTranslation();
  const format = useFormat();
  const outcomes = useQuery({ queryKey: proofKeys.seconds(), queryFn: fetchSecondsOutcomes });
  if (!outcomes.data) return null;
  const d = outcomes.data;
  return (
    <List header={t("proof.transparency.secondsTitle")} data-testid="seconds-results">
      <List.Item>
        {d.wonShareBps === null
          ? t("proof.transparency.secondsNone")
          : t("proof.transparency.secondsWon", {
              won: d.wonCount,
              settled: d.settledCount,
              share: format.percent(formatDecimal(BigInt(d.wonShareBps), 2)),
            })}
      </List.Item>
      {d.usersNet.map((row) => (
        <List.Item key={row.asset} extra={<Amount value={row.amount} />}>
          {t("proof.transparency.secondsNet", { asset: row.asset })}
        </List.Item>
      ))}
    </List>
  );
}
