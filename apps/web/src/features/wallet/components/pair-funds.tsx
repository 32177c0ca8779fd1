import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState } from "../../../components/ui/states.tsx";
import { isZeroDecimal } from "../../../lib/decimal-text.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { useBalances } from "../api/wallet-api.ts";
import { FundsLinks } from "./funds-links.tsx";

/**
 * The funds of one pair on the Coin-Coin screen: available (and held) of its base and quote
 * asset, the statement link and, in demo mode, demo funds of the quote asset.
 */
export function PairFunds({ baseAsset, quoteAsset }: { baseAsset: string; quoteAsset: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const balances = useBalances();
  const items = balances.data?.items ?? [];
  return (
    <section className="spot-card" aria-labelledby="funds-title">
      <h2 id="funds-title">{t("coinCoin.funds.title")}</h2>
      {balances.isError ? <ErrorState message={balances.error.message} /> : null}
      <dl className="detail-list" data-testid="spot-balances">
        {[baseAsset, quoteAsset].map((asset) => {
          const balance = items.find((b) => b.asset === asset);
          return (
            <div key={asset} style={{ display: "contents" }}>
              <dt>{asset}</dt>
              <dd data-testid={`balance-${asset}`}>
                <Amount value={balance?.available ?? (balances.isSuccess ? "0" : undefined)} />
                {balance && !isZeroDecimal(balance.held) ? (
                  <span className="hint">
                    {" "}
                    ({t("coinCoin.funds.held")} <Amount value={balance.held} />)
                  </span>
                ) : null}
              </dd>
            </div>
          );
        })}
      </dl>
      <FundsLinks demo={isDemo(session)} demoAsset={quoteAsset} />
    </section>
  );
}
