import { Button, Form, Input } from "antd-mobile";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { resetPassword, sendEmailCode } from "../api/auth-api.ts";
import { CaptchaField } from "./captcha-field.tsx";
import { EmailCodeButton } from "./email-code-button.tsx";

interface ResetValues {
  email: string;
  captchaText: string;
  emailCode: string;
  password: string;
  passwordConfirm: string;
}

/** Forgot password: a code by e-mail, then a new password. */
export function ForgotPasswordPage({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetValues>();
  const captchaId = useRef("");
  const submit = async (values: ResetValues) => {
    try {
      await withLoading(
        resetPassword({
          email: values.email.trim(),
          emailCode: values.emailCode.trim(),
          password: values.password,
          passwordConfirm: values.passwordConfirm,
        }),
      );
      showSuccess(t("auth.forgot.done"));
      onDone();
    } catch (error) {
      showError(error);
    }
  };
  const sendCode = () =>
    sendEmailCode({
      email: (form.getFieldValue("email") as string | undefined)?.trim() ?? "",
      purpose: "reset_password",
      captchaId: captchaId.current,
      captchaText: (form.getFieldValue("captchaText") as string | undefined)?.trim() ?? "",
    });
  return (
    <section className="page" aria-labelledby="forgot-title">
      <h1 id="forgot-title">{t("auth.forgot.title")}</h1>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values: ResetValues) => void submit(values)}
        footer={
          <Button block type="submit" color="primary" size="large">
            {t("auth.forgot.submit")}
          </Button>
        }
      >
        <Form.Item
          name="email"
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
          label={t("auth.fields.newPassword")}
          rules={[{ required: true, min: 8, message: t("auth.fields.passwordRule") }]}
        >
          <Input
            type="password"
            placeholder={t("auth.fields.passwordPrompt")}
            autoComplete="new-password"
            aria-label={t("auth.fields.newPassword")}
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
      </Form>
    </section>
  );
}
