import { Button, List } from "antd-mobile";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ErrorState } from "../../../components/ui/states.tsx";
import { formatDateTime } from "../../../lib/timestamp.ts";
import {
  checkMyStatement,
  statementCsvUrl,
  type StatementOutcome,
  type TreeComparison,
} from "../api/statement-check.ts";

/**
 * "Check my statement": every posting of the session's mode, rechained and re-added in this
 * browser, compared with the published liabilities (real money) and with the previous check;
 * and the statement as CSV to keep.
 */
export function StatementCheck({
  userId,
  real,
  locale,
}: {
  userId: string;
  real: boolean;
  locale: string;
}) {
  const { t } = useTranslation();
  const check = useMutation({ mutationFn: () => checkMyStatement(userId, real) });
  return (
    <section className="stack" aria-labelledby="statement-check-title">
      <h2 id="statement-check-title">{t("proof.statement.title")}</h2>
      <p className="hint">{t("proof.statement.explain")}</p>
      <Button
        block
        color="primary"
        fill="outline"
        loading={check.isPending}
        onClick={() => check.mutate()}
        data-testid="statement-check"
      >
        {t("proof.statement.check")}
      </Button>
      <a className="adm-button adm-button-default adm-button-block" href={statementCsvUrl} download>
        {t("proof.statement.download")}
      </a>
      {check.isError ? <ErrorState message={check.error.message} /> : null}
      {check.data ? <Outcome outcome={check.data} locale={locale} /> : null}
    </section>
  );
}

function Outcome({ outcome, locale }: { outcome: StatementOutcome; locale: string }) {
  const { t } = useTranslation();
  if (!outcome.ok) {
    return (
      <div data-testid="statement-failed">
        <ErrorState
          message={`✗ ${t(`proof.statement.failure.${outcome.reason}`)} (${outcome.detail})`}
        />
      </div>
    );
  }
  const { tree, previous } = outcome;
  return (
    <List header={t("proof.verified")} data-testid="statement-verified">
      <List.Item
        description={t("proof.statement.linesExplain", {
          count: outcome.lineCount,
          sequence: outcome.sequence,
        })}
      >
        <strong>✓ {t("proof.statement.verified")}</strong>
      </List.Item>
      <List.Item description={<code className="hash">{outcome.head}</code>}>
        {t("proof.statement.head")}
      </List.Item>
      {tree ? <TreeLine tree={tree} /> : null}
      {previous ? (
        <List.Item data-testid={previous.kept ? "statement-kept" : "statement-changed"}>
          {previous.kept
            ? `✓ ${t("proof.statement.kept", { date: formatDateTime(previous.atMs, locale) })}`
            : `✗ ${t("proof.statement.changed", { date: formatDateTime(previous.atMs, locale) })}`}
        </List.Item>
      ) : null}
    </List>
  );
}

function TreeLine({ tree }: { tree: TreeComparison }) {
  const { t } = useTranslation();
  let text: string;
  if (tree.state === "not_included") text = t("proof.statement.treeUnavailable");
  else if (tree.state === "proof_failed") text = `✗ ${t("proof.failed")} (${tree.reason})`;
  else if (tree.state === "matches") {
    text = `✓ ${t("proof.statement.treeMatches", { sequence: tree.sequence })}`;
  } else text = `✗ ${t("proof.statement.treeDiffers", { sequence: tree.sequence })}`;
  return <List.Item data-testid={`statement-tree-${tree.state}`}>{text}</List.Item>;
}
