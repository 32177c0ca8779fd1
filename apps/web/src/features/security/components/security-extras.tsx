import { useQueryClient } from "@tanstack/react-query";
import { Button, Input, List } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { residenceKeys, setAntiPhishingCode, useMe, useSignIns } from "../api/residence-api.ts";
import { useTwoFactorStatus } from "../api/security-api.ts";

/**
 * The anti-phishing code: shown at the top of every e-mail Candor sends, so a forged one is
 * told apart. Setting or changing it needs the trade password, or the authenticator code once
 * two-factor sign-in is on.
 */
export function AntiPhishingSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe();
  const twoFactor = useTwoFactorStatus();
  const [code, setCode] = useState("");
  const [proof, setProof] = useState("");
  if (me.isPending || twoFactor.isPending) return <LoadingState />;
  if (me.isError)
    return <ErrorState message={me.error.message} onRetry={() => void me.refetch()} />;
  const withTwoFactor = twoFactor.data?.enabled ?? false;
  const current = me.data.antiPhishingCode;

  const save = async (next: string | null) => {
    try {
      await withLoading(
        setAntiPhishingCode(
          next,
          withTwoFactor ? { totpCode: proof.trim() } : { tradePassword: proof },
        ),
      );
      setCode("");
      setProof("");
      await queryClient.invalidateQueries({ queryKey: residenceKeys.me });
      showSuccess(t("security.antiPhishing.saved"));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <div role="group" aria-labelledby="security-anti-phishing">
      <h2 id="security-anti-phishing">{t("security.antiPhishing.title")}</h2>
      <p className="hint">{t("security.antiPhishing.explain")}</p>
      <p data-testid="anti-phishing-current">
        {current
          ? t("security.antiPhishing.current", { code: current })
          : t("security.antiPhishing.none")}
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save(code.trim());
        }}
      >
        <label className="field">
          <span className="label">{t("security.antiPhishing.code")}</span>
          <Input
            value={code}
            onChange={setCode}
            maxLength={20}
            placeholder={t("security.antiPhishing.codeHint")}
            aria-label={t("security.antiPhishing.code")}
            data-testid="anti-phishing-code"
          />
        </label>
        <label className="field">
          <span className="label">
            {withTwoFactor
              ? t("security.twoFactor.codeOrRecovery")
              : t("security.antiPhishing.tradePassword")}
          </span>
          <Input
            type={withTwoFactor ? "text" : "password"}
            value={proof}
            onChange={setProof}
            maxLength={64}
            autoComplete="off"
            aria-label={
              withTwoFactor
                ? t("security.twoFactor.codeOrRecovery")
                : t("security.antiPhishing.tradePassword")
            }
            data-testid="anti-phishing-proof"
          />
        </label>
        <Button
          block
          color="primary"
          type="submit"
          disabled={!/^[\p{L}\p{N}]{4,20}$/u.test(code.trim()) || !proof}
          data-testid="anti-phishing-save"
        >
          {current ? t("security.antiPhishing.change") : t("security.antiPhishing.set")}
        </Button>
        {current ? (
          <Button block fill="none" disabled={!proof} onClick={() => void save(null)}>
            {t("security.antiPhishing.remove")}
          </Button>
        ) : null}
      </form>
    </div>
  );
}

/** The last 50 sign-ins, failed attempts marked, with the device and the masked address. */
export function SignInHistorySection() {
  const { t, i18n } = useTranslation();
  const signIns = useSignIns();
  if (signIns.isPending) return <LoadingState />;
  if (signIns.isError) {
    return <ErrorState message={signIns.error.message} onRetry={() => void signIns.refetch()} />;
  }
  return (
    <div role="group" aria-labelledby="security-sign-ins">
      <h2 id="security-sign-ins">{t("security.signIns.title")}</h2>
      <List data-testid="sign-in-history">
        {signIns.data.items.map((item) => (
          <List.Item
            key={item.id}
            description={`${new Date(item.at).toLocaleString(i18n.language, { timeZone: "UTC" })} UTC · ${item.ipMasked ?? "—"} · ${item.userAgent ?? t("security.sessions.unknownDevice")}`}
            extra={
              item.succeeded ? (
                <span className="hint">{t("security.signIns.succeeded")}</span>
              ) : (
                <span className="sign-in-failed" data-testid="sign-in-failed">
                  {item.failure === "two_factor"
                    ? t("security.signIns.failedCode")
                    : t("security.signIns.failedPassword")}
                </span>
              )
            }
          >
            {t(`security.signIns.method.${item.method}`)}
          </List.Item>
        ))}
      </List>
    </div>
  );
}
