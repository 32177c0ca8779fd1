import type { WithdrawAddressView, WithdrawNetwork } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Input } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { confirmThenRun } from "../../../lib/dialogs.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import {
  accountKeys,
  addWithdrawAddress,
  deleteWithdrawAddress,
  useWithdrawAddresses,
} from "../api/accounts-api.ts";

const networks: readonly WithdrawNetwork[] = ["ethereum", "bsc", "cronos"];

/**
 * Withdrawal address book (spec tibidizhi, tibidizhiEdit): saved addresses with their network,
 * remark and when they become usable; add with a look-alike warning; delete after confirming.
 */
export function AddressBookPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const addresses = useWithdrawAddresses();
  const [network, setNetwork] = useState<WithdrawNetwork>("ethereum");
  const [address, setAddress] = useState("");
  const [remark, setRemark] = useState("");
  const [similar, setSimilar] = useState<WithdrawAddressView | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: accountKeys.addresses() });

  const add = async () => {
    setSimilar(null);
    try {
      const saved = await withLoading(
        addWithdrawAddress({ network, address: address.trim(), remark }),
      );
      setSimilar(saved.similarTo);
      showSuccess();
      setAddress("");
      setRemark("");
    } catch (error) {
      showError(error);
    }
    refresh();
  };
  const remove = async (item: WithdrawAddressView) => {
    const outcome = await confirmThenRun(t("wallet.addresses.deleteConfirm"), () =>
      deleteWithdrawAddress(item.addressId),
    );
    if (outcome !== "dismissed") refresh();
  };

  return (
    <section className="page" aria-labelledby="addresses-title">
      <h1 id="addresses-title">{t("wallet.addresses.title")}</h1>
      {addresses.isPending ? <LoadingState /> : null}
      {addresses.isError ? (
        <ErrorState message={addresses.error.message} onRetry={() => void addresses.refetch()} />
      ) : null}
      {addresses.isSuccess && addresses.data.items.length === 0 ? (
        <p className="hint" data-testid="addresses-empty">
          {t("wallet.addresses.empty")}
        </p>
      ) : null}
      <ul className="account-list">
        {addresses.data?.items.map((item) => (
          <li key={item.addressId} className="order-card" data-testid="address-item">
            <div className="order-card-head">
              <strong>{item.remark || t(`wallet.addresses.networks.${item.network}`)}</strong>
              <Button size="mini" onClick={() => void remove(item)} data-testid="address-delete">
                {t("wallet.addresses.delete")}
              </Button>
            </div>
            <code className="hash">{item.address}</code>
            <dl>
              <dt>{t("wallet.addresses.network")}</dt>
              <dd>{t(`wallet.addresses.networks.${item.network}`)}</dd>
              <dt>{t("wallet.addresses.usableFrom")}</dt>
              <dd>{new Date(item.usableFromMs).toLocaleString(i18n.language)}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <h2>{t("wallet.addresses.add")}</h2>
      {similar ? (
        <p className="order-warning" role="alert" data-testid="address-similar">
          {t("wallet.addresses.similar", { address: similar.address })}
        </p>
      ) : null}
      <form
        className="order-form"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <label className="order-field">
          <span className="label">{t("wallet.addresses.network")}</span>
          <select
            className="native-select"
            value={network}
            onChange={(event) => setNetwork(event.target.value as WithdrawNetwork)}
            data-testid="address-network"
          >
            {networks.map((n) => (
              <option key={n} value={n}>
                {t(`wallet.addresses.networks.${n}`)}
              </option>
            ))}
          </select>
        </label>
        <div className="order-field">
          <Input
            aria-label={t("wallet.addresses.address")}
            placeholder={t("wallet.addresses.address")}
            value={address}
            onChange={setAddress}
            data-testid="address-input"
          />
        </div>
        <div className="order-field">
          <Input
            aria-label={t("wallet.addresses.remark")}
            placeholder={t("wallet.addresses.remark")}
            value={remark}
            maxLength={40}
            onChange={setRemark}
            data-testid="address-remark"
          />
        </div>
        <p className="hint">{t("wallet.addresses.lockNote")}</p>
        <Button block color="primary" type="submit" data-testid="address-save">
          {t("wallet.addresses.save")}
        </Button>
      </form>
    </section>
  );
}
