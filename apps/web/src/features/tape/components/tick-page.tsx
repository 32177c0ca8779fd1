import type { TickNeighbourhood } from "@candor/contract";
import { bcp47ByLocale, type Locale } from "@candor/contract/locales";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { formatDateTime } from "../../../lib/timestamp.ts";
import { fetchTick, rawTapeUrl, tapeKeys } from "../api/tape-api.ts";

type Tick = TickNeighbourhood["tick"];

/**
 * The tape viewer (issue 24): one recorded tick — the price a fill or settlement cites — with
 * its instrument's ticks just before and after it in journal order, and a link to the raw tape.
 */
export function TickPage() {
  const { t, i18n } = useTranslation();
  const locale = bcp47ByLocale[i18n.language as Locale] ?? "en";
  const { instrumentId = "", tickId = "" } = useParams();
  const tick = useQuery({
    queryKey: tapeKeys.tick(instrumentId, tickId),
    queryFn: () => fetchTick(instrumentId, tickId),
    retry: false,
  });
  const row = (item: Tick, current: boolean) => (
    <tr key={item.sequence} className={current ? "tick-current" : undefined}>
      <td>{formatDateTime(item.tickAtMs, locale)}</td>
      <td className="number">
        <Amount value={item.price} />
      </td>
      <td className="number">
        {current ? (
          <strong>{item.sequence}</strong>
        ) : (
          <Link
            to={`/tape/${encodeURIComponent(item.instrumentId)}/${encodeURIComponent(item.tickId)}`}
          >
            {item.sequence}
          </Link>
        )}
      </td>
    </tr>
  );
  return (
    <section className="page" aria-labelledby="tick-title">
      <h1 id="tick-title">{t("tape.title")}</h1>
      <p className="hint">{t("tape.explain")}</p>
      {tick.isPending ? <LoadingState /> : null}
      {tick.isError ? <ErrorState message={tick.error.message} /> : null}
      {tick.isSuccess ? (
        <>
          <dl className="tick-facts" data-testid="tick-facts">
            <dt>{t("tape.instrument")}</dt>
            <dd>{tick.data.tick.instrumentId}</dd>
            <dt>{t("tape.tickId")}</dt>
            <dd>
              <code className="hash">{tick.data.tick.tickId}</code>
            </dd>
            <dt>{t("tape.price")}</dt>
            <dd data-testid="tick-price">
              <Amount value={tick.data.tick.price} />
            </dd>
            <dt>{t("tape.time")}</dt>
            <dd>{formatDateTime(tick.data.tick.tickAtMs, locale)}</dd>
            <dt>{t("tape.sequence")}</dt>
            <dd>{tick.data.tick.sequence}</dd>
          </dl>
          <h2>{t("tape.neighbours")}</h2>
          <table className="tick-table" data-testid="tick-neighbours">
            <thead>
              <tr>
                <th scope="col">{t("tape.time")}</th>
                <th scope="col">{t("tape.price")}</th>
                <th scope="col">{t("tape.sequence")}</th>
              </tr>
            </thead>
            <tbody>
              {tick.data.before.map((item) => row(item, false))}
              {row(tick.data.tick, true)}
              {tick.data.after.map((item) => row(item, false))}
            </tbody>
          </table>
          <p>
            <a href={rawTapeUrl(tick.data.tick.sequence)} target="_blank" rel="noreferrer">
              {t("tape.raw")}
            </a>
          </p>
        </>
      ) : null}
    </section>
  );
}
