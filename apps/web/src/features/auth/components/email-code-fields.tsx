import { Form, Input } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { EmailCodeButton } from "./email-code-button.tsx";

/**
 * The fields registration and password reset share: e-mail, the e-mailed code and a password
 * typed twice (the captcha is solved by the browser with each request). They belong inside
 * the page's `Form`.
 */
export function EmailCodeFields({
  emailField,
  passwordLabel,
  sendCode,
}: {
  emailField: "email" | "account";
  passwordLabel: string;
  sendCode: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name={emailField}
        label={t("auth.fields.email")}
        rules={[{ required: true, type: "email", message: t("auth.fields.emailPrompt") }]}
      >
        <Input autoComplete="email" aria-label={t("auth.fields.email")} maxLength={254} />
      </Form.Item>
      <Form.Item
        name="emailCode"
        label={t("auth.fields.code")}
        extra={<EmailCodeButton send={sendCode} />}
        rules={[{ required: true, message: t("auth.fields.codePrompt") }]}
      >
        <Input autoComplete="one-time-code" aria-label={t("auth.fields.code")} maxLength={12} />
      </Form.Item>
      <Form.Item
        name="password"
        label={passwordLabel}
        rules={[{ required: true, min: 8, message: t("auth.fields.passwordRule") }]}
      >
        <Input
          type="password"
          autoComplete="new-password"
          aria-label={passwordLabel}
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
          autoComplete="new-password"
          aria-label={t("auth.fields.passwordConfirm")}
          maxLength={128}
        />
      </Form.Item>
    </>
  );
}
