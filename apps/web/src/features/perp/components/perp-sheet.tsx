import { Button, Input, Popup } from "antd-mobile";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { showError, withLoading } from "../../../lib/feedback.ts";
import { askToSetTradePassword } from "../../../lib/trade-password.tsx";

const sheetStyle = { maxHeight: "85vh", overflowY: "auto" } as const;

/**
 * A confirmation sheet: what is about to happen, the trade password in real mode, then the
 * action. Every perpetual order and position action goes through one.
 */
export function ConfirmSheet({
  title,
  testId,
  visible,
  real,
  submitLabel,
  onClose,
  onConfirm,
  children,
}: {
  title: string;
  testId: string;
  visible: boolean;
  real: boolean;
  submitLabel: string;
  onClose: () => void;
  /** Runs the action with the trade password (real mode); resolves when done. */
  onConfirm: (tradePassword: string | undefined) => Promise<unknown>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const confirm = async () => {
    try {
      await withLoading(onConfirm(real && password !== "" ? password : undefined));
      setPassword("");
      onClose();
    } catch (error) {
      if ((error as { code?: string }).code === "trade_password_not_set") {
        onClose();
        void askToSetTradePassword();
        return;
      }
      showError(error);
    }
  };
  return (
    <Popup visible={visible} position="bottom" bodyStyle={sheetStyle} onClose={onClose}>
      {visible ? (
        <div className="page" role="dialog" aria-label={title} data-testid={testId}>
          <h2>{title}</h2>
          {children}
          {real ? (
            <Input
              type="password"
              aria-label={t("coinCoin.password.label")}
              placeholder={t("perp.passwordHint")}
              value={password}
              onChange={setPassword}
              data-testid="perp-trade-password"
            />
          ) : null}
          <div className="stack">
            <Button
              block
              color="primary"
              onClick={() => void confirm()}
              data-testid={`${testId}-submit`}
            >
              {submitLabel}
            </Button>
            <Button block onClick={onClose}>
              {t("common.cancel")}
            </Button>
          </div>
        </div>
      ) : null}
    </Popup>
  );
}
