import type { InstrumentView, TickerView } from "@candor/contract";
import { List } from "antd-mobile";
import { StarFill, StarOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { Amount, ChangePercent } from "../../../components/ui/amount.tsx";
import { toggleFavourite, useFavourites } from "../../../lib/favourites.ts";
import { instrumentName } from "../../../lib/names.ts";

/** Rows of symbol, name, last price, 24 h change and volume; "--" until a ticker arrives. */
export function InstrumentList({
  instruments,
  tickers,
}: {
  instruments: readonly InstrumentView[];
  tickers: ReadonlyMap<string, TickerView>;
}) {
  const { t, i18n } = useTranslation();
  return (
    <List className="instrument-list">
      {instruments.map((instrument) => {
        const ticker = tickers.get(instrument.id);
        return (
          <List.Item
            key={instrument.id}
            data-testid="instrument-row"
            prefix={<StarButton instrumentId={instrument.id} symbol={instrument.symbol} />}
            description={
              <span>
                {instrumentName(instrument, t, i18n.language)} · {t("markets.volume")}{" "}
                <Amount value={ticker?.volume24h} decimalsMax={2} />
              </span>
            }
            extra={
              <span className="quote">
                <Amount value={ticker?.last} decimalsMax={instrument.priceScale} />
                <ChangePercent value={ticker?.changePercent24h} />
              </span>
            }
          >
            <span className="symbol">{instrument.symbol}</span>
            {ticker && !ticker.marketOpen ? (
              <span className="closed-tag">{t("markets.closed")}</span>
            ) : null}
          </List.Item>
        );
      })}
    </List>
  );
}

/** The star of a row: adds the market to the favourites, or takes it out. */
function StarButton({ instrumentId, symbol }: { instrumentId: string; symbol: string }) {
  const { t } = useTranslation();
  const starred = useFavourites().includes(instrumentId);
  return (
    <button
      type="button"
      className={starred ? "star-button starred" : "star-button"}
      aria-pressed={starred}
      aria-label={starred ? t("markets.unstar", { symbol }) : t("markets.star", { symbol })}
      onClick={() => toggleFavourite(instrumentId)}
      data-testid="favourite-star"
    >
      {starred ? <StarFill aria-hidden="true" /> : <StarOutline aria-hidden="true" />}
    </button>
  );
}

/** "Simulated prices" when any shown price comes from the simulator (DESIGN §2). */
export function SimulatedLabel({ show }: { show: boolean }) {
  const { t } = useTranslation();
  if (!show) return null;
  return (
    <p className="simulated-label" data-testid="simulated-label">
      {t("markets.simulated")}
    </p>
  );
}
