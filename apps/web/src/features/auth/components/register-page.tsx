import { Button, Checkbox, Form, Input, Popup, Toast } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { showError, toastMs, withLoading } from "../../../lib/feedback.ts";
import { setSession } from "../../../lib/session.ts";
import { fetchAgreement, register, sendEmailCode } from "../api/auth-api.ts";
import { CaptchaField } from "./captcha-field.tsx";
import { EmailCodeButton } from "./email-code-button.tsx";

interface RegisterValues {
  account: string;
  emailCode: string;
  password: string;
  passwordConfirm: string;
  inviteCode?: string;
  captchaText: string;
  agreement: boolean;
}

/** Register: e-mail, code, password twice, optional invite code, captcha and the agreement. */
export function RegisterPage({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RegisterValues>();
  const captchaId = useRef("");
  const [agreementOpen, setAgreementOpen] = useState(false);

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
          captchaId: captchaId.current,
          captchaText: values.captchaText.trim(),
          ...(values.inviteCode?.trim() ? { inviteCode: values.inviteCode.trim() } : {}),
          agreement: true,
        }),
      );
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
      captchaId: captchaId.current,
      captchaText: (form.getFieldValue("captchaText") as string | undefined)?.trim() ?? "",
    });

  return (
    <section className="page" aria-labelledby="register-title">
      <h1 id="register-title">{t("auth.register.title")}</h1>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values: RegisterValues) => void submit(values)}
        initialValues={{ agreement: false }}
        footer={
          <Button block type="submit" color="primary" size="large">
            {t("auth.register.submit")}
          </Button>
        }
      >
        <Form.Item
          name="account"
          label={t("auth.fields.email")}
          rules={[{ required: true, type: "email", message: t("auth.fields.emailPrompt") }]}
        >
          <Input
            placeholder={t("auth.fields.emailPrompt")}
            autoComplete="email"
            aria-label={t("auth.fields.email")}
            maxLength={254}
          />
        </Form.Item>
        <Form.Item
          name="captchaText"
          label={t("auth.fields.captcha")}
          rules={[{ required: true, message: t("auth.fields.captchaPrompt") }]}
        >
          <CaptchaField onCaptchaId={(id) => (captchaId.current = id)} />
        </Form.Item>
        <Form.Item
          name="emailCode"
          label={t("auth.fields.code")}
          extra={<EmailCodeButton send={sendCode} />}
          rules={[{ required: true, message: t("auth.fields.codePrompt") }]}
        >
          <Input
            placeholder={t("auth.fields.codePrompt")}
            autoComplete="one-time-code"
            aria-label={t("auth.fields.code")}
            maxLength={12}
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t("auth.fields.password")}
          rules={[{ required: true, min: 8, message: t("auth.fields.passwordRule") }]}
        >
          <Input
            type="password"
            placeholder={t("auth.fields.passwordPrompt")}
            autoComplete="new-password"
            aria-label={t("auth.fields.password")}
            maxLength={128}
          />
        </Form.Item>
        <Form.Item
          name="passwordConfirm"
          label={t("auth.fields.passwordConfirm")}
          dependencies={["password"]}
          rules={[
            { required: true, message: t("auth.fields.passwordConfirmPrompt") },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue("password")
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("auth.fields.passwordsDiffer"))),
            }),
          ]}
        >
          <Input
            type="password"
            placeholder={t("auth.fields.passwordConfirmPrompt")}
            autoComplete="new-password"
            aria-label={t("auth.fields.passwordConfirm")}
            maxLength={128}
          />
        </Form.Item>
        <Form.Item name="inviteCode" label={t("auth.fields.inviteCode")}>
          <Input
            placeholder={t("auth.fields.inviteCodeOptional")}
            aria-label={t("auth.fields.inviteCode")}
            maxLength={32}
          />
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
    queryKey: ["agreement", i18n.language],
    queryFn: fetchAgreement,
    retry: false,
  });
  if (agreement.isPending) return <p role="status">{t("common.loading")}</p>;
  if (agreement.isError) return <p role="alert">{agreement.error.message}</p>;
  return (
    <article>
      <h2>{agreement.data.title}</h2>
      <p className="pre-line">{agreement.data.body}</p>
    </article>
  );
}
