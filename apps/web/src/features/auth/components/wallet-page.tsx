import { Button, Input } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ApiError } from "../../../lib/api-client.ts";
import { showError, withLoading } from "../../../lib/feedback.ts";
import { setSession } from "../../../lib/session.ts";
import { detectWallet, signInChainIds, type InjectedWallet } from "../../../lib/wallet.ts";
import { fetchWalletNonce, walletLogin } from "../api/auth-api.ts";

type Detection =
  { state: "checking" } | { state: "none" } | { state: "found"; wallet: InjectedWallet };

/**
 * Wallet sign-in: looks for an injected wallet (100 ms, about 3 times); with one, signs an
 * EIP-4361 message with a server nonce. Without one, offers the page explaining wallets; e-mail
 * login stays available either way (DESIGN §4).
 */
export function WalletPage({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation();
  const [detection, setDetection] = useState<Detection>({ state: "checking" });
  // With two-factor sign-in on, the code goes with a second signature (the first nonce is spent).
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState("");
  useEffect(() => {
    let live = true;
    void detectWallet().then((wallet) => {
      if (live) setDetection(wallet ? { state: "found", wallet } : { state: "none" });
    });
    return () => {
      live = false;
    };
  }, []);

  const signIn = async (wallet: InjectedWallet) => {
    try {
      const session = await withLoading(
        (async () => {
          const accounts = (await wallet.request({ method: "eth_requestAccounts" })) as string[];
          const address = accounts[0];
          if (!address) throw new Error(t("auth.wallet.noAddress"));
          const chainId = Number.parseInt(
            (await wallet.request({ method: "eth_chainId" })) as string,
            16,
          );
          if (!(signInChainIds as readonly number[]).includes(chainId)) {
            throw new Error(t("auth.wallet.wrongChain"));
          }
          // The server writes the EIP-4361 message (domain, nonce, expiry); the wallet shows it.
          const { message } = await fetchWalletNonce(address, chainId);
          const signature = (await wallet.request({
            method: "personal_sign",
            params: [message, address],
          })) as string;
          const totpCode = code.trim();
          return walletLogin({
            address,
            message,
            signature,
            ...(needsCode && totpCode ? { totpCode } : {}),
          });
        })(),
      );
      setSession(session);
      onSignedIn();
    } catch (error) {
      if (error instanceof ApiError && error.code === "two_factor_required" && !needsCode) {
        setNeedsCode(true);
        return;
      }
      showError(error);
    }
  };

  return (
    <section className="page" aria-labelledby="wallet-title">
      <h1 id="wallet-title">{t("auth.wallet.title")}</h1>
      <p>{t("auth.wallet.explain")}</p>
      {detection.state === "checking" ? <p role="status">{t("auth.wallet.checking")}</p> : null}
      {needsCode ? (
        <div className="order-field">
          <span className="label">{t("auth.login.totpCode")}</span>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-label={t("auth.login.totpCode")}
            placeholder={t("auth.login.totpCode")}
            value={code}
            onChange={setCode}
            maxLength={11}
          />
          <p className="hint">{t("auth.login.totpHint")}</p>
        </div>
      ) : null}
      {detection.state === "found" ? (
        <Button block color="primary" size="large" onClick={() => void signIn(detection.wallet)}>
          {t("auth.wallet.signIn")}
        </Button>
      ) : null}
      {detection.state === "none" ? (
        <div role="status" data-testid="no-wallet">
          <p>{t("auth.wallet.none")}</p>
          <Link to="/wallet/info">{t("auth.wallet.learnMore")}</Link>
        </div>
      ) : null}
      <p className="link-row">
        <Link to="/login">{t("auth.wallet.useEmail")}</Link>
      </p>
    </section>
  );
}

/** What a wallet is, and what Candor will never ask of one (spec: pages/index/web). */
export function WalletInfoPage() {
  const { t } = useTranslation();
  return (
    <section className="page" aria-labelledby="wallet-info-title">
      <h1 id="wallet-info-title">{t("auth.walletInfo.title")}</h1>
      <p>{t("auth.walletInfo.what")}</p>
      <p>{t("auth.walletInfo.how")}</p>
      <h2>{t("auth.walletInfo.neverTitle")}</h2>
      <ul>
        <li>{t("auth.walletInfo.neverSeed")}</li>
        <li>{t("auth.walletInfo.neverApproval")}</li>
        <li>{t("auth.walletInfo.signOnly")}</li>
      </ul>
      <p className="link-row">
        <Link to="/login">{t("auth.wallet.useEmail")}</Link>
      </p>
    </section>
  );
}
