import type { InstrumentView } from "@candor/contract";
import { List, Popup, SearchBar } from "antd-mobile";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../../components/ui/states.tsx";
import { instrumentName } from "../../../lib/names.ts";

/** The pair selector: a sheet with a search field and the spot pairs. */
export function PairPicker({
  pairs,
  visible,
  onClose,
  onPick,
}: {
  pairs: readonly InstrumentView[];
  visible: boolean;
  onClose: () => void;
  onPick: (instrumentId: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState("");
  const matches = useMemo(() => {
    const needle = query.trim().toLowerCase();
    if (!needle) return pairs;
    return pairs.filter(
      (pair) =>
        pair.symbol.toLowerCase().includes(needle) ||
        pair.id.toLowerCase().includes(needle) ||
        pair.names.en.toLowerCase().includes(needle) ||
        pair.names["zh-Hant"].includes(query.trim()),
    );
  }, [pairs, query]);
  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      position="bottom"
      bodyStyle={{ maxHeight: "75vh", overflowY: "auto" }}
    >
      <div className="page" role="dialog" aria-labelledby="pair-picker-title">
        <h2 id="pair-picker-title">{t("coinCoin.pair.title")}</h2>
        <SearchBar
          placeholder={t("coinCoin.pair.search")}
          value={query}
          onChange={setQuery}
          aria-label={t("coinCoin.pair.search")}
          data-testid="pair-search"
        />
        {matches.length === 0 ? <EmptyState text={t("search.none")} /> : null}
        <List>
          {matches.map((pair) => (
            <List.Item
              key={pair.id}
              onClick={() => {
                onPick(pair.id);
                onClose();
              }}
              description={instrumentName(pair, t, i18n.language)}
              data-testid="pair-option"
            >
              {pair.symbol}
            </List.Item>
          ))}
        </List>
      </div>
    </Popup>
  );
}
