import { Button, List } from "antd-mobile";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { bcp47ByLocale, type Locale } from "@candor/contract/locales";
import { formatDecimal } from "@candor/decimal";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { formatAmount } from "../../../lib/format-amount.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { formatDateTime } from "../../../lib/timestamp.ts";
import {
  checkMyInclusion,
  fetchLatestRoot,
  proofKeys,
  type CheckOutcome,
} from "../api/proof-api.ts";
import { StatementCheck } from "./statement-check.tsx";

/** Smallest units of an asset as text in the reader's locale, every decimal kept. */
function amountText(units: bigint | string, scale: number, locale: string) {
  return formatAmount(formatDecimal(BigInt(units), scale), { locale, decimalsMax: scale });
}

/**
 * Proof of liabilities (issue 24): the latest published root — hash, journal sequence, number
 * of users and totals per asset — and, for a signed-in real-money user, a check run in this
 * browser that their balances are among those totals.
 */
export function ProofPage() {
  const { t, i18n } = useTranslation();
  const locale = bcp47ByLocale[i18n.language as Locale] ?? "en";
  const session = useSession();
  const latest = useQuery({ queryKey: proofKeys.latest(), queryFn: fetchLatestRoot, retry: false });
  const check = useMutation({ mutationFn: (userId: string) => checkMyInclusion(userId) });

  return (
    <section className="page" aria-labelledby="proof-title">
      <h1 id="proof-title">{t("proof.title")}</h1>
      <p className="hint">{t("proof.explain")}</p>
      {latest.isPending ? <LoadingState /> : null}
      {latest.isError ? (
        <ErrorState message={latest.error.message} onRetry={() => void latest.refetch()} />
      ) : null}
      {latest.isSuccess ? (
        <List header={t("proof.latest")} data-testid="proof-root">
          <List.Item description={<code className="hash">{latest.data.root.hash}</code>}>
            {t("proof.rootHash")}
          </List.Item>
          <List.Item extra={latest.data.sequence}>{t("proof.sequence")}</List.Item>
          <List.Item extra={formatDateTime(latest.data.publishedAtMs, locale)}>
            {t("proof.publishedAt")}
          </List.Item>
          <List.Item extra={latest.data.root.leafCount}>{t("proof.users")}</List.Item>
          {latest.data.root.assets.map((assetId, i) => (
            <List.Item
              key={assetId}
              extra={amountText(latest.data.root.sums[i]!, latest.data.scales[i] ?? 0, locale)}
            >
              {t("proof.totalOf", { asset: assetId })}
            </List.Item>
          ))}
        </List>
      ) : null}
      {session && !isDemo(session) ? (
        <div className="stack">
          <Button
            block
            color="primary"
            loading={check.isPending}
            onClick={() => check.mutate(session.user.id)}
            data-testid="proof-check"
          >
            {t("proof.check")}
          </Button>
        </div>
      ) : (
        <p className="hint">{t("proof.signInReal")}</p>
      )}
      {check.isError ? <ErrorState message={check.error.message} /> : null}
      {check.data?.ok === true ? <Included outcome={check.data} locale={locale} /> : null}
      {check.data?.ok === false ? (
        <div data-testid="proof-failed">
          <ErrorState message={`✗ ${t("proof.failed")} (${check.data.reason})`} />
        </div>
      ) : null}
      <p className="hint">{t("proof.scriptHint")}</p>
      {session ? (
        <StatementCheck userId={session.user.id} real={!isDemo(session)} locale={locale} />
      ) : null}
    </section>
  );
}

/** What a proof that verified says: the user's amounts in the tree, per asset held. */
function Included({
  outcome,
  locale,
}: {
  outcome: Extract<CheckOutcome, { ok: true }>;
  locale: string;
}) {
  const { t } = useTranslation();
  return (
    <List header={t("proof.verified")} data-testid="proof-verified">
      <List.Item description={t("proof.verifiedExplain", { sequence: outcome.sequence })}>
        <strong>✓ {t("proof.included")}</strong>
      </List.Item>
      {outcome.assets.map((assetId, i) =>
        outcome.values[i] === 0n ? null : (
          <List.Item
            key={assetId}
            extra={amountText(outcome.values[i]!, outcome.scales[i] ?? 0, locale)}
          >
            {assetId}
          </List.Item>
        ),
      )}
    </List>
  );
}
