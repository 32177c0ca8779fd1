import { Button, Form, Input } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { ApiError } from "../../../lib/api-client.ts";
import { showError, withLoading } from "../../../lib/feedback.ts";
import { setSession } from "../../../lib/session.ts";
import { login, loginAsDemo } from "../api/auth-api.ts";

interface LoginValues {
  account: string;
  password: string;
  totpCode?: string;
}

/** E-mail (or phone) and password; links to register, reset, wallet and demo sign-in. */
export function LoginPage({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Asked for after a right password when the user has two-factor sign-in on.
  const [needsCode, setNeedsCode] = useState(false);
  const submit = async (values: LoginValues) => {
    const totpCode = values.totpCode?.trim();
    try {
      setSession(
        await withLoading(
          login({
            account: values.account,
            password: values.password,
            ...(needsCode && totpCode ? { totpCode } : {}),
          }),
        ),
      );
      onSignedIn();
    } catch (error) {
      if (error instanceof ApiError && error.code === "two_factor_required" && !needsCode) {
        setNeedsCode(true);
        return;
      }
      showError(error);
    }
  };
  const demo = async () => {
    try {
      setSession(await withLoading(loginAsDemo()));
      onSignedIn();
    } catch (error) {
      showError(error);
    }
  };
  return (
    <section className="page" aria-labelledby="login-title">
      <h1 id="login-title">{t("auth.login.title")}</h1>
      <Form
        layout="vertical"
        onFinish={(values: LoginValues) => void submit(values)}
        footer={
          <Button block type="submit" color="primary" size="large">
            {t("auth.login.submit")}
          </Button>
        }
      >
        <Form.Item
          name="account"
          label={t("auth.fields.account")}
          // Helper text, not a placeholder: a 360 px screen cut the long prompt off (issue 18).
          description={t("auth.fields.accountPrompt")}
          rules={[{ required: true, message: t("auth.fields.accountPrompt") }]}
        >
          <Input autoComplete="username" aria-label={t("auth.fields.account")} maxLength={254} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t("auth.fields.password")}
          rules={[{ required: true, message: t("auth.fields.passwordPrompt") }]}
        >
          <Input
            type="password"
            placeholder={t("auth.fields.passwordPrompt")}
            autoComplete="current-password"
            aria-label={t("auth.fields.password")}
            maxLength={128}
          />
        </Form.Item>
        {needsCode ? (
          <Form.Item
            name="totpCode"
            label={t("auth.login.totpCode")}
            description={t("auth.login.totpHint")}
            rules={[{ required: true, message: t("auth.login.totpHint") }]}
          >
            <Input
              autoFocus
              inputMode="numeric"
              autoComplete="one-time-code"
              aria-label={t("auth.login.totpCode")}
              maxLength={11}
              data-testid="login-totp"
            />
          </Form.Item>
        ) : null}
      </Form>
      <div className="link-row">
        <Link to="/register">{t("auth.login.toRegister")}</Link>
        <Link to="/forgot-password">{t("auth.login.toForgot")}</Link>
      </div>
      <div className="stack">
        <Button block onClick={() => void navigate("/wallet")}>
          {t("auth.login.withWallet")}
        </Button>
        <Button block fill="outline" onClick={() => void demo()} data-testid="demo-login">
          {t("auth.login.asDemo")}
        </Button>
        <p className="hint">{t("auth.login.demoHint")}</p>
      </div>
    </section>
  );
}
