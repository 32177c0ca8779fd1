import { useQuery } from "@tanstack/react-query";
import { Selector } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { knownErrorKey } from "../../../lib/i18n-keys.ts";
import {
  fetchPerpFills,
  fetchPerpForcedEvents,
  fetchPerpFunding,
  fetchPerpOrderHistory,
  perpKeys,
  tickRoute,
} from "../api/perp-api.ts";

type Kind = "orders" | "fills" | "forced" | "funding";

/** Tick ids as links to the public tape. */
function Ticks({ instrumentId, tickIds }: { instrumentId: string; tickIds: string[] }) {
  return (
    <>
      {tickIds.map((id) => (
        <Link key={id} to={tickRoute(instrumentId, id)} data-testid="perp-tick-link">
          {id}
        </Link>
      ))}
    </>
  );
}

/** History: orders, fills, liquidations and triggers (with their ticks), funding. */
export function PerpHistory({ instrumentOf }: { instrumentOf: (marketId: string) => string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [kind, setKind] = useState<Kind>("orders");
  // A refusal in the user's words; its code when it has no text.
  const refusalText = (code: string) => {
    const key = knownErrorKey(code);
    return key === null ? code : t(key);
  };
  // Who cancelled a waiting stop (the kernel's reasons); the reason itself when it is new.
  const cancelText = (reason: string) =>
    reason === "user" || reason === "demo_reset" || reason === "oco"
      ? t(`perp.forced.cancelReason.${reason}`)
      : reason;
  const history = useQuery({
    queryKey: perpKeys.history(kind),
    queryFn: async () => {
      switch (kind) {
        case "orders":
          return { kind, data: await fetchPerpOrderHistory() } as const;
        case "fills":
          return { kind, data: await fetchPerpFills() } as const;
        case "forced":
          return { kind, data: await fetchPerpForcedEvents() } as const;
        case "funding":
          return { kind, data: await fetchPerpFunding() } as const;
      }
    },
    refetchInterval: 3_000,
  });
  const time = (ms: number) => format.dateTime(ms);
  return (
    <section className="spot-card" aria-labelledby="perp-history-title">
      <h2 id="perp-history-title">{t("perp.history.title")}</h2>
      <Selector<Kind>
        showCheckMark={false}
        columns={2}
        value={[kind]}
        onChange={(v) => v[0] && setKind(v[0])}
        options={(["orders", "fills", "forced", "funding"] as const).map((k) => ({
          label: t(`perp.history.${k}`),
          value: k,
        }))}
        data-testid="perp-history-tabs"
      />
      {history.isPending ? <LoadingState /> : null}
      {history.isError ? (
        <ErrorState message={history.error.message} onRetry={() => void history.refetch()} />
      ) : null}
      {history.data && history.data.data.items.length === 0 ? (
        <p>{t("perp.history.none")}</p>
      ) : null}
      {history.data?.kind === "orders"
        ? history.data.data.items.map((o) => (
            <p key={o.orderId} data-testid="perp-history-order">
              {time(o.createdAtMs)} · {o.marketId} · {t(`perp.orderSide.${o.side}`)} ·{" "}
              {t(`perp.orderType.${o.orderType}`)} · {o.price ?? "—"} · {o.filledContracts}/
              {o.contracts} · {t(`perp.status.${o.status}`)}
            </p>
          ))
        : null}
      {history.data?.kind === "fills"
        ? history.data.data.items.map((f) => (
            <p key={`${f.fillId}-${f.role}`} data-testid="perp-history-fill">
              {time(f.atMs)} · {f.marketId} · {t(`perp.orderSide.${f.side}`)} ·{" "}
              <Amount value={f.price} /> · {f.contracts} · {t("perp.history.realised")}{" "}
              <Amount value={f.realisedPnl} /> · {t("perp.history.fee")} <Amount value={f.fee} />{" "}
              {f.liquidation ? `· ${t("perp.forced.liquidation")} ` : ""}
              <Ticks instrumentId={instrumentOf(f.marketId)} tickIds={f.tickIds} />
            </p>
          ))
        : null}
      {history.data?.kind === "forced"
        ? history.data.data.items.map((e) => (
            <p key={e.id} data-testid={`perp-forced-${e.kind}`}>
              {time(e.atMs)} · {e.marketId} · {t(`perp.forced.${e.kind}`)}
              {e.markPrice ? ` · ${t("perp.positions.markPrice")} ${e.markPrice}` : ""}
              {e.price ? ` · ${e.price}` : ""}
              {e.contracts ? ` · ${e.contracts}` : ""}
              {e.amount ? ` · ${e.amount}` : ""}
              {e.rank === null ? "" : ` · ${t("perp.forced.rank", { rank: e.rank })}`}
              {e.rejectCode ? ` · ${t("perp.forced.reason")}: ${refusalText(e.rejectCode)}` : ""}
              {e.reason ? ` · ${t("perp.forced.reason")}: ${cancelText(e.reason)}` : ""}
              {e.tickIds.length > 0 ? (
                <>
                  {" "}
                  · {t("perp.forced.tick")}:{" "}
                  <Ticks instrumentId={e.instrumentId} tickIds={e.tickIds} />
                </>
              ) : null}
            </p>
          ))
        : null}
      {history.data?.kind === "funding"
        ? history.data.data.items.map((f) => (
            <p key={f.id} data-testid="perp-history-funding">
              {time(f.atMs)} · {f.marketId} · {t("perp.market.fundingRate")} {f.rate} ·{" "}
              <Amount value={f.amount} /> ·{" "}
              <Ticks instrumentId={f.instrumentId} tickIds={f.tickIds} />
            </p>
          ))
        : null}
    </section>
  );
}
