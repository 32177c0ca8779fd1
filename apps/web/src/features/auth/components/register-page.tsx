import { Button, Checkbox, Form, Input, Popup, Toast } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { CountryPicker } from "../../../components/ui/country-picker.tsx";
import { countryName, pendingCountry } from "../../../lib/countries.ts";
import { showError, toastMs, withLoading } from "../../../lib/feedback.ts";
import { setSession } from "../../../lib/session.ts";
import { authKeys, fetchAgreement, register, sendEmailCode } from "../api/auth-api.ts";
import { EmailCodeFields } from "./email-code-fields.tsx";

interface RegisterValues {
  account: string;
  emailCode: string;
  password: string;
  passwordConfirm: string;
  inviteCode?: string;
  agreement: boolean;
}

/**
 * Register: e-mail, code, password twice, optional invite code and the agreement. The captcha
 * is a proof of work the browser solves with each request (`solvedCaptcha`).
 */
export function RegisterPage({ onSignedIn }: { onSignedIn: () => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<RegisterValues>();
  const [agreementOpen, setAgreementOpen] = useState(false);
  // Country of residence: picked here or on `/choose-location` before coming here.
  const [country, setCountry] = useState<string | null>(() => pendingCountry.get());
  const [countryOpen, setCountryOpen] = useState(false);
  // An invite link (`#/register?invite=CODE`) fills the invite code in; the server checks it.
  const [searchParams] = useSearchParams();
  const invitedWith = searchParams.get("invite")?.trim().slice(0, 32) ?? "";

  const submit = async (values: RegisterValues) => {
    if (!values.agreement) {
      Toast.show({ content: t("auth.register.confirmAgreement"), duration: toastMs });
      return;
    }
    try {
      const session = await withLoading(
        register({
          account: values.account.trim(),
          password: values.password,
          passwordConfirm: values.passwordConfirm,
          emailCode: values.emailCode.trim(),
          ...(values.inviteCode?.trim() ? { inviteCode: values.inviteCode.trim() } : {}),
          ...(country ? { country } : {}),
          agreement: true,
        }),
      );
      pendingCountry.clear();
      setSession(session);
      onSignedIn();
    } catch (error) {
      showError(error);
    }
  };

  const sendCode = () =>
    sendEmailCode({
      email: (form.getFieldValue("account") as string | undefined)?.trim() ?? "",
      purpose: "register",
    });

  return (
    <section className="page" aria-labelledby="register-title">
      <h1 id="register-title">{t("auth.register.title")}</h1>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values: RegisterValues) => void submit(values)}
        initialValues={{ agreement: false, ...(invitedWith ? { inviteCode: invitedWith } : {}) }}
        footer={
          <Button block type="submit" color="primary" size="large">
            {t("auth.register.submit")}
          </Button>
        }
      >
        <EmailCodeFields
          emailField="account"
          passwordLabel={t("auth.fields.password")}
          sendCode={sendCode}
        />
        <Form.Item name="inviteCode" label={t("auth.fields.inviteCode")}>
          <Input
            placeholder={t("auth.fields.inviteCodeOptional")}
            aria-label={t("auth.fields.inviteCode")}
            data-testid="invite-code-input"
            maxLength={32}
          />
        </Form.Item>
        <Form.Item label={t("residence.title")} description={t("auth.register.countryHint")}>
          <Button size="small" onClick={() => setCountryOpen(true)} data-testid="register-country">
            {country ? countryName(country, i18n.language) : t("residence.choose")}
          </Button>
        </Form.Item>
        <Form.Item name="agreement" valuePropName="checked">
          <Checkbox data-testid="agreement">{t("auth.register.agree")}</Checkbox>
        </Form.Item>
      </Form>
      <div className="link-row">
        <button type="button" className="link-button" onClick={() => setAgreementOpen(true)}>
          {t("auth.register.readAgreement")}
        </button>
        <Link to="/login">{t("auth.register.toLogin")}</Link>
      </div>
      <Popup
        visible={countryOpen}
        onMaskClick={() => setCountryOpen(false)}
        onClose={() => setCountryOpen(false)}
        showCloseButton
        bodyStyle={{ maxHeight: "80vh", overflowY: "auto", padding: 16 }}
      >
        {countryOpen ? (
          <CountryPicker
            selected={country}
            onPick={(code) => {
              setCountry(code);
              setCountryOpen(false);
            }}
          />
        ) : null}
      </Popup>
      <Popup
        visible={agreementOpen}
        onMaskClick={() => setAgreementOpen(false)}
        onClose={() => setAgreementOpen(false)}
        showCloseButton
        bodyStyle={{ maxHeight: "80vh", overflowY: "auto", padding: 16 }}
      >
        {agreementOpen ? <AgreementText /> : null}
      </Popup>
    </section>
  );
}

function AgreementText() {
  const { t, i18n } = useTranslation();
  const agreement = useQuery({
    queryKey: authKeys.agreement(i18n.language),
    queryFn: fetchAgreement,
    retry: false,
  });
  if (agreement.isPending) return <p role="status">{t("common.loading")}</p>;
  if (agreement.isError) return <p role="alert">{agreement.error.message}</p>;
  return (
    <article>
      <h2>{agreement.data.title}</h2>
      <p className="pre-line">{agreement.data.text}</p>
    </article>
  );
}
