import { List } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { accountName } from "../../../lib/names.ts";
import { fetchTransparency, proofKeys } from "../api/proof-api.ts";

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
