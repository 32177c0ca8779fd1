import { Input } from "antd-mobile";
import i18n from "i18next";
import { callEndpoint } from "./api-client.ts";
import { confirm } from "./dialogs.tsx";
import { endpointTable } from "./api-endpoints.ts";
import { showError, showSuccess, withLoading } from "./feedback.ts";

const endpoints = endpointTable({
  setTradePassword: { method: "PUT", path: "/api/v1/me/trade-password", auth: "user" },
});

/**
 * "Please go to set the transaction password", with the form to set it right here: the spot
 * and seconds-contract screens ask it when the server answers `trade_password_not_set`.
 */
export async function askToSetTradePassword() {
  let password = "";
  let repeated = "";
  const go = await confirm({
    "aria-label": i18n.t("coinCoin.password.goSet"),
    title: i18n.t("coinCoin.password.goSet"),
    content: (
      <div className="stack">
        <Input
          type="password"
          aria-label={i18n.t("coinCoin.password.new")}
          placeholder={i18n.t("coinCoin.password.new")}
          onChange={(value) => (password = value)}
        />
        <Input
          type="password"
          aria-label={i18n.t("coinCoin.password.confirm")}
          placeholder={i18n.t("coinCoin.password.confirm")}
          onChange={(value) => (repeated = value)}
        />
        <p className="hint">{i18n.t("auth.fields.passwordRule")}</p>
      </div>
    ),
  });
  if (!go) return;
  try {
    await withLoading(
      callEndpoint(endpoints.setTradePassword, {
        body: { tradePassword: password, tradePasswordConfirm: repeated },
      }),
    );
    showSuccess();
  } catch (error) {
    showError(error);
  }
}
