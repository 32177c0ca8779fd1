import type { SessionView } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Input, List } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { confirmThenRun } from "../../../lib/dialogs.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { useSession } from "../../../lib/session.ts";
import {
  changePassword,
  confirmTwoFactor,
  disableTwoFactor,
  enrolTwoFactor,
  revokeOtherSessions,
  revokeSession,
  securityKeys,
  setTradePassword,
  useSessions,
  useTwoFactorStatus,
} from "../api/security-api.ts";
import { AntiPhishingSection, SignInHistorySection } from "./security-extras.tsx";

/**
 * The security centre (spec assets/anquanzhongxin, xiugaimima): login password, trade
 * password, two-factor sign-in with an authenticator app, and the active sessions with
 * "sign out this one / all others". Wallet users have no login password: they skip it.
 */
export function SecurityPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const walletUser = session?.user.username.startsWith("0x") ?? false;
  if (session?.user.demoOnly) {
    return (
      <section className="page" aria-labelledby="security-title">
        <h1 id="security-title">{t("security.title")}</h1>
        <p className="hint">{t("security.demoNote")}</p>
      </section>
    );
  }
  return (
    <section className="page" aria-labelledby="security-title">
      <h1 id="security-title">{t("security.title")}</h1>
      <List>
        <List.Item clickable arrowIcon onClick={() => void navigate("/identity")}>
          {t("identity.title")}
        </List.Item>
        <List.Item
          clickable
          arrowIcon
          onClick={() => void navigate("/open-location")}
          data-testid="residence-link"
        >
          {t("residence.title")}
        </List.Item>
        <List.Item
          clickable
          arrowIcon
          onClick={() => void navigate("/security/account-history")}
          data-testid="account-history-link"
        >
          {t("accountHistory.title")}
        </List.Item>
      </List>
      <TwoFactorSection walletUser={walletUser} />
      {walletUser ? null : (
        <PasswordChangeForm
          kind="password"
          currentAutoComplete="current-password"
          save={changePassword}
        />
      )}
      <PasswordChangeForm
        kind="tradePassword"
        currentAutoComplete="off"
        save={(current, next) => setTradePassword(next, current)}
      />
      <AntiPhishingSection />
      <SessionsSection />
      <SignInHistorySection />
    </section>
  );
}

/** Changes the login password or the trade password: current one, new one, submit. */
function PasswordChangeForm({
  kind,
  currentAutoComplete,
  save,
}: {
  kind: "password" | "tradePassword";
  currentAutoComplete: string;
  save: (current: string, next: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const headingId = kind === "password" ? "security-password" : "security-trade-password";
  const submit = async () => {
    try {
      await withLoading(save(current, next));
      setCurrent("");
      setNext("");
      showSuccess(t(`security.${kind}.changed`));
    } catch (error) {
      showError(error);
    }
  };
  return (
    <form
      className="order-form"
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id={headingId}>{t(`security.${kind}.title`)}</h2>
      <Input
        type="password"
        autoComplete={currentAutoComplete}
        aria-label={t(`security.${kind}.current`)}
        placeholder={t(`security.${kind}.current`)}
        value={current}
        onChange={setCurrent}
        maxLength={64}
      />
      <Input
        type="password"
        autoComplete="new-password"
        aria-label={t(`security.${kind}.new`)}
        placeholder={t(`security.${kind}.new`)}
        value={next}
        onChange={setNext}
        maxLength={64}
      />
      <Button type="submit" color="primary" disabled={!current || !next}>
        {t("security.password.submit")}
      </Button>
    </form>
  );
}

function TwoFactorSection({ walletUser }: { walletUser: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [enrolment, setEnrolment] = useState<{ secret: string; qrSvg: string } | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: securityKeys.twoFactor });
  if (status.isPending) return <LoadingState />;
  if (status.isError) {
    return <ErrorState message={status.error.message} onRetry={() => void status.refetch()} />;
  }
  const start = async () => {
    try {
      const started = await withLoading(enrolTwoFactor(walletUser ? undefined : password));
      setEnrolment({ secret: started.secret, qrSvg: started.qrSvg });
      setPassword("");
    } catch (error) {
      showError(error);
    }
  };
  const confirm = async () => {
    try {
      const confirmed = await withLoading(confirmTwoFactor(code.trim()));
      setRecoveryCodes(confirmed.recoveryCodes);
      setEnrolment(null);
      setCode("");
      refresh();
    } catch (error) {
      showError(error);
    }
  };
  const disable = async () => {
    try {
      await withLoading(disableTwoFactor(walletUser ? undefined : password, code.trim()));
      setPassword("");
      setCode("");
      setRecoveryCodes(null);
      refresh();
      showSuccess(t("security.twoFactor.disabled"));
    } catch (error) {
      showError(error);
    }
  };
  const passwordInput = walletUser ? null : (
    <Input
      type="password"
      autoComplete="current-password"
      aria-label={t("security.password.current")}
      placeholder={t("security.password.current")}
      value={password}
      onChange={setPassword}
      maxLength={64}
      data-testid="two-factor-password"
    />
  );
  const codeInput = (label: string) => (
    <Input
      inputMode="numeric"
      autoComplete="one-time-code"
      aria-label={label}
      placeholder={label}
      value={code}
      onChange={setCode}
      maxLength={11}
      data-testid="two-factor-code"
    />
  );
  return (
    <div className="order-form" aria-labelledby="security-two-factor" role="group">
      <h2 id="security-two-factor">{t("security.twoFactor.title")}</h2>
      <p data-testid="two-factor-state">
        {status.data.enabled
          ? t("security.twoFactor.on", { count: status.data.recoveryCodesLeft })
          : t("security.twoFactor.off")}
      </p>
      {recoveryCodes ? (
        <div className="order-card" role="status" data-testid="recovery-codes">
          <p>
            <strong>{t("security.twoFactor.recoveryTitle")}</strong>
          </p>
          <p className="hint">{t("security.twoFactor.recoveryHint")}</p>
          <ul className="recovery-codes">
            {recoveryCodes.map((recovery) => (
              <li key={recovery}>
                <code>{recovery}</code>
              </li>
            ))}
          </ul>
          <Button size="small" onClick={() => setRecoveryCodes(null)}>
            {t("security.twoFactor.saved")}
          </Button>
        </div>
      ) : null}
      {status.data.enabled ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void disable();
          }}
        >
          {passwordInput}
          {codeInput(t("security.twoFactor.codeOrRecovery"))}
          <Button type="submit" color="danger" fill="outline" disabled={!code}>
            {t("security.twoFactor.disable")}
          </Button>
        </form>
      ) : enrolment ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <p className="hint">{t("security.twoFactor.scan")}</p>
          <img
            className="qr-code"
            width={200}
            height={200}
            alt={t("security.twoFactor.qrAlt")}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
          />
          <p className="hint">{t("security.twoFactor.manual")}</p>
          <p>
            <code data-testid="two-factor-secret">{enrolment.secret}</code>
          </p>
          {codeInput(t("security.twoFactor.code"))}
          <Button type="submit" color="primary" disabled={!/^\d{6}$/.test(code.trim())}>
            {t("security.twoFactor.confirm")}
          </Button>
        </form>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void start();
          }}
        >
          {passwordInput}
          <Button
            type="submit"
            color="primary"
            disabled={!walletUser && !password}
            data-testid="two-factor-enable"
          >
            {t("security.twoFactor.enable")}
          </Button>
        </form>
      )}
    </div>
  );
}

function SessionsSection() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: securityKeys.sessions });
  if (sessions.isPending) return <LoadingState />;
  if (sessions.isError) {
    return <ErrorState message={sessions.error.message} onRetry={() => void sessions.refetch()} />;
  }
  const time = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(i18n.language, { timeZone: "UTC" }) + " UTC" : "—";
  const revokeOne = async (item: SessionView) => {
    const outcome = await confirmThenRun(
      t("security.sessions.revokeConfirm"),
      () => revokeSession(item.sessionId),
      null,
    );
    if (outcome === "done") refresh();
  };
  const revokeOthers = async () => {
    try {
      const done = await withLoading(revokeOtherSessions());
      showSuccess(t("security.sessions.revokedOthers", { count: done.revoked }));
      refresh();
    } catch (error) {
      showError(error);
    }
  };
  const items = sessions.data.sessions;
  return (
    <div aria-labelledby="security-sessions" role="group">
      <h2 id="security-sessions">{t("security.sessions.title")}</h2>
      <List>
        {items.map((item) => (
          <List.Item
            key={item.sessionId}
            description={`${item.ip ?? "—"} · ${t("security.sessions.lastSeen")}: ${time(item.lastSeenAt)}`}
            extra={
              item.current ? (
                <span className="hint">{t("security.sessions.current")}</span>
              ) : (
                <Button size="mini" onClick={() => void revokeOne(item)}>
                  {t("security.sessions.revoke")}
                </Button>
              )
            }
          >
            {item.userAgent ?? t("security.sessions.unknownDevice")}
          </List.Item>
        ))}
      </List>
      {items.length > 1 ? (
        <Button block fill="outline" onClick={() => void revokeOthers()}>
          {t("security.sessions.revokeOthers")}
        </Button>
      ) : null}
    </div>
  );
}
