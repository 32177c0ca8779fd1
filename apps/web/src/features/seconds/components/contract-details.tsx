import type { SecondsContractView } from "@candor/contract";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { useFormat } from "../../../lib/format.ts";
import { tickRoute } from "../api/seconds-api.ts";
import { bpsToPercent } from "../lib/seconds-math.ts";

/** A tape tick id as a link to its page on the public tape. */
function TickLink({
  instrumentId,
  tickId,
  testId,
}: {
  instrumentId: string;
  tickId: string | null;
  testId: string;
}) {
  const { t } = useTranslation();
  if (!tickId) return <span data-testid={testId}>{t("seconds.contract.noTick")}</span>;
  return (
    <Link to={tickRoute(instrumentId, tickId)} data-testid={testId}>
      {tickId}
    </Link>
  );
}

/** Every field of a contract (spec §3), with both tape ticks linked. */
export function ContractDetails({ contract }: { contract: SecondsContractView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const settled = contract.status === "settled";
  return (
    <dl className="detail-list" data-testid="contract-details">
      <dt>{t("seconds.contract.instrument")}</dt>
      <dd>{contract.instrumentId}</dd>
      <dt>{t("seconds.contract.direction")}</dt>
      <dd className={contract.direction === "up" ? "change up" : "change down"}>
        {t(`seconds.direction.${contract.direction}`)}
      </dd>
      <dt>{t("seconds.contract.period")}</dt>
      <dd>{t("seconds.seconds", { count: contract.periodS })}</dd>
      <dt>{t("seconds.contract.boughtAt")}</dt>
      <dd>{format.time(contract.boughtAtMs)}</dd>
      <dt>{t("seconds.contract.stake")}</dt>
      <dd>
        <Amount value={contract.stake} /> {contract.asset}
      </dd>
      <dt>{t("seconds.contract.payout")}</dt>
      <dd>
        {format.percent(bpsToPercent(contract.payoutBps))} · <Amount value={contract.payoutMax} />{" "}
        {contract.asset}
      </dd>
      <dt>{t("seconds.contract.openPrice")}</dt>
      <dd>
        <Amount value={contract.openPrice} />
      </dd>
      <dt>{t("seconds.contract.openTick")}</dt>
      <dd>
        <TickLink
          instrumentId={contract.instrumentId}
          tickId={contract.openTickId}
          testId="open-tick"
        />
      </dd>
      <dt>{t("seconds.contract.status")}</dt>
      <dd data-testid="contract-status">{t(`seconds.status.${contract.status}`)}</dd>
      {settled ? (
        <>
          <dt>{t("seconds.contract.settlePrice")}</dt>
          <dd>
            {contract.settlePrice ? (
              <Amount value={contract.settlePrice} />
            ) : (
              t("seconds.contract.noTick")
            )}
          </dd>
          <dt>{t("seconds.contract.settleTick")}</dt>
          <dd>
            <TickLink
              instrumentId={contract.instrumentId}
              tickId={contract.settleTickId}
              testId="settle-tick"
            />
          </dd>
          <dt>{t("seconds.contract.settledAt")}</dt>
          <dd>{contract.settledAtMs === null ? "--" : format.time(contract.settledAtMs)}</dd>
          <dt>{t("seconds.contract.result")}</dt>
          <dd data-testid="contract-outcome">
            {contract.outcome ? t(`seconds.outcome.${contract.outcome}`) : "--"}
          </dd>
          <dt>{t("seconds.contract.returned")}</dt>
          <dd>
            <Amount value={contract.returned ?? undefined} /> {contract.asset}
          </dd>
          <dt>{t("seconds.contract.profit")}</dt>
          <dd data-testid="contract-profit">
            <Amount value={contract.profit ?? undefined} /> {contract.asset}
          </dd>
        </>
      ) : null}
    </dl>
  );
}
