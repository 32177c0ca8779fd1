import { Button } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useGrantDemoFunds } from "../api/wallet-api.ts";

/**
 * The row under fund balances: a link to the statement and, in demo mode, "Get demo funds" of
 * `demoAsset`, with the note on what demo money is. Shown on Assets and on Coin-Coin.
 */
export function FundsLinks({
  demo,
  demoAsset,
  testIdPrefix = "",
}: {
  demo: boolean;
  demoAsset: string;
  /** Prefix of the test ids of the link and the button ("assets-" on Assets). */
  testIdPrefix?: string;
}) {
  const { t } = useTranslation();
  const grantDemoFunds = useGrantDemoFunds();
  return (
    <>
      <div className="link-row">
        <Link to="/assets/statement" data-testid={`${testIdPrefix}statement-link`}>
          {t("coinCoin.funds.statement")}
        </Link>
        {demo ? (
          <Button
            size="small"
            color="warning"
            onClick={() => void grantDemoFunds(demoAsset)}
            data-testid={`${testIdPrefix}demo-funds`}
          >
            {t("coinCoin.funds.getDemo")}
          </Button>
        ) : null}
      </div>
      {demo ? <p className="hint">{t("mode.explain")}</p> : null}
    </>
  );
}
